// Conflict-driven search for nonograms (lazy clause generation): the CPU twin of shaders/nonogram/cdcl.wgsl, step
// for step, so tests compare conflicts, decisions, settles and solutions exactly.
//
// Why: depth-first search with probing at every node (reference.ts solveCpu) needs 10^5-10^6 probes on the late
// TAAI 2011 puzzles (random 25x25 pictures), because a wrong branch near the root is refuted again and again in
// every subtree. Here a contradiction is turned into a clause over cells that no later search may repeat.
//
// - Root probing first, in the first search (as the probing solver's root, reference.ts): each unknown cell set
//   each way at level 1 and propagated; a value that fails fixes the other, cells both values decide are fixed, in
//   sweeps until nothing changes. Those facts would otherwise be learned one conflict at a time.
// - Propagation: learned clauses (two watched literals, chained through the clauses) and the exact line settle
//   (settleByAutomaton here, settle.wgsl settle1 in the kernel, reference.ts settle: the same function): clauses
//   first, then the lowest dirty row, else the lowest dirty column, one line at a time.
// - A cell the settle of line l decides is explained by the cells of l known before that settle, reduced greedily
//   (latest first, each dropped while the rest still force the cell; explainLine, only when the conflict analysis
//   needs it): long explanations make long clauses that rarely prune (TAAI #200: 52,590 conflicts with the whole
//   line, 3,838 reduced).
// - 1-UIP learning, backjumping, activity branching (integer VSIDS) with saved phases, Luby restarts; a hard puzzle
//   gets up to four searches that differ in root probing, activity decay, first phase and target phases
//   (CDCL_SEARCHES).
// - Target phases (CaDiCaL's and Kissat's "target phase"): the values of the longest conflict-free trail so far
//   (the levels below a conflict's) come before the saved ones, so the search keeps steering back to the largest
//   consistent part of a picture it has found instead of wherever its last backjump left the phases.
// - A puzzle's searches share their short learned clauses (up to CDCL_SHARE_LENGTH literals, ManySAT-style): each
//   takes its peers' at its restarts, as they stood at the end of the round before (CdclRound), so the kernel's
//   searches, running side by side in one dispatch, stay the twin's step for step. The four searches then work as
//   one portfolio rather than four separate tries (TAAI #509: 111,351 conflicts for the best search alone; 21,291 for
//   one of four sharing, on the kernel).
// - Learned clauses live in a bounded arena per puzzle: when it is three quarters full the next restart keeps only
//   the short ones (the CPU threads' searches also clean up on a schedule, keeping low-LBD clauses: cleanup).
// - Uniqueness: a first solution becomes a clause (not all of its decisions again), the search goes on to a second
//   solution or to a contradiction at level 0 (unique).
import { popcount } from '../../engine/bits.ts';
import type { Nonogram } from './codec.ts';
import type { PackedJob } from './rounds.ts';
import { EMPTY, FILLED, UNKNOWN, initialCells, type Level } from './reference.ts';

/** kernel limits (cdcl.wgsl): lines up to 31 cells, so 961 cells and 1,922 literals at most */
export const CDCL_MAX_CELLS = 1024;
/**
 * Arena words per puzzle for learned clauses (each: length, two chain links, literals). Clauses average ~44 literals
 * on TAAI, so 64K words held ~1,400 and a clean-up every ~1,000 conflicts kept only the short ones (a fifth): with
 * 1M words, 34 TAAI puzzles of #401-460 (first solutions, 8,000-conflict cap) left 7 capped instead of 15, and
 * #596 took 7,867 conflicts instead of 45,102, #766 2,872 instead of 41,049 (a clean-up every ~16,000 now).
 */
export const CDCL_ARENA_WORDS = 1 << 20;
/** words of arena the CPU twin starts with (it doubles as clauses come, up to the arena's size) */
const FIRST_ARENA_WORDS = 1 << 16;
/** learned clauses up to this length survive a clean-up of the arena */
export const CDCL_KEEP_LENGTH = 12;
const RESTART_BASE = 100;
/**
 * Conflicts before a search's first rephase (CaDiCaL's schedule: the k-th gap is k times this; searches with target
 * phases only, as all of CDCL_SEARCHES are). At a rephase (at the restart that reaches it) the target is forgotten
 * and the saved phases become, in turn, the target's values (off it: as they were), the search's first phases, the
 * target's again, and the inverse of the first: a target is never replaced but by a longer trail, so without
 * rephases a search keeps steering back to the largest picture it has found, even when that picture is wrong. TAAI,
 * the portfolio on one thread (EXPERIMENTS.md, "Rephasing"): the 17 tail puzzles to a first solution in 110 s
 * instead of 165, and 126 of the 138 puzzles a GPU-only run had open at 82 s answered within 3 s each instead of 121.
 */
export const CDCL_REPHASE_INTERVAL = 1000;
/** One conflict-driven search: its activity decay, as the shift of the bump's growth per conflict (`inc += inc >>>
 * decayShift`: 4 decays faster than 5), the value its saved phases start with, whether root probing comes first,
 * and whether a decision takes the target phase (the longest conflict-free trail's value) before the saved one. */
export interface CdclSearch {
  decayShift: number;
  filledFirst: boolean;
  rootProbing: boolean;
  targetPhases: boolean;
}
/**
 * The searches a hard puzzle gets, in the order they join it (the kernel runs them side by side, the first answer
 * counts): per puzzle these settings differ wildly (TAAI #451: 356 conflicts with decay 4, 2,693 with 5; #590,
 * never answered before: decay 5 filled first in 160,538, while decay 4 and 5 empty first cap at 30,000). CPU twin,
 * first solutions, 8,000-conflict cap, the 34 puzzles of TAAI #401-460 that take 1,000 or more: decay 4 alone
 * 153,656 conflicts and 7 capped, decay 5 alone 115,558 and 4, decay 5 filled first alone 125,827 and 10; the best
 * of the two decays per puzzle 2 capped, of all three 0. #461-560 (73 puzzles): decay 4 359,569 and 25, decay 5
 * 354,583 and 28, the better of the two 21. Root probing before the first search (2026-11-26; the samples are the puzzles at 0-based indices
 * 401-460 and 461-560): 108,917 conflicts and 2 capped instead of 153,656 and 7, 330,216 and 27 instead of 359,569
 * and 25; geometric mean per puzzle 0.56 and 0.70. But on a file of 24 tail puzzles (GPU, `auto`, 600 s) it answered
 * 12 where decay 4 without it had answered 14 (three lost, one gained), so decay 4 without it stays as the second: a
 * puzzle's searches split its share of a round in powers of two (job.wgsl `share`), so a fourth search runs as fast
 * as the third. The decay-5 searches go without it, as decay 5 filled first answered #590 (index) so.
 * All four take target phases (2026-11-26): on the 16 TAAI puzzles a whole run left open (#394 ... #751), capped at
 * 150,000 conflicts, the two decay-4 searches together answered 11 without them and 15 with them, and with them some
 * search answered all 16 (#509 in 111,351 where the best without took 355,118; #586 20,148; #394 84,016 by decay 5).
 * On the 34 puzzles of #401-460 (8,000 cap), the four searches' geometric means per puzzle fell to 0.73-0.95 (decay 4
 * with root probing 88,579 conflicts against 108,917, decay 4 102,463 against 153,656). Per puzzle it is as chaotic as every setting here (#451: 356 conflicts with decay 4 alone, 6,089 with
 * targets), which the four searches share out.
 */
export const CDCL_SEARCHES: readonly CdclSearch[] = [
  { decayShift: 4, filledFirst: false, rootProbing: true, targetPhases: true },
  { decayShift: 4, filledFirst: false, rootProbing: false, targetPhases: true },
  { decayShift: 5, filledFirst: false, rootProbing: false, targetPhases: true },
  { decayShift: 5, filledFirst: true, rootProbing: false, targetPhases: true },
];

/** CDCL_SEARCHES in the order a puzzle's copy runs them, the first `rotation` moved to the end (cdcl-threads.ts
 * CDCL_COPY_ROTATION); a portfolio result's member is an index in this order */
export const rotatedSearches = (rotation: number): readonly CdclSearch[] => [...CDCL_SEARCHES.slice(rotation), ...CDCL_SEARCHES.slice(0, rotation)];

export const NONE = 0xffffffff;
const DECISION = 0xffffffff;
const FACT = 0xfffffffe;
const LINE_REASON = 0x80000000;
const TARGET_NONE = 2;

export type CdclStatus = 'solved' | 'multiple' | 'contradiction' | 'capped' | 'suspended';

export interface CdclOptions {
  /** 1: stop at the first solution; 2 (default): prove uniqueness or find a second */
  maxSolutions?: number;
  /** conflicts before the puzzle comes back `capped` */
  conflictCap?: number;
  /** words for learned clauses (default CDCL_ARENA_WORDS; small ones make tests reach the clean-up) */
  arenaWords?: number;
  /** which search (default the first of CDCL_SEARCHES) */
  search?: CdclSearch;
  /** conflicts before the first rephase (default CDCL_REPHASE_INTERVAL; tests make it small) */
  rephaseInterval?: number;
  /** the puzzle's remembered settles (settleCacheFor; default a new one): a settle is a function of its line's known
   * cells, so a puzzle's searches can share one */
  settleCache?: Uint32Array;
  /** clean-ups on a schedule that also keep low-LBD clauses (default none: the kernel's twin cleans only a full
   * arena); the CPU threads' searches and the solver's kernel take CDCL_CLEANUP */
  cleanup?: LbdCleanup;
}

/** A clean-up after `every` conflicts, then `every + growth * k` after the k-th, keeping clauses of LBD `keepLbd` or
 * less beside the short ones. */
export interface LbdCleanup {
  every: number;
  growth: number;
  keepLbd: number;
}

/**
 * The clean-ups the CPU threads' searches (cdcl-worker.ts) and the solver's kernel (lane.ts, cdcl.wgsl) take: the
 * watch chains stay shorter than a full arena's ~16,000 clauses. The
 * 24 hardest TAAI puzzles (the 17 of the tail and 7 more past 3 s), uniqueness, one thread each alone, as given and
 * transposed and mirrored both ways (other search paths, the same hardness): 422.5 s against 531.8 s in all (as
 * given 95.9 against 146.8); keeping LBD 6 429.9 s, 14 491.5 s, glucose's halving lost (EXPERIMENTS.md, "Clean-ups
 * by LBD, on a schedule"). The whole set: all 1,000 by 134-139 s instead of 174-180 s. Paired runs on the 40 slowest in
 * four orientations (the same search up to the first clean-up), the machine's drift taken out: without them 1.04-1.06x
 * the time per instance, 1.11x on those that reach a clean-up; LBD 8 or a clean-up every 6,000 lost (EXPERIMENTS.md,
 * "How much one draw says").
 */
export const CDCL_CLEANUP: LbdCleanup = { every: 8000, growth: 2000, keepLbd: 10 };
/** a learned clause's first word: its length, and its LBD from bit 16 (CdclOptions.cleanup; else 0) */
const LENGTH_MASK = 0xffff;
/** a clause's first literal in 16-bit words past twice its address: its length and two chain links come first */
const LIT = 6;
/** words a clause of `len` literals takes here: three, then its 16-bit literals (a word stays whole for the next) */
const clauseWords = (len: number) => 3 + ((len + 1) >>> 1);

export interface CdclResult {
  status: CdclStatus;
  solutions: string[];
  conflicts: number;
  decisions: number;
  /** line settles while propagating */
  settles: number;
  /** tries of the explanations' reductions (explainLine: each an automaton check, where it used to be a settle) */
  explainChecks: number;
  learned: number;
  restarts: number;
  /** root probing's probes (a cell set one way and propagated) */
  probes: number;
  /** the weakest means that sufficed: line logic, root probing, or decisions */
  level: Level;
}

/** A search's result before it has done anything (counts 0, no solution; `capped` until it ends otherwise). */
export const emptyCdclResult = (): CdclResult => ({ status: 'capped', solutions: [], conflicts: 0, decisions: 0, settles: 0, explainChecks: 0, learned: 0, restarts: 0, probes: 0, level: 'line' });

const luby = (i: number): number => {
  // the i-th (1-based) term of 1 1 2 1 1 2 4 ...
  let size = 1;
  let seq = 0;
  while (size < i + 1) {
    seq++;
    size = 2 * size + 1;
  }
  let x = i - 1;
  while (size - 1 !== x) {
    size = (size - 1) >> 1;
    seq--;
    x %= size;
  }
  return 1 << seq;
};
export { luby as lubyTerm };

/** A line clue's automaton (settleByAutomaton, explainLine): bits of states, the clue's pattern symbols matched
 * (1^c1 0 1^c2 0 ... 1^ck, the 0s also repeating before, between and after blocks), at most 32 for lines up to 31
 * cells. */
export interface LineAutomaton {
  /** states followed by a filled cell of a block */
  one: number;
  /** states at a block's end, followed by the one empty cell that must come next */
  gap: number;
  /** states an empty cell leaves alone: before the first block, between blocks, after the last */
  stay: number;
  accept: number;
}

export function lineAutomaton(clue: ArrayLike<number>): LineAutomaton {
  let one = 0;
  let gap = 0;
  let stay = 1;
  let q = 0;
  for (let b = 0; b < clue.length; b++) {
    if (clue[b] === 0) continue;
    if (q > 0) {
      gap |= 1 << q;
      q++;
      stay |= 1 << q;
    }
    one |= ((1 << clue[b]) - 1) << q;
    q += clue[b];
  }
  const accept = (1 << q) >>> 0;
  return { one, gap, stay: (stay | accept) >>> 0, accept };
}

// One cell of the automaton, written out where it is taken (settleByAutomaton, reduceExplanation), branch-free: from
// states s, forward `(fill & ((s & one) << 1)) | (empty & ((s & stay) | ((s & gap) << 1)))`, the states after it;
// backward `(fill & (s >>> 1) & one) | (empty & ((s & stay) | ((s >>> 1) & gap)))`, the states before it that lead
// into s; `fill` and `empty` masks (all ones or none) of the values the cell may take. As shared functions (given the
// automaton or its words) the searches ran 5-20% slower, side by side with these (2026-11-29).

// settleLine's states reachable from the start before each cell (Int32: as the bit operations give them)
const reachBeforeCells = new Int32Array(32);
let settledFil = 0;
let settledEmp = 0;

/**
 * The exact settle of a line of up to 31 cells (bits of `fil` and `emp`) by its clue's automaton, into settledFil and
 * settledEmp; false on a contradiction. The same function as reference.ts settle and settle.wgsl settle1 (the kernel
 * = twin tests compare every settle's outcome through the search), on words instead of a DP over cells: the twin's
 * conflicts cost 3x less (TAAI #401-500: 0.21 ms against 0.65). On SwiftShader the same loops were no faster than
 * settle1 (EXPERIMENTS.md).
 */
function settleByAutomaton(a: LineAutomaton, len: number, fil: number, emp: number): boolean {
  const { one, gap, stay } = a;
  const reachBefore = reachBeforeCells;
  const notEmpty = ~emp;
  const notFilled = ~fil;
  let s = 1;
  for (let j = 0; j < len; j++) {
    reachBefore[j] = s;
    s = (-((notEmpty >>> j) & 1) & ((s & one) << 1)) | (-((notFilled >>> j) & 1) & ((s & stay) | ((s & gap) << 1)));
  }
  if ((s & a.accept) === 0) return false;
  const cells = 2 ** len - 1;
  if (((fil | emp) >>> 0) === cells) {
    // nothing left to decide: the forward pass was the check
    settledFil = fil >>> 0;
    settledEmp = emp >>> 0;
    return true;
  }
  // below the lowest unknown cell nothing is left to decide, and a line that passed the forward check allows each
  // known cell its value: the backward pass stops there
  const unknown = cells & ~(fil | emp);
  const lowest = 31 - Math.clz32(unknown & -unknown);
  let live = a.accept | 0;
  let canFill = 0;
  let canEmpty = 0;
  for (let j = len - 1; j >= lowest; j--) {
    const viaFilled = -((notEmpty >>> j) & 1) & (live >>> 1) & one;
    const viaEmpty = -((notFilled >>> j) & 1) & ((live & stay) | ((live >>> 1) & gap));
    const reach = reachBefore[j];
    canFill |= ((reach & viaFilled) !== 0 ? 1 : 0) << j;
    canEmpty |= ((reach & viaEmpty) !== 0 ? 1 : 0) << j;
    live = viaFilled | viaEmpty;
  }
  settledFil = (fil | (unknown & ~canEmpty)) >>> 0;
  settledEmp = (emp | (unknown & ~canFill)) >>> 0;
  return true;
}

/** settleByAutomaton for a caller outside the search (tests): the settled cells' bits, undefined on a contradiction. */
export function settleByLineAutomaton(a: LineAutomaton, len: number, fil: number, emp: number): { fil: number; emp: number } | undefined {
  return settleByAutomaton(a, len, fil, emp) ? { fil: settledFil, emp: settledEmp } : undefined;
}

/**
 * A settle cache's entries per line, as bits (64): a search comes back to the same line states after every backjump
 * and restart (~65% of its settles repeat one it has made), and a remembered settle is a lookup instead of the
 * automaton's two passes. The search's steps stay the same (a settle is a function of the line's known cells):
 * 8 TAAI puzzles (0-based #384 #395 #427 #449 #451 #461 #476 #501, uniqueness, one thread) 4.6 -> 4.2 s, four tail
 * puzzles 22.3 -> 20.1 s; 256 entries 4.1-4.2 s, 1,024 4.1 s. A puzzle's searches share one (CdclPortfolio): ~50 KB
 * for a 25x25 while it waits paused on a thread (one per search, the peak RSS of a whole TAAI run rose ~100 MB).
 */
const SETTLE_CACHE_BITS = 6;
/** words per settle cache entry: the line's filled and empty bits, then the settle's (filled NONE: a contradiction) */
const SETTLE_ENTRY = 4;

/** An empty settle cache for puzzle p's lines (rows first); a line's bits are never all ones (31 cells at most), so
 * NONE marks an empty entry. */
export const settleCacheFor = (p: Nonogram): Uint32Array => new Uint32Array(((p.width + p.height) << SETTLE_CACHE_BITS) * SETTLE_ENTRY).fill(NONE);

/**
 * settleByAutomaton through `cache` (lines' entries one after another): the entry of line `line`'s known cells, made
 * first if it holds another state. Same results, into settledFil and settledEmp.
 */
function settleThroughCache(cache: Uint32Array, line: number, a: LineAutomaton, len: number, fil: number, emp: number): boolean {
  const hash = (Math.imul(fil, 0x9e3779b1) ^ Math.imul(emp ^ 0x5bd1e995, 0x85ebca6b)) >>> (32 - SETTLE_CACHE_BITS);
  const at = ((line << SETTLE_CACHE_BITS) + hash) * SETTLE_ENTRY;
  if (cache[at] !== fil || cache[at + 1] !== emp) {
    const ok = settleByAutomaton(a, len, fil, emp);
    cache[at] = fil;
    cache[at + 1] = emp;
    cache[at + 2] = ok ? settledFil : NONE;
    cache[at + 3] = settledEmp;
    return ok;
  }
  if (cache[at + 2] === NONE) return false;
  settledFil = cache[at + 2];
  settledEmp = cache[at + 3];
  return true;
}

// explainLine's layers: paths[j], the states reachable from the start through cells 0..j-1 (through the other value
// at the explained cell, once past it); ends[j], the states from which the accepting state is reachable through cells
// j..len-1 (through the other value at the explained cell, while before it). Int32: states as the bit operations
// give them (bit 31 negative), so a layer compares equal to a step's result. Taken into locals where used, as is
// reachBeforeCells: read through the module's bindings they cost 4-5% of a typical puzzle's search (400 TAAI puzzles).
const pathLayers = new Int32Array(33);
const endLayers = new Int32Array(33);
const byOrder = new Uint8Array(32);

/**
 * Why a line's known cells (bits of `fil` and `emp`, up to 31 cells; `order[i]` the trail position of cell i) force
 * cell `t` to `tv` (t -1: contradict the clue), `a` the automaton of the line's clue: a subset of them that still
 * does, as bits, reduced greedily latest first (each cell dropped while the rest still force it; each known cell is
 * tried once). Keeping the earliest cells gives clauses over older
 * literals: a cut in the clue's automaton that ignores the trail (the regular constraint's usual explanation, four
 * passes over the line) took 26% more conflicts on the CPU twin, TAAI #401-500 (185,994 against 147,057 with root
 * probing under a 3,000-conflict cap; 54 answered against 69), though it cost 3x less per conflict there.
 *
 * The tries need no settle (a settle each had been ~260 a conflict, 80% of the twin's time): the cells force the
 * value iff no path of the clue's automaton runs from the start to the accepting state through the other value at
 * t, so with the layers above, dropping cell p keeps them forcing it iff no state one step past `paths[p]` (either
 * value at p) is in `ends[p + 1]`. A drop then updates the layers past p and before it, as far as they change.
 */
export function explainLine(a: LineAutomaton, len: number, fil: number, emp: number, t: number, tv: number, order: ArrayLike<number>): number {
  // the known cells latest first (the lower cell first on a tie), each tried once: sorted once, not looked for per try
  let count = 0;
  for (let m = (fil | emp) >>> 0; m !== 0; m &= m - 1) {
    const i = 31 - Math.clz32(m & -m);
    let k = count++;
    for (; k > 0 && order[byOrder[k - 1]] < order[i]; k--) byOrder[k] = byOrder[k - 1];
    byOrder[k] = i;
  }
  return reduceExplanation(a, len, fil, emp, t, tv, byOrder);
}

/**
 * explainLine with its known cells given latest first (`latestFirst`, one per bit of fil | emp). The steps are
 * branch-free: each cell's values allowed (`canFill`, `canEmpty`: bits of the cells that may take them) select the
 * automaton's moves by masks, the automaton's words in locals (a third of a search's time went here with a call and
 * two branches per step).
 */
function reduceExplanation(a: LineAutomaton, len: number, fil: number, emp: number, t: number, tv: number, latestFirst: ArrayLike<number>): number {
  const { one, gap, stay } = a;
  const paths = pathLayers;
  const ends = endLayers;
  let keep = (fil | emp) >>> 0;
  const count = popcount(keep);
  // the other value at t, where the cells kept allow either
  let canFill = ~emp;
  let canEmpty = ~fil;
  if (t >= 0) {
    canFill = tv === EMPTY ? canFill | (1 << t) : canFill & ~(1 << t);
    canEmpty = tv === EMPTY ? canEmpty & ~(1 << t) : canEmpty | (1 << t);
  }
  let s = 1;
  paths[0] = 1;
  for (let j = 0; j < len; j++) {
    s = (-((canFill >>> j) & 1) & ((s & one) << 1)) | (-((canEmpty >>> j) & 1) & ((s & stay) | ((s & gap) << 1)));
    paths[j + 1] = s;
  }
  s = a.accept | 0;
  ends[len] = s;
  for (let j = len - 1; j >= 0; j--) {
    s = (-((canFill >>> j) & 1) & ((s >>> 1) & one)) | (-((canEmpty >>> j) & 1) & ((s & stay) | ((s >>> 1) & gap)));
    ends[j] = s;
  }
  for (let k = 0; k < count; k++) {
    const p = latestFirst[k];
    const before = paths[p];
    if ((((before & one) << 1) & ends[p + 1]) !== 0 || (((before & stay) | ((before & gap) << 1)) & ends[p + 1]) !== 0) continue;
    keep &= ~(1 << p);
    canFill |= 1 << p;
    canEmpty |= 1 << p;
    s = before;
    for (let j = p; j < len; j++) {
      s = (-((canFill >>> j) & 1) & ((s & one) << 1)) | (-((canEmpty >>> j) & 1) & ((s & stay) | ((s & gap) << 1)));
      if (s === paths[j + 1]) break;
      paths[j + 1] = s;
    }
    s = ends[p + 1];
    for (let j = p; j >= 0; j--) {
      s = (-((canFill >>> j) & 1) & ((s >>> 1) & one)) | (-((canEmpty >>> j) & 1) & ((s & stay) | ((s >>> 1) & gap)));
      if (s === ends[j]) break;
      ends[j] = s;
    }
  }
  return keep;
}

/** Solves one puzzle (lines up to 31 cells). */
export function solveCdclCpu(p: Nonogram, opts: CdclOptions = {}): CdclResult {
  const steps = cdclSteps(p, opts);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * What a search sees of its puzzle's other searches (clause sharing) and of the rounds it runs in, as the kernel's
 * job does: `budget` conflicts this round (root probes at ROOT_PROBES_PER_CONFLICT), after which it suspends (the
 * generator yields) at its next decision; its learned clauses of up to CDCL_SHARE_LENGTH literals go to `out` (at
 * most the ring's `perRound` a round, none once it has a solution: those clauses rest on the blocking one); at each
 * restart it takes the clauses of `peers` it has not taken, up to what each had given by the end of the last round
 * (peers are told apart by member, the first CDCL_MAX_PEERS members only).
 */
export interface CdclRound {
  budget: number;
  /** the kernel's ring (default CDCL_SHARE_RING; tests make it small) */
  ring?: ShareRing;
  out: Uint32Array[];
  peers: { member: number; out: readonly Uint32Array[]; visible: number }[];
  /** clauses taken (units among them), peers' entries the ring had moved past, clauses not shared for the round's cap */
  stats?: { taken: number; units: number; missed: number; held: number };
  /** the search's counts and solutions so far, set when it starts (a search stopped between rounds reports them) */
  live?: CdclResult;
  /** set by the search: its state while it waits between rounds (undefined at any other point, as in root probing) */
  capture?: () => CdclState | undefined;
  /** a search to go on from instead of starting (one `capture` gave, on another thread) */
  resumeFrom?: CdclState;
}

/**
 * A search as it waits between rounds: everything it goes on from (typed arrays and numbers, so a thread can post
 * it to another, the arrays' buffers transferred). Its propagation is done then (nothing queued, no line dirty), so
 * the scratch of a conflict's analysis and of root probing is not part of it.
 */
export interface CdclState {
  value: Uint8Array;
  level: Uint32Array;
  tpos: Uint32Array;
  reason: Uint32Array;
  activity: Uint32Array;
  phase: Uint8Array;
  target: Uint8Array;
  targetLen: number;
  trail: Uint32Array;
  trailLim: Uint32Array;
  /** watch heads, the blocking clause, the learned clauses (their literals 16 bits each over the same words) */
  mem: Uint32Array;
  top: number;
  ptop: number;
  blockAt: number;
  trailLen: number;
  dl: number;
  inc: number;
  res: CdclResult;
  litStates: Uint8Array;
  rowFil: Uint32Array;
  rowEmp: Uint32Array;
  colFil: Uint32Array;
  colEmp: Uint32Array;
  rowStack: Uint8Array;
  colStack: Uint8Array;
  rowKnown: Uint8Array;
  colKnown: Uint8Array;
  heap: Int32Array;
  heapAt: Int32Array;
  heapSize: number;
  takenFrom: Uint32Array;
  restarts: number;
  nextCleanup: number;
  cleanups: number;
  untilRestart: number;
  rephases: number;
  nextRephase: number;
}
/** learned clauses up to this length go to the puzzle's other searches */
export const CDCL_SHARE_LENGTH = 8;
/** The kernel's ring of a search's shared clauses (`entries` of 1 + CDCL_SHARE_LENGTH words, at most 256), and the
 * clauses a search shares per round at most: a peer reads only the entries a round cannot overwrite. */
export interface ShareRing {
  entries: number;
  perRound: number;
}
export const CDCL_SHARE_RING: ShareRing = { entries: 256, perRound: 64 };
/** the members (searches) whose clauses a search takes: the kernel keeps where it is in each one's ring */
export const CDCL_MAX_PEERS = 4;
/** the kernel's root probes per conflict of a round's budget (cdcl.wgsl ROOT_PROBES_PER_CONFLICT) */
const ROOT_PROBES_PER_CONFLICT = 16;

/** solveCdclCpu's search, suspending (yielding) where the kernel's job would at the end of a round (`round`). */
export function* cdclSteps(p: Nonogram, opts: CdclOptions = {}, round?: CdclRound): Generator<void, CdclResult> {
  const w = p.width;
  const h = p.height;
  const n = w * h;
  const maxSolutions = opts.maxSolutions ?? 2;
  const conflictCap = opts.conflictCap ?? Infinity;
  const arenaWords = opts.arenaWords ?? CDCL_ARENA_WORDS;
  const { decayShift, filledFirst, rootProbing, targetPhases } = opts.search ?? CDCL_SEARCHES[0];
  const cleanup = opts.cleanup;
  const keepLbd = cleanup ? cleanup.keepLbd : -1;

  // a search another thread ran until it yielded between rounds (CdclState), else the puzzle from its start
  const from = round?.resumeFrom;
  const value = from?.value ?? new Uint8Array(n);
  const level = from?.level ?? new Uint32Array(n);
  const tpos = from?.tpos ?? new Uint32Array(n);
  const reason = from?.reason ?? new Uint32Array(n);
  const activity = from?.activity ?? new Uint32Array(n);
  const phase = from?.phase ?? new Uint8Array(n).fill(filledFirst ? 1 : 0); // 1: filled was the cell's last value
  // the target phases: the values of the longest conflict-free trail so far (TARGET_NONE off it), and its length
  const target = from?.target ?? new Uint8Array(n).fill(TARGET_NONE);
  let targetLen = from?.targetLen ?? 0;
  const trail = from?.trail ?? new Uint32Array(n);
  const trailLim = from?.trailLim ?? new Uint32Array(n + 1);
  const seen = new Uint8Array(n);
  // watch heads (one per literal), then the blocking clause's room, then learned clauses: chain links are
  // addresses in `mem`, as in the kernel's slot. The kernel's clause is its length, two chain links and its literals,
  // a word each, and `top` counts the arena so (its fill decides restarts and clean-ups); here the literals take 16
  // bits each (`lits`, over the same memory: a clause at word `at` has literal j at lits[2 * at + LIT + j]), from
  // `ptop` on. Half the bytes: two searches on the two cores had slowed each other 15% (their clauses' cache misses),
  // where a search beside a loop of arithmetic slowed 3%.
  const HEADS = 2 * CDCL_MAX_CELLS;
  const BLOCK = HEADS;
  const ARENA = BLOCK + CDCL_MAX_CELLS + 3;
  const END = ARENA + arenaWords;
  // the arena grows as clauses come (putClause): most puzzles never need the whole of it, and a thread holds many
  let mem = from?.mem ?? new Uint32Array(Math.min(END, ARENA + FIRST_ARENA_WORDS)).fill(NONE, 0, HEADS);
  let lits = new Uint16Array(mem.buffer);
  // the same words as int32 (NONE is -1): the watch loop's addresses stay small integers for the JIT
  let memI = new Int32Array(mem.buffer);
  let top = from?.top ?? ARENA;
  let ptop = from?.ptop ?? ARENA;
  let blockAt = from?.blockAt ?? NONE;
  const learnt = new Uint32Array(n + 1);
  const expl = new Uint32Array(32);
  let explLen = 0;

  let trailLen = from?.trailLen ?? 0;
  let dl = from?.dl ?? 0;
  let qhead = from?.trailLen ?? 0;
  let rowDirty = 0;
  let colDirty = 0;
  let inc = from?.inc ?? 256;
  const res = from?.res ?? emptyCdclResult();
  if (round) round.live = res;

  const rowClues = p.rows;
  const colClues = p.columns;
  const rowAutomata = rowClues.map(lineAutomaton);
  const colAutomata = colClues.map(lineAutomaton);

  const litOf = (c: number) => 2 * c + (value[c] === EMPTY ? 1 : 0);
  // each literal's state, kept as cells are set and unset (the clauses' watch loops read it most): 1 true, 2 false,
  // 0 unassigned
  const litStates = from?.litStates ?? new Uint8Array(2 * n);
  const litState = (q: number) => litStates[q];

  // each line's known cells as bits (filled, empty), kept as cells are set and unset: a settle reads its line at once
  const rowFil = from?.rowFil ?? new Uint32Array(h);
  const rowEmp = from?.rowEmp ?? new Uint32Array(h);
  const colFil = from?.colFil ?? new Uint32Array(w);
  const colEmp = from?.colEmp ?? new Uint32Array(w);
  // each line's known cells in the order they were set (32 to a line; a stack, as the trail is, as deep as the line's
  // known bits): an explanation takes them latest first without a sort
  const rowStack = from?.rowStack ?? new Uint8Array(h * 32);
  const colStack = from?.colStack ?? new Uint8Array(w * 32);
  // each cell's row and column (no division per assignment)
  const rowOf = Uint8Array.from({ length: n }, (_, c) => Math.floor(c / w));
  const colOf = Uint8Array.from({ length: n }, (_, c) => c % w);
  // each line's known cells, counted (the depth of its stack)
  const rowKnown = from?.rowKnown ?? new Uint8Array(h);
  const colKnown = from?.colKnown ?? new Uint8Array(w);

  const assign = (c: number, v: number, why: number) => {
    value[c] = v;
    level[c] = dl;
    tpos[c] = trailLen;
    reason[c] = why;
    trail[trailLen++] = c;
    const r = rowOf[c];
    const col = colOf[c];
    litStates[2 * c] = v === FILLED ? 1 : 2;
    litStates[2 * c + 1] = v === FILLED ? 2 : 1;
    rowStack[r * 32 + rowKnown[r]++] = col;
    colStack[col * 32 + colKnown[col]++] = r;
    if (v === FILLED) {
      rowFil[r] |= 1 << col;
      colFil[col] |= 1 << r;
    } else {
      rowEmp[r] |= 1 << col;
      colEmp[col] |= 1 << r;
    }
    // the line whose settle decided the cell is at its fixpoint already
    const byLine = (why & LINE_REASON) !== 0 && why !== DECISION && why !== FACT;
    const byCol = byLine && (why & 0x40000000) !== 0;
    const line = (why >>> 20) & 31;
    if (!(byLine && !byCol && line === r)) rowDirty |= 1 << r;
    if (!(byLine && byCol && line === col)) colDirty |= 1 << col;
  };
  const assignLit = (q: number, why: number) => assign(q >> 1, q & 1 ? EMPTY : FILLED, why);

  // a line's cells: the row (col = false) or column l
  const cellOf = (isCol: boolean, l: number, i: number) => (isCol ? i * w + l : l * w + i);

  // the line whose settle found a contradiction, and the trail's length then (explained only when analysed)
  let failIsCol = false;
  let failLine = 0;
  let failPos = 0;
  const settleCache = opts.settleCache ?? settleCacheFor(p);
  /** Settles line l; false: a contradiction (the line noted in fail*). */
  const settleLine = (isCol: boolean, l: number): boolean => {
    const len = isCol ? h : w;
    const fil = isCol ? colFil[l] : rowFil[l];
    const emp = isCol ? colEmp[l] : rowEmp[l];
    res.settles++;
    const pos = trailLen;
    if (!settleThroughCache(settleCache, isCol ? h + l : l, isCol ? colAutomata[l] : rowAutomata[l], len, fil, emp)) {
      failIsCol = isCol;
      failLine = l;
      failPos = pos;
      return false;
    }
    const why = LINE_REASON | (isCol ? 0x40000000 : 0) | (l << 20) | pos;
    const nf = settledFil & ~fil;
    for (let m = nf | (settledEmp & ~emp); m !== 0; m &= m - 1) {
      const i = 31 - Math.clz32(m & -m);
      assign(cellOf(isCol, l, i), (nf >>> i) & 1 ? FILLED : EMPTY, why);
    }
    return true;
  };

  /**
   * The false literals of the cells of line l known before trail position `pos` that still force `target` to `tv`
   * (target -1: still contradict the clue), reduced latest first (explainLine); into `expl`.
   */
  const latestFirst = new Uint8Array(32);
  const explain = (isCol: boolean, l: number, pos: number, target: number, tv: number) => {
    const len = isCol ? h : w;
    const filled = isCol ? colFil[l] : rowFil[l];
    // the target's place in its line, and the line's other cells known before `pos`, latest first: its stack from the
    // top, past the cells set since
    const t = target < 0 ? -1 : isCol ? (target - l) / w : target - l * w;
    const stack = isCol ? colStack : rowStack;
    const base = l * 32;
    let k = base + (isCol ? colKnown[l] : rowKnown[l]);
    while (k > base && tpos[cellOf(isCol, l, stack[k - 1])] >= pos) k--;
    let fil = 0;
    let emp = 0;
    let count = 0;
    while (k > base) {
      const i = stack[--k];
      if (i === t) continue;
      if ((filled >>> i) & 1) fil |= 1 << i;
      else emp |= 1 << i;
      latestFirst[count++] = i;
    }
    const keep = reduceExplanation(isCol ? colAutomata[l] : rowAutomata[l], len, fil, emp, t, tv, latestFirst);
    res.explainChecks += popcount(fil | emp);
    explLen = 0;
    for (let m = keep; m !== 0; m &= m - 1) expl[explLen++] = litOf(cellOf(isCol, l, 31 - Math.clz32(m & -m))) ^ 1;
  };

  // conflict: NONE after a settle contradiction (the line in fail*), else the conflicting clause's address
  const propagate = (): number | undefined => {
    // the arena's views in locals: it grows only when a clause is learned, never in here
    const mem_ = memI;
    const lits_ = lits;
    const states = litStates;
    for (;;) {
      while (qhead < trailLen) {
        const falseLit = litOf(trail[qhead++]) ^ 1;
        let link = falseLit; // address of the pointer to the current clause
        let cl = mem_[link];
        while (cl !== -1) {
          const at = 2 * cl + LIT;
          // which of the two watches is this literal's, without a branch (half the time either: unpredictable)
          const k = ((lits_[at] ^ falseLit) + 0xffff) >>> 16;
          const next = mem_[cl + 1 + k];
          const other = lits_[at + 1 - k];
          if (states[other] === 1) {
            link = cl + 1 + k;
            cl = next;
            continue;
          }
          const len = mem_[cl] & LENGTH_MASK;
          let moved = false;
          for (let j = 2; j < len; j++) {
            const q = lits_[at + j];
            if (states[q] !== 2) {
              lits_[at + k] = q;
              lits_[at + j] = falseLit;
              mem_[link] = next;
              mem_[cl + 1 + k] = mem_[q];
              mem_[q] = cl;
              moved = true;
              break;
            }
          }
          if (!moved) {
            if (states[other] === 2) return cl;
            assignLit(other, cl);
            link = cl + 1 + k;
          }
          cl = next;
        }
      }
      if (rowDirty) {
        const l = 31 - Math.clz32(rowDirty & -rowDirty);
        rowDirty &= rowDirty - 1;
        if (!settleLine(false, l)) return NONE;
      } else if (colDirty) {
        const l = 31 - Math.clz32(colDirty & -colDirty);
        colDirty &= colDirty - 1;
        if (!settleLine(true, l)) return NONE;
      } else {
        return undefined;
      }
    }
  };

  // The decisions' order: a binary heap of cells by activity, the lowest cell first on a tie (as a scan of the cells
  // would pick, and the kernel does), holding every unassigned cell and some assigned ones, dropped when they come to
  // the top. A scan of every cell per decision had been ~5% of a thread's search.
  const heap = from?.heap ?? new Int32Array(n);
  const heapAt = from?.heapAt ?? new Int32Array(n).fill(-1);
  let heapSize = from?.heapSize ?? 0;
  const ahead = (a: number, b: number) => activity[a] > activity[b] || (activity[a] === activity[b] && a < b);
  const siftUp = (i: number) => {
    const c = heap[i];
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (!ahead(c, heap[up])) break;
      heap[i] = heap[up];
      heapAt[heap[i]] = i;
      i = up;
    }
    heap[i] = c;
    heapAt[c] = i;
  };
  const siftDown = (i: number) => {
    const c = heap[i];
    for (;;) {
      let child = 2 * i + 1;
      if (child >= heapSize) break;
      if (child + 1 < heapSize && ahead(heap[child + 1], heap[child])) child++;
      if (!ahead(heap[child], c)) break;
      heap[i] = heap[child];
      heapAt[heap[i]] = i;
      i = child;
    }
    heap[i] = c;
    heapAt[c] = i;
  };
  const heapInsert = (c: number) => {
    if (heapAt[c] >= 0) return;
    heap[heapSize] = c;
    siftUp(heapSize++);
  };
  /** the unassigned cell of highest activity (some cell is unassigned) */
  const heapBest = (): number => {
    for (;;) {
      const c = heap[0];
      if (value[c] === UNKNOWN) return c;
      heapAt[c] = -1;
      heap[0] = heap[--heapSize];
      if (heapSize > 0) siftDown(0);
    }
  };
  if (!from) for (let c = 0; c < n; c++) heapInsert(c);

  const bump = (c: number) => {
    activity[c] += inc;
    if (activity[c] > 0x40000000) rescale();
    else if (heapAt[c] >= 0) siftUp(heapAt[c]);
  };
  const rescale = () => {
    for (let c = 0; c < n; c++) activity[c] >>>= 10;
    inc = Math.max(1, inc >>> 10);
    // activities that differed may now tie: the order again from scratch
    for (let i = (heapSize >> 1) - 1; i >= 0; i--) siftDown(i);
  };

  let learntLen = 0;
  let pathC = 0;
  const takeLit = (q: number) => {
    const v = q >> 1;
    if (seen[v] || level[v] === 0) return;
    seen[v] = 1;
    bump(v);
    if (level[v] === dl) pathC++;
    else learnt[learntLen++] = q;
  };
  const takeExplanation = () => {
    for (let j = 0; j < explLen; j++) takeLit(expl[j]);
  };
  // the learned clause's decision levels, counted before the backjump
  const levelSeen = new Uint32Array(n + 1);
  let levelStamp = 0;
  const lbdOfLearnt = (): number => {
    levelStamp++;
    let lbd = 0;
    for (let j = 0; j < learntLen; j++) {
      const lv = level[learnt[j] >> 1];
      if (levelSeen[lv] !== levelStamp) {
        levelSeen[lv] = levelStamp;
        lbd++;
      }
    }
    return lbd;
  };
  // a clause's literals but the one of cell `skip` (-1: all)
  const takeClause = (at: number, skip: number) => {
    const len = mem[at] & LENGTH_MASK;
    for (let j = 0; j < len; j++) {
      const q = lits[2 * at + LIT + j];
      if (q >> 1 !== skip) takeLit(q);
    }
  };
  /** 1-UIP: the learned clause in learnt[0..learntLen), the asserting literal first, the backjump level's second. */
  const analyze = (confl: number): number => {
    learntLen = 1;
    pathC = 0;
    // a settle's contradiction is explained here, not where propagate found it: a conflict at level 0 needs none
    // (the kernel explains in one place, cdcl.wgsl analyze)
    if (confl === NONE) {
      explain(failIsCol, failLine, failPos, -1, 0);
      takeExplanation();
    } else takeClause(confl, -1);
    let idx = trailLen - 1;
    let pc = 0;
    for (;;) {
      while (!seen[trail[idx]]) idx--;
      pc = trail[idx];
      idx--;
      seen[pc] = 0;
      pathC--;
      if (pathC === 0) break;
      const why = reason[pc];
      if (why & LINE_REASON) {
        explain((why & 0x40000000) !== 0, (why >>> 20) & 31, why & 0xfffff, pc, value[pc]);
        takeExplanation();
      } else {
        takeClause(why, pc);
      }
    }
    learnt[0] = litOf(pc) ^ 1;
    let bt = 0;
    let at = 1;
    for (let j = 1; j < learntLen; j++) {
      seen[learnt[j] >> 1] = 0;
      if (level[learnt[j] >> 1] > bt) {
        bt = level[learnt[j] >> 1];
        at = j;
      }
    }
    if (learntLen > 1) [learnt[1], learnt[at]] = [learnt[at], learnt[1]];
    return bt;
  };

  const cancelUntil = (lv: number) => {
    if (dl <= lv) return;
    const stop = trailLim[lv];
    for (let k = trailLen - 1; k >= stop; k--) {
      const c = trail[k];
      phase[c] = value[c] === FILLED ? 1 : 0;
      value[c] = UNKNOWN;
      heapInsert(c);
      litStates[2 * c] = 0;
      litStates[2 * c + 1] = 0;
      const r = rowOf[c];
      const col = colOf[c];
      rowKnown[r]--;
      colKnown[col]--;
      rowFil[r] &= ~(1 << col);
      rowEmp[r] &= ~(1 << col);
      colFil[col] &= ~(1 << r);
      colEmp[col] &= ~(1 << r);
    }
    trailLen = stop;
    qhead = stop;
    dl = lv;
    rowDirty = 0;
    colDirty = 0;
  };

  /** The next clause's address, its room taken: `len` literals in the kernel's words (`top`) and here (`ptop`). */
  const claimClause = (len: number): number => {
    const at = ptop;
    top += 3 + len;
    ptop += clauseWords(len);
    return at;
  };

  /** Writes a clause at `at` (claimClause) and links its first two literals; returns its address. */
  const putClause = (at: number, from: ArrayLike<number>, len: number) => {
    if (at + clauseWords(len) > mem.length) {
      const grown = new Uint32Array(Math.min(END, Math.max(at + clauseWords(len), 2 * mem.length)));
      grown.set(mem);
      mem = grown;
      lits = new Uint16Array(mem.buffer);
      memI = new Int32Array(mem.buffer);
    }
    mem[at] = len;
    for (let j = 0; j < len; j++) lits[2 * at + LIT + j] = from[j];
    mem[at + 1] = mem[from[0]];
    mem[from[0]] = at;
    mem[at + 2] = mem[from[1]];
    mem[from[1]] = at;
    return at;
  };

  /** Backjumps to `bt` and asserts learnt[0] (a unit at level 0, else by a new clause at `at`). */
  const assertLearnt = (bt: number, at: number) => {
    cancelUntil(bt);
    if (learntLen === 1) assignLit(learnt[0], FACT);
    else assignLit(learnt[0], putClause(at, learnt, learntLen));
  };

  /**
   * At level 0: keeps the short learned clauses, up to half the arena (and the blocking clause), re-linking each on two literals that are
   * not false; a clause left with one such literal asserts it. False: a clause with none (no solution left).
   */
  const cleanArena = (): boolean => {
    mem.fill(NONE, 0, 2 * n);
    // the kernel's words kept (`write`), and where they are here (`pwrite`)
    let write = ARENA;
    let pwrite = ARENA;
    const relink = (at: number): boolean => {
      const head = mem[at];
      const len = head & LENGTH_MASK;
      const base = 2 * at + LIT;
      // true clauses stay out of the chains' way too: they can never propagate again at level 0
      let free = 0;
      for (let j = 0; j < len; j++) {
        const st = litState(lits[base + j]);
        if (st === 1) return true;
        if (st === 0) {
          const q = lits[base + j];
          lits[base + j] = lits[base + free];
          lits[base + free] = q;
          free++;
        }
      }
      if (free === 0) return false;
      if (free === 1) {
        assignLit(lits[base], FACT);
        return true;
      }
      putClause(at, lits.subarray(base, base + len), len);
      mem[at] = head;
      return true;
    };
    if (blockAt !== NONE && !relink(blockAt)) return false;
    for (let at = ARENA; at < ptop; ) {
      const len = mem[at] & LENGTH_MASK;
      const next = at + clauseWords(len);
      // short clauses (or of low LBD), while they fill at most half the arena (so a clean-up always frees room)
      if ((len <= CDCL_KEEP_LENGTH || mem[at] >>> 16 <= keepLbd) && write + 3 + len <= ARENA + (arenaWords >>> 1)) {
        if (pwrite !== at) mem.copyWithin(pwrite, at, next);
        if (!relink(pwrite)) return false;
        write += 3 + len;
        pwrite += clauseWords(len);
      }
      at = next;
    }
    top = write;
    ptop = pwrite;
    return true;
  };

  // this round's start: conflicts and root probes then, and clauses shared
  let entryConflicts = 0;
  let entryProbes = 0;
  let sharedThisRound = 0;
  const nextRound = () => {
    entryConflicts = res.conflicts;
    entryProbes = res.probes;
    sharedThisRound = 0;
  };
  const budget = () => Math.max(1, round ? round.budget : Infinity);

  /**
   * Root probing to its fixpoint: each unknown cell, in cell order, set filled then empty at level 1; a value that
   * fails makes the other a fact, cells both values decide alike become facts; sweeps until one changes nothing. The
   * saved phases start again as the search says after. False: no solution.
   */
  function* probeRoot(): Generator<void, boolean> {
    const filledProbe = new Uint8Array(n);
    const probe = (c: number, v: number): boolean => {
      res.probes++;
      trailLim[0] = trailLen;
      dl = 1;
      assign(c, v, DECISION);
      return propagate() === undefined;
    };
    const fix = (c: number, v: number): boolean => {
      assign(c, v, FACT);
      res.level = 'probe';
      return propagate() === undefined;
    };
    for (let changed = true; changed; ) {
      changed = false;
      for (let c = 0; c < n; c++) {
        if (value[c] !== UNKNOWN) continue;
        if (res.probes - entryProbes >= budget() * ROOT_PROBES_PER_CONFLICT) {
          yield;
          nextRound();
        }
        const filledHolds = probe(c, FILLED);
        if (filledHolds) filledProbe.set(value);
        cancelUntil(0);
        if (!filledHolds) {
          if (!fix(c, EMPTY)) return false;
          changed = true;
          continue;
        }
        const emptyHolds = probe(c, EMPTY);
        let agreed = 0;
        if (emptyHolds) for (let d = 0; d < n; d++) if (value[d] !== UNKNOWN && level[d] === 1 && value[d] === filledProbe[d]) learnt[agreed++] = d;
        cancelUntil(0);
        if (!emptyHolds) {
          if (!fix(c, FILLED)) return false;
          changed = true;
          continue;
        }
        for (let k = 0; k < agreed; k++) {
          const d = learnt[k];
          if (value[d] !== UNKNOWN) continue;
          if (!fix(d, filledProbe[d])) return false;
          changed = true;
        }
      }
    }
    phase.fill(filledFirst ? 1 : 0);
    return true;
  }

  const solutionOf = () => Array.from(value, (v) => (v === FILLED ? '1' : '0')).join('');

  const finish = (status: CdclStatus): CdclResult => ({ ...res, status });
  const doneStatus = (): CdclStatus => (res.solutions.length === 0 ? 'contradiction' : res.solutions.length === 1 ? 'solved' : 'multiple');

  /**
   * At level 0 (a restart): the peers' clauses not taken yet, each skipped when true, asserted when one literal is
   * left, else kept (its literals that are not false) in the arena while it has room; a peer's oldest entries past
   * what the kernel's ring keeps are skipped. False: a clause with every literal false (no solution left).
   */
  const takenFrom = from?.takenFrom ?? new Uint32Array(CDCL_MAX_PEERS);
  const shared = new Uint32Array(CDCL_SHARE_LENGTH);
  const takeShared = (r: CdclRound): boolean => {
    const { entries, perRound } = r.ring ?? CDCL_SHARE_RING;
    for (const peer of r.peers) {
      if (peer.member >= CDCL_MAX_PEERS) continue;
      let k = Math.max(takenFrom[peer.member], peer.visible - (entries - perRound));
      if (r.stats) r.stats.missed += k - takenFrom[peer.member];
      for (; k < peer.visible; k++) {
        const lits = peer.out[k];
        let free = 0;
        let holds = false;
        for (const q of lits) {
          const st = litState(q);
          if (st === 1) holds = true;
          if (st === 0) shared[free++] = q;
        }
        if (holds) continue;
        if (free === 0) return false;
        if (r.stats) {
          r.stats.taken++;
          if (free === 1) r.stats.units++;
        }
        if (free === 1) assignLit(shared[0], FACT);
        else if (top + 3 + free <= END - 2 * (n + 3)) {
          putClause(claimClause(free), shared, free);
        }
      }
      takenFrom[peer.member] = k;
    }
    return true;
  };

  if (from) {
    // it yields only with its propagation done (nothing queued, no line dirty): the loop below goes on to decide
    nextRound();
  } else {
    // the givens, then line logic on every line
    const start = initialCells(p);
    for (let c = 0; c < n; c++) if (start[c] !== UNKNOWN) assign(c, start[c], FACT);
    rowDirty = h >= 32 ? 0xffffffff : (1 << h) - 1;
    colDirty = w >= 32 ? 0xffffffff : (1 << w) - 1;
    if (rootProbing) {
      if (propagate() !== undefined || !(yield* probeRoot())) return finish('contradiction');
      // the round's probes count in its budget
      entryConflicts -= Math.floor((res.probes - entryProbes) / ROOT_PROBES_PER_CONFLICT);
    }
  }
  let restarts = from?.restarts ?? 0;
  let nextCleanup = from?.nextCleanup ?? cleanup?.every ?? Infinity;
  let cleanups = from?.cleanups ?? 0;
  let untilRestart = from?.untilRestart ?? RESTART_BASE * luby(1);
  const rephaseInterval = opts.rephaseInterval ?? CDCL_REPHASE_INTERVAL;
  let rephases = from?.rephases ?? 0;
  let nextRephase = from?.nextRephase ?? rephaseInterval;
  // between rounds (the yield below) the search can be handed to another thread: everything it goes on from
  let betweenRounds = false;
  if (round) {
    round.capture = (): CdclState | undefined =>
      betweenRounds
        ? { value, level, tpos, reason, activity, phase, target, targetLen, trail, trailLim, mem, top, ptop, blockAt, trailLen, dl, inc, res, litStates, rowFil, rowEmp, colFil, colEmp, rowStack, colStack, rowKnown, colKnown, heap, heapAt, heapSize, takenFrom, restarts, nextCleanup, cleanups, untilRestart, rephases, nextRephase }
        : undefined;
  }
  // at level 0 (CDCL_REPHASE_INTERVAL): the saved phases by turns, and the target forgotten
  const rephase = () => {
    rephases++;
    nextRephase = res.conflicts + rephaseInterval * (rephases + 1);
    const turn = (rephases - 1) & 3;
    if (turn === 1 || turn === 3) phase.fill(filledFirst === (turn === 1) ? 1 : 0);
    else for (let c = 0; c < n; c++) if (target[c] !== TARGET_NONE) phase[c] = target[c];
    targetLen = 0;
    target.fill(TARGET_NONE);
  };
  for (;;) {
    const confl = propagate();
    if (confl !== undefined) {
      res.conflicts++;
      if (dl === 0) return finish(doneStatus());
      // the levels below the conflict's hold together: a longer such trail than any before is the new target
      if (targetPhases && trailLim[dl - 1] > targetLen) {
        targetLen = trailLim[dl - 1];
        target.fill(TARGET_NONE);
        for (let k = 0; k < targetLen; k++) target[trail[k]] = value[trail[k]] === FILLED ? 1 : 0;
      }
      const bt = analyze(confl);
      if (round && learntLen <= CDCL_SHARE_LENGTH && res.solutions.length === 0) {
        if (sharedThisRound < (round.ring ?? CDCL_SHARE_RING).perRound) {
          round.out.push(learnt.slice(0, learntLen));
          sharedThisRound++;
        } else if (round.stats) round.stats.held++;
      }
      // (a unit takes no room: assertLearnt asserts it as a fact)
      const at = learntLen > 1 ? claimClause(learntLen) : ptop;
      if (learntLen > 1) res.learned++;
      const lbd = cleanup && learntLen > 1 ? lbdOfLearnt() : 0;
      assertLearnt(bt, at);
      // (at most n levels: it fits above the length)
      if (lbd) mem[at] |= lbd << 16;
      inc += inc >>> decayShift;
      if (inc > 0x100000) rescale();
      if (res.conflicts >= conflictCap) return finish('capped');
      untilRestart--;
      // room for one more clause of every cell is kept; a restart that found the arena without it must clean up,
      // else every later conflict would restart again
      const full = top > END - 2 * (n + 3);
      if (untilRestart <= 0 || full) {
        restarts++;
        res.restarts++;
        untilRestart = RESTART_BASE * luby(restarts + 1);
        cancelUntil(0);
        if (targetPhases && res.conflicts >= nextRephase) rephase();
        if (round && !takeShared(round)) return finish(doneStatus());
        const due = cleanup !== undefined && res.conflicts >= nextCleanup;
        if (due) nextCleanup = res.conflicts + cleanup!.every + cleanup!.growth * ++cleanups;
        if ((full || due || top - ARENA > (3 * arenaWords) / 4) && !cleanArena()) return finish(doneStatus());
      }
      continue;
    }
    if (trailLen === n) {
      res.solutions.push(solutionOf());
      if (res.solutions.length >= maxSolutions) return finish(maxSolutions === 1 ? 'solved' : 'multiple');
      if (dl === 0) return finish('solved');
      // not all of this solution's decisions again: the latest first, so it asserts after a backjump of one level
      learntLen = 0;
      for (let lv = dl; lv >= 1; lv--) learnt[learntLen++] = litOf(trail[trailLim[lv - 1]]) ^ 1;
      if (learntLen > 1) blockAt = BLOCK;
      assertLearnt(dl - 1, BLOCK);
      continue;
    }
    if (res.conflicts - entryConflicts >= budget()) {
      betweenRounds = true;
      yield;
      betweenRounds = false;
      nextRound();
    }
    // decide: the unassigned cell of highest activity (the lowest index on a tie), its target phase, else its saved one
    const best = heapBest();
    res.decisions++;
    res.level = 'search';
    trailLim[dl++] = trailLen;
    assign(best, (target[best] === TARGET_NONE ? phase[best] : target[best]) ? FILLED : EMPTY, DECISION);
  }
}

/** Conflicts a portfolio search runs before the next takes its turn (~40 ms of one core on TAAI). */
export const PORTFOLIO_TURN = 100;

/**
 * Turns a portfolio's search runs before the next search joins it (as the kernel's CDCL_JOIN_AFTER): most puzzles
 * the threads get are answered by the first search in a few thousand conflicts, and four searches from the start
 * took them four times the work. TAAI, uniqueness, the whole set beside the GPU (EXPERIMENTS.md, "Searches that join
 * in turn"), answered by 82 s: all four from the start 906 / 915 / 921, joining after 10 rounds 937 / 940, 20 929 /
 * 943 / 948, 40 935-950, 80 941 / 952; all 1,000 by 237 s after 20, 265 s after 40, 281-322 s from the start.
 */
export const PORTFOLIO_JOIN_AFTER = 20;

export interface PortfolioOptions extends CdclOptions {
  /** the searches side by side (default CDCL_SEARCHES) */
  searches?: readonly CdclSearch[];
  /** conflicts per turn (default PORTFOLIO_TURN) */
  turn?: number;
  /** looked at after every round of turns: true stops the searches ('suspended', with what they found) */
  stopped?: () => boolean;
  /** rounds of turns before each next search joins (default PORTFOLIO_JOIN_AFTER; 0: all from the start); a search
   * also joins at once when every one before it has ended (capped) */
  joinAfter?: number;
}

/** A portfolio's answer: the search that gave it (index in the searches) and its counts; `transposed`: from the copy
 * of a CdclPortfolioRace on the transposed puzzle (its solutions given as the puzzle's own). */
export interface PortfolioResult extends CdclResult {
  member: number;
  transposed?: boolean;
}

/**
 * A hard puzzle's CDCL searches side by side on one CPU thread, as the kernel runs them on a puzzle's jobs: in turns
 * of `turn` conflicts, each taking at its restarts the short clauses its peers had learned by the end of the turn
 * before (CdclRound); each next search joins after `joinAfter` rounds of turns; the first answer counts, and a search
 * that ends capped leaves the others running. `step()` runs one turn of each search joined, so a thread can share
 * itself among several puzzles (cdcl-worker.ts).
 */
export class CdclPortfolio {
  private readonly members: { member: number; round: CdclRound; steps: Generator<void, CdclResult>; published: number; result?: CdclResult }[];
  private readonly joinAfter: number;
  private readonly settleCache: Uint32Array;
  private rounds: number;
  private joinedCount: number;

  /** the conflicts of its searches so far, all together */
  get conflicts(): number {
    let sum = 0;
    for (const m of this.members) sum += (m.result ?? m.round.live)?.conflicts ?? 0;
    return sum;
  }

  /** the searches joined so far (the first ones of the searches) */
  get joined(): number {
    return this.joinedCount;
  }

  /** `from`: the portfolio as another thread's `capture()` gave it, to go on from */
  constructor(p: Nonogram, opts: PortfolioOptions = {}, from?: PortfolioState) {
    this.joinAfter = opts.joinAfter ?? PORTFOLIO_JOIN_AFTER;
    // one for the four searches: a paused puzzle holds one cache, not four
    const settleCache = from?.settleCache ?? opts.settleCache ?? settleCacheFor(p);
    this.settleCache = settleCache;
    this.members = (opts.searches ?? CDCL_SEARCHES).map((search, member) => {
      const was = from?.members[member];
      const round: CdclRound = { budget: opts.turn ?? PORTFOLIO_TURN, out: was?.out ?? [], peers: [], resumeFrom: was?.search, live: was?.search?.res };
      return { member, round, steps: cdclSteps(p, { ...opts, search, settleCache }, round), published: was?.published ?? 0, result: was?.result };
    });
    this.rounds = from?.rounds ?? 0;
    this.joinedCount = from?.joinedCount ?? 1;
  }

  /** Its state between steps, for another thread to go on from (CdclPortfolio's `from`); undefined while a search is
   * where it cannot be taken (root probing). The portfolio is not to be stepped after. */
  capture(): PortfolioState | undefined {
    const members: PortfolioState['members'] = [];
    for (const m of this.members) {
      // (a search not started yet, or ended, has no state to carry)
      const running = !m.result && m.round.live !== undefined;
      const search = running ? m.round.capture?.() : undefined;
      if (running && !search) return undefined;
      members.push({ out: m.round.out, published: m.published, result: m.result, search });
    }
    return { rounds: this.rounds, joinedCount: this.joinedCount, settleCache: this.settleCache, members };
  }

  /** One turn of each search joined and still running: the answer, or undefined while there is none. */
  step(): PortfolioResult | undefined {
    const all = this.members;
    while (this.joinedCount < all.length && (this.rounds >= this.joinedCount * this.joinAfter || all.slice(0, this.joinedCount).every((m) => m.result))) this.joinedCount++;
    this.rounds++;
    const members = all.slice(0, this.joinedCount);
    for (const m of members) {
      if (m.result) continue;
      m.round.peers = members.filter((o) => o !== m && !o.result).map((o) => ({ member: o.member, out: o.round.out, visible: o.published }));
      const step = m.steps.next();
      if (!step.done) continue;
      m.result = step.value;
      if (step.value.status !== 'capped') return { ...step.value, member: m.member };
    }
    for (const m of members) m.published = m.round.out.length;
    return all.every((m) => m.result) ? { ...all[0].result!, member: 0 } : undefined;
  }

  /** Where it stands, as a search stopped between turns: the one furthest on (solutions, then conflicts). */
  stopped(): PortfolioResult {
    const live = this.members.filter((m) => !m.result);
    // a search not joined (or not stepped) yet has nothing to say
    const at = (m: (typeof live)[number]) => m.round.live ?? emptyCdclResult();
    const ahead = (a: CdclResult, b: CdclResult) => b.solutions.length - a.solutions.length || b.conflicts - a.conflicts;
    const best = live.reduce((a, b) => (ahead(at(a), at(b)) > 0 ? b : a));
    return { ...at(best), solutions: [...at(best).solutions], status: 'suspended', member: best.member };
  }
}

/** A CdclPortfolio between steps (capture): each search's shared clauses, and its state (not started: neither). */
export interface PortfolioState {
  rounds: number;
  joinedCount: number;
  settleCache: Uint32Array;
  members: { out: Uint32Array[]; published: number; result?: CdclResult; search?: CdclState }[];
}

/** CdclPortfolio to its answer, or until `opts.stopped()` says stop (looked at after each turn of every search). */
export function solveCdclPortfolio(p: Nonogram, opts: PortfolioOptions = {}): PortfolioResult {
  const portfolio = new CdclPortfolio(p, opts);
  for (;;) {
    const r = portfolio.step();
    if (r) return r;
    if (opts.stopped?.()) return portfolio.stopped();
  }
}

/** The puzzle transposed: its rows as columns, its givens with them. */
export function transposedNonogram(p: Nonogram): Nonogram {
  const t: Nonogram = { width: p.height, height: p.width, rows: p.columns, columns: p.rows };
  if (p.givens) {
    const givens = new Uint8Array(p.width * p.height);
    for (let r = 0; r < p.height; r++) for (let c = 0; c < p.width; c++) givens[c * p.height + r] = p.givens[r * p.width + c];
    t.givens = givens;
  }
  return t;
}

/** A solution of `p` transposed (transposedNonogram), row-major, as a solution of `p`. */
export function untransposedSolution(p: Nonogram, solution: string): string {
  const cells = new Array<string>(p.width * p.height);
  for (let r = 0; r < p.height; r++) for (let c = 0; c < p.width; c++) cells[r * p.width + c] = solution[c * p.height + r];
  return cells.join('');
}

/**
 * Conflicts of a puzzle's searches, all together, before a second portfolio on the puzzle transposed joins them
 * (CdclPortfolioRace; ~1 s of a thread on TAAI). A puzzle's cost swings 10-500x with its orientation alone (TAAI
 * #464: 10.1 s as given, 0.02 s transposed), so on the hard ones a copy that sees the puzzle otherwise cuts the tail
 * by more than the half of the thread it takes. The 150 slowest TAAI puzzles transposed and mirrored top-bottom (300
 * instances, each alone, uniqueness, two processes side by side): 333.3 s without, 262.4 s with the copy after 8,000
 * (the ten slowest 136.7 -> 80.4 s, the median instance the same), 268.9-273.6 s after 2,000-32,000. Whole TAAI runs
 * with the CLI: 0-4.5% sooner (109.5 against 109.3 s, 96.3 against 100.8; transposed 103.9 against 108.2), as the
 * idle threads' rotated copies already raced the last puzzles (EXPERIMENTS.md, "A transposed copy racing the slow
 * puzzles").
 */
export const TRANSPOSED_COPY_AFTER = 8000;

/**
 * A puzzle's portfolio and, once its searches have run `copyAfter` conflicts, a second portfolio on the puzzle
 * transposed (its own searches, clauses and settle cache), each stepped in turn so that both run about as many
 * conflicts from then on; the first answer counts. The CPU threads' search (cdcl-worker.ts).
 */
export class CdclPortfolioRace {
  private readonly first: CdclPortfolio;
  private copy?: CdclPortfolio;
  /** the first's conflicts when the copy joined */
  private joinedAt = 0;
  /** a side that ended without an answer (capped) while the other runs */
  private firstEnded?: PortfolioResult;
  private copyEnded?: PortfolioResult;

  /** `from`: the race as another thread's `capture()` gave it, to go on from */
  constructor(
    private readonly p: Nonogram,
    private readonly opts: PortfolioOptions & { copyAfter?: number } = {},
    from?: RaceState,
  ) {
    this.first = new CdclPortfolio(p, opts, from?.first);
    if (from?.copy) this.copy = this.copyPortfolio(from.copy);
    this.joinedAt = from?.joinedAt ?? 0;
    this.firstEnded = from?.firstEnded;
    this.copyEnded = from?.copyEnded;
  }

  private copyPortfolio(from?: PortfolioState): CdclPortfolio {
    return new CdclPortfolio(transposedNonogram(this.p), { ...this.opts, settleCache: undefined }, from);
  }

  /** Its state between steps, for another thread to go on from (the constructor's `from`): undefined while one of
   * its searches is in root probing. Not to be stepped after: the state is the searches' own arrays. */
  capture(): RaceState | undefined {
    const first = this.first.capture();
    const copy = this.copy?.capture();
    if (!first || (this.copy && !copy)) return undefined;
    return { first, copy, joinedAt: this.joinedAt, firstEnded: this.firstEnded, copyEnded: this.copyEnded };
  }

  /** One portfolio's round of turns: the answer, or undefined while there is none. */
  step(): PortfolioResult | undefined {
    if (!this.copy && this.first.conflicts >= (this.opts.copyAfter ?? TRANSPOSED_COPY_AFTER)) {
      this.joinedAt = this.first.conflicts;
      this.copy = this.copyPortfolio();
    }
    const copyTurn = this.copy && !this.copyEnded && (this.firstEnded || this.copy.conflicts < this.first.conflicts - this.joinedAt);
    const r = copyTurn ? this.asPuzzle(this.copy!.step()) : this.first.step();
    if (!r || r.status !== 'capped') return r;
    // a side capped: the other goes on while it can
    if (copyTurn) this.copyEnded = r;
    else this.firstEnded = r;
    return this.firstEnded && (this.copyEnded || !this.copy) ? this.firstEnded : undefined;
  }

  /** Where it stands, as a search stopped between turns: the side with more solutions (the first on a tie). */
  stopped(): PortfolioResult {
    const first = this.first.stopped();
    const copy = this.copy && this.asPuzzle(this.copy.stopped());
    return copy && copy.solutions.length > first.solutions.length ? copy : first;
  }

  private asPuzzle(r: PortfolioResult | undefined): PortfolioResult | undefined {
    return r && { ...r, solutions: r.solutions.map((s) => untransposedSolution(this.p, s)), transposed: true };
  }
}

/** A CdclPortfolioRace between steps (capture). */
export interface RaceState {
  first: PortfolioState;
  copy?: PortfolioState;
  joinedAt: number;
  firstEnded?: PortfolioResult;
  copyEnded?: PortfolioResult;
}

/**
 * The kernel's rounds replayed on the CPU twin, for tests: each packed round's jobs (RoundKernel.onPack) run their
 * budget in the round's order, and what a job had shared by the end of a round is what its peers take in the next
 * (as cdcl.wgsl reads a peer's ring). Results by puzzle and member, once a job's search ends.
 */
export class CdclRoundsTwin {
  private readonly jobs = new Map<string, { steps: Generator<void, CdclResult>; round: CdclRound; published: number; publishedRound: number; result?: CdclResult }>();
  /** the sharing of every search replayed (CdclRound.stats) */
  readonly stats = { taken: 0, units: 0, missed: 0, held: 0 };

  constructor(
    private readonly puzzles: readonly Nonogram[],
    private readonly searches: readonly CdclSearch[],
    private readonly opts: CdclOptions,
    private readonly budget: number,
    private readonly ring = CDCL_SHARE_RING,
  ) {}

  result(index: number, member: number): CdclResult | undefined {
    return this.jobs.get(`${index}:${member}`)?.result;
  }

  /** Replays the run's round `r` (RoundKernel.onPack's arguments). */
  round(r: number, packed: readonly PackedJob[]): void {
    const ran: { published: number; publishedRound: number; round: CdclRound }[] = [];
    for (const job of packed) {
      const key = `${job.index}:${job.member}`;
      if (!job.resume) {
        const round: CdclRound = { budget: 0, ring: this.ring, out: [], peers: [], stats: this.stats };
        const search = this.searches[job.member];
        this.jobs.set(key, { steps: cdclSteps(this.puzzles[job.index], { ...this.opts, search }, round), round, published: 0, publishedRound: -1 });
      }
      const twin = this.jobs.get(key)!;
      // a search that ended in an earlier round (the kernel says STATUS_GONE)
      if (twin.result) continue;
      twin.round.budget = this.budget >>> job.share;
      twin.round.peers = [];
      for (const peer of job.peers) {
        const other = packed.find((o) => o.slot === peer.slot)!;
        const theirs = this.jobs.get(`${other.index}:${other.member}`)!;
        if (theirs.publishedRound === r - 1) twin.round.peers.push({ member: peer.member, out: theirs.round.out, visible: theirs.published });
      }
      const step = twin.steps.next();
      if (step.done) twin.result = step.value;
      ran.push(twin);
    }
    for (const twin of ran) {
      twin.published = twin.round.out.length;
      twin.publishedRound = r;
    }
  }
}
