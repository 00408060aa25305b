// Nonograms on the GPU: the line automaton as an engine rule, and the strategy over it.
//
// `line`: the automaton alone (thesis 3.2: puzzles it cannot finish stay unsolved).
// `full`: where line logic stalls (thesis 4.2: "cannot be solved by this CA"), probing: copies of the puzzle with
// one unknown cell set each way run in the same batch; a copy that reaches a contradiction fixes its cell the
// other way (and everything its twin deduced), cells both twins agree on are fixed too. When a whole sweep over
// the unknown cells finds nothing, search: the probed cell whose weaker outcome decides the most cells becomes two
// branches (its two copies, already settled), each probed and branched in turn, until the puzzle is solved and
// uniqueness is proven, or a second solution turns up (`multiple`).
//
// Everything runs in one engine batch per line-word class, in rounds: each round is one grid per puzzle size holding
// every copy queued for it (puzzles, probe windows of all puzzles, merged states to settle); the host reads the
// round once, decides, and the next round's grid joins. Probe windows are narrow while many puzzles share the GPU
// (each window then sees what the last one proved, as sequential probing would) and widen as puzzles finish.
import type { GpuContext } from '../../gpu/context.ts';
import { Batch, type GridOutcome, type Mode } from '../../engine/batch.ts';
import type { Rule } from '../../engine/rule.ts';
import type { Nonogram } from './codec.ts';
import {
  cellOf,
  gpuLimitError,
  knownCount,
  layoutOf,
  lineWordsFor,
  packClues,
  packCopy,
  setCell,
  solutionOf,
  touch,
  unpackCopy,
  type CopyLayout,
} from './pack.ts';
import { EARLY_BRANCH_SCORE, EMPTY, emptyFirst, FILLED, initialCells, type BranchScore, type Level } from './reference.ts';
import { CDCL_CLEANUP, CDCL_SEARCHES } from './cdcl.ts';
import { cdclKernel, DEFAULT_SCORES, laneTakes, nonogramCdclPipeline, nonogramLanePipeline, probingKernel, solveNonogramCdcl, solveNonogramLanes, type CdclOutcome, type LaneOutcome, type LaneStats } from './lane.ts';
import { ANSWERS, raceRounds } from './rounds.ts';
import { CdclThreads, defaultCdclThreads } from './cdcl-threads.ts';

/** generations a multi-generation dispatch may run before the host looks (it stops earlier at a fixpoint) */
export const GENERATIONS_PER_DISPATCH = 64;

const rules = new Map<number, Rule>();

/** The line automaton for puzzles whose longest line needs `lineWords` words per bit set (settle.wgsl). */
export function nonogramRule(lineWords: number): Rule {
  let rule = rules.get(lineWords);
  if (!rule) {
    rule = {
      name: `nonogram${lineWords}`,
      files: ['nonogram/settle.wgsl', 'nonogram/line.wgsl'],
      entryPoints: ['nono_rows', 'nono_cols'],
      stateAccess: 'in-place',
      constants: { LINE_WORDS: lineWords, GENERATIONS: GENERATIONS_PER_DISPATCH },
      tracksCompletion: true,
      // one invocation per copy (params[0] copies) instead of one per line
      // invocations work through params[1] copies each (of params[0])
      multiGeneration: {
        entryPoint: 'nono_copies',
        generationsPerDispatch: GENERATIONS_PER_DISPATCH,
        exact: true,
        items: (g) => Math.ceil(g.params![0] / g.params![1]),
      },
    };
    rules.set(lineWords, rule);
  }
  return rule;
}

export interface NonogramResult {
  status: 'solved' | 'multiple' | 'unsolved' | 'contradiction';
  solution?: string;
  solution2?: string;
  /** unsolved: 'stalled' (line logic), 'timeout', 'capped' */
  reason?: string;
  /** generations of line logic on the puzzle itself (its copies' work is in probes and branches) */
  generations: number;
  /** probe copies run (two per probed cell) */
  probes: number;
  /** branch copies made when probing stalled */
  branches: number;
  /** the weakest means that sufficed: line logic alone, probing (no guess), or search */
  level: Level;
  /** the search that answered (lanes kernels): 'probing' (lane.wgsl) or 'cdcl' (cdcl.wgsl) */
  search?: Search;
  /** the probing search's branch score, when it answered: 'sum' when the second search a hard puzzle gets (lane.ts
   * DEFAULT_SCORES) answered first */
  branchScore?: BranchScore;
  /** the conflict-driven search's counters, when it answered */
  conflicts?: number;
  decisions?: number;
  learned?: number;
  /** the CDCL search that answered (cdcl.ts CDCL_SEARCHES): its activity decay, first phase, root probing and
   * target phases */
  decayShift?: number;
  filledFirst?: boolean;
  rootProbing?: boolean;
  targetPhases?: boolean;
  /** CDCL answered on a CPU thread beside the GPU (cdcl-threads.ts) */
  cpuThread?: boolean;
  /** that thread's copy of the puzzle transposed answered (cdcl.ts CdclPortfolioRace) */
  transposed?: boolean;
  /** solved: the solution is proven to be the only one (false: not proven, the search stopped at it: maxSolutions 1) */
  unique?: boolean;
  /** for unsolved/contradiction under `line`: the cells line logic decided (0 unknown, 1 filled, 2 empty) */
  cells?: Uint8Array;
  ms: number;
}

/**
 * How `full` searches puzzles the lanes kernels take: 'auto' (the default: probing, with CDCL joining the puzzles it
 * has not answered in CDCL_THREADS_JOIN rounds on CPU threads, or in CDCL_JOINS.auto rounds on the kernel
 * where there are no threads), 'probing' (probing and depth-first search alone, lane.wgsl), 'cdcl'
 * (conflict-driven search with learned clauses alone, cdcl.wgsl), or 'race': probing on every puzzle, CDCL too on
 * those probing has not answered in CDCL_JOINS.race rounds; the first answer counts.
 */
export type Search = 'auto' | 'probing' | 'cdcl' | 'race';
export const SEARCHES: Search[] = ['auto', 'probing', 'cdcl', 'race'];

/**
 * The CDCL side of 'race' and 'auto': it runs on few lanes, joining a puzzle after probing has spent `joinAfter`
 * rounds (500 probes each) on it, and aims at `share` of the GPU's time (raceRounds `secondShare`).
 * - race: after 80 rounds, a quarter of the GPU (probing still has most puzzles). CDCL on more lanes, or joining
 *   after 2 or 5 rounds (of 2,000 probes), answered fewer TAAI puzzles in 82 and 240 s than probing alone (EXPERIMENTS.md).
 * - auto: after 1,000 rounds (up to 500,000 probes), where probing's tail is: puzzles it answers past 10^6 probes,
 *   and the eight TAAI puzzles it left open after 7.5M probes each, six of which CDCL answers (EXPERIMENTS.md). A TAAI run
 *   gets there after ~7 minutes (300-500 rounds in 240 s; the first CDCL answer at 441 s), a lone hard puzzle after
 *   ~10 s, and the CDCL pipeline is compiled only then. Half the GPU: probing has only its tail left.
 * 32 slots: 8 puzzles with all four CDCL searches (cdcl.ts CDCL_SEARCHES), or 32 with one; with 16, the puzzles past
 * the 16th of a 24-puzzle TAAI tail waited for one (answered at 429-583 s, now 117-219 s).
 */
const RACE_CDCL = { lanes: 32, slots: 32, budget: 100 };
const CDCL_JOINS = { race: { joinAfter: 80, share: 0.25 }, auto: { joinAfter: 1000, share: 0.5 } };
/**
 * 'auto' with CPU threads (cdcl-threads.ts): when CDCL on a thread takes a puzzle.
 * - `rounds`: after 25 rounds of probing. On TAAI (two cores, SwiftShader, uniqueness, 90-s runs, answered by 82 s)
 *   with the search as of 2d4c140 (1.7x the conflicts/s of the one measured before): after 200 rounds 876, 100 917,
 *   50 917, 30 921-928, 20 926-930, 10 924, 5 916 (a run of the same code can land ~25 lower: 25 rounds gave
 *   904-930). Earlier, the threads shared the cores with probing on puzzles probing answers soon anyway; later, they
 *   started past the 82-s mark.
 * - `cpuAdapterMs`: on a CPU adapter (SwiftShader), also after one round once the run is 1 s old. Since the
 *   threads' searches join in turn, rephase and clean up (cdcl.ts), the portfolio answers every 10th TAAI puzzle
 *   alone in 21.6 s of one thread (median 0.03 s), where SwiftShader's probing took ~85 s of the two cores for the
 *   ~630 it answered first: the cores do more as CDCL. TAAI, whole runs: 855-863 answered by 40 s instead of
 *   633-675, 960-967 by 82 s instead of 947-960 (EXPERIMENTS.md, "Every puzzle to the threads on a CPU adapter"). The
 *   first second leaves a batch probing ends soon to probing, as a thread costs ~0.3 s to start and probing is paced
 *   once the threads hold its puzzles: TAAI #0-99, uniqueness, answered in 0.45-0.53 s joining after 1 s (or never),
 *   0.79-0.88 s after 250 ms; the whole set after 1 s: 852 / 962 by 40 / 82 s, all by 143.6 s.
 * A thread taking a puzzle over (probing's job on it ended) instead of racing was no better: 930-937 after 35-50
 * rounds, 902 after 20 (EXPERIMENTS.md, "A faster search, and when to join with it").
 */
export const CDCL_THREADS_JOIN = { rounds: 25, cpuAdapterMs: 1000 };
/**
 * On a CPU adapter, probing's share of the cores once the CDCL threads hold every puzzle it still searches (raceRounds
 * `helpedShare`): SwiftShader's rounds run on the cores the threads need, and the threads answer more per
 * core-second. With the threads joining after 1 round (TAAI, uniqueness, two cores, whole runs answered by 40 / 82 s,
 * all 1,000 by): 0.5 736 / 956, 137 s; 0.1 860 / 967, 137 s; 0.02 854 / 960, 146 s. (Joining after 25 rounds: 0.5
 * 134-139 s, 0.25 147 s, unpaced 156 s; EXPERIMENTS.md, "Probing paced once the threads hold its puzzles".)
 */
export const HELPED_PROBING_SHARE = 0.1;

export interface NonogramSolveOptions {
  method?: 'line' | 'full';
  /** `full` on the lanes kernels: which search (default auto) */
  search?: Search;
  /** 'auto': rounds of probing before CDCL joins a puzzle (default CDCL_JOINS.auto, or CDCL_THREADS_JOIN on
   * CPU threads, then without its time rule; tests make it small) */
  lateJoinAfter?: number;
  /** 'auto': CPU threads for CDCL beside the GPU, instead of the CDCL kernel (default defaultCdclThreads: where
   * there are threads; 0: the kernel) */
  cdclThreads?: number;
  /** 'multi-gen' (default): one invocation per copy, many generations per dispatch; 'one-gen': one per line */
  mode?: Mode;
  timeoutMs?: number;
  /** an abort stops the run as the timeout does (after the rounds in flight); unanswered puzzles say 'interrupted' */
  signal?: AbortSignal;
  /** a puzzle's answer as soon as the lanes kernels have it (the returned array holds the same), for output that
   * streams in a long run */
  onResult?: (index: number, result: NonogramResult) => void;
  maxGenerations?: number;
  /** copies the host tries to keep running at once (probe windows shrink as more puzzles share them) */
  targetCopies?: number;
  /** search nodes per puzzle before giving up ('capped'; rounds solver) */
  maxNodes?: number;
  /** probes per search on the lanes kernel (a hard puzzle gets two) before it hands the puzzle to the rounds solver */
  maxProbes?: number;
  /** false: no second search for hard puzzles on the lanes kernels (lane.ts DEFAULT_SCORES, cdcl.ts
   * CDCL_SEARCHES; the bench's A/B) */
  secondSearch?: boolean;
  /** false: `full` on the rounds solver only (every probe copy a copy in a batch, the host deciding each round) */
  lanes?: boolean;
  /** below a search's root, branch at once on a cell whose weaker copy decides this many cells (default
   * EARLY_BRANCH_SCORE; Infinity: never, every node probes to its fixpoint). The probing searches all take it. */
  earlyBranchScore?: number;
  /**
   * Solutions to look for (default 2: uniqueness is proven or refuted). 1 stops at the first one, as tournament
   * solvers do (TAAI rules ask for one solution): `solved` then means a solution, unique only if `unique` says so.
   */
  maxSolutions?: number;
  /** branches of one puzzle searched at the same time, at most (default 1: depth first) */
  maxActiveNodes?: number;
  /** search nodes of all puzzles the host tries to keep busy (shared out among the unfinished puzzles) */
  activeNodes?: number;
  progress?: (done: number, total: number) => void;
  /** per-call statistics, added to */
  stats?: NonogramRunStats;
}

export interface NonogramRunStats {
  dispatches: number;
  readbacks: number;
  /** grids run: one per round and puzzle size */
  grids: number;
  /** puzzle copies run (the puzzles themselves, probe copies, merged states to settle) */
  copies: number;
  /** ms from a round's grid joining to its readback: GPU work and the status readback */
  gpuMs: number;
  /** ms reading finished grids' states back */
  readMs: number;
  /** ms on the host deciding what runs next */
  hostMs: number;
  /** the lanes kernels' whole work (RoundStats.work): probes of every search, CDCL conflicts */
  work?: Record<string, number>;
}

export const emptyStats = (): NonogramRunStats => ({ dispatches: 0, readbacks: 0, grids: 0, copies: 0, gpuMs: 0, readMs: 0, hostMs: 0 });

/** The rounds solver's dispatch mode: multi-gen unless asked (a round's grid settles within one dispatch). */
const roundsMode = (mode: Mode | undefined): Mode => mode ?? 'multi-gen';

/** The pipelines these puzzles need, compiled (or taken from the device's cache). */
export async function compileNonogramRules(ctx: GpuContext, puzzles: Nonogram[], opts: Pick<NonogramSolveOptions, 'method' | 'lanes' | 'search' | 'mode' | 'maxGenerations'> = {}): Promise<void> {
  // `full` puts what fits on the lanes kernels; the rounds solver's pipelines then only for the rest (a puzzle the
  // lanes hand back compiles them when it needs them)
  const onLanes = (opts.method ?? 'full') === 'full' && opts.lanes !== false;
  const search = opts.search ?? 'auto';
  if (onLanes && puzzles.some(laneTakes)) {
    if (search !== 'cdcl') await nonogramLanePipeline(ctx);
    // 'auto' compiles CDCL when a puzzle first needs it (most runs never do)
    if (search === 'cdcl' || search === 'race') await nonogramCdclPipeline(ctx);
  }
  const rounds = onLanes ? puzzles.filter((p) => !laneTakes(p)) : puzzles;
  // a cap ends a multi-gen run with single generations (the engine's last chunk), so it needs one-gen too
  const modes = [...new Set([roundsMode(opts.mode), ...(opts.maxGenerations !== undefined ? (['one-gen'] as const) : [])])];
  for (const k of new Set(rounds.map(lineWordsFor))) (await Batch.create(ctx, nonogramRule(k), { modes })).destroy();
}

/**
 * Solves the puzzles. `full` runs puzzles whose lines fit one word on the lanes kernel (lane.ts: one puzzle per
 * invocation, probing and search in private memory); the others, and any it hands back (its stack or probe cap),
 * go to the rounds solver below, as does everything with `lanes: false` and `line`.
 */
export async function solveNonograms(ctx: GpuContext, puzzles: Nonogram[], opts: NonogramSolveOptions = {}): Promise<NonogramResult[]> {
  if ((opts.method ?? 'full') !== 'full' || opts.lanes === false) return interrupted(await solveRounds(ctx, puzzles, opts), opts.signal);
  const t0 = performance.now();
  const deadline = opts.timeoutMs === undefined ? undefined : t0 + opts.timeoutMs;
  const out: NonogramResult[] = new Array(puzzles.length);
  const onLanes = puzzles.flatMap((p, i) => (laneTakes(p) ? [i] : []));
  const maxSolutions = opts.maxSolutions ?? 2;
  let done = 0;
  const laneStats: LaneStats = { dispatches: 0, readbacks: 0 };
  const lanePuzzles = onLanes.map((i) => puzzles[i]);
  const common = { maxSolutions, deadline, signal: opts.signal, onChunk: (n: number) => { for (let k = 0; k < n; k++) opts.progress?.(++done, puzzles.length); } };
  const probingOpts = {
    ...common,
    probeCap: opts.maxProbes,
    earlyBranchScore: opts.earlyBranchScore,
    scores: opts.secondSearch === false ? DEFAULT_SCORES.slice(0, 1) : undefined,
    onOutcome: (k: number, o: LaneOutcome) => ANSWERS.has(o.status) && opts.onResult?.(onLanes[k], laneResult(o, maxSolutions)),
  };
  // the kernel cleans its arenas on the threads' schedule (the twin's paired runs: ~1.1x the time without on
  // the puzzles that reach one)
  const cdclOpts = { ...common, searches: opts.secondSearch === false ? CDCL_SEARCHES.slice(0, 1) : undefined, cleanup: CDCL_CLEANUP };
  const search = opts.search ?? 'auto';
  let probing: (LaneOutcome | undefined)[] = [];
  let cdcl: (CdclOutcome | undefined)[] = [];
  if (search === 'probing') probing = await solveNonogramLanes(ctx, lanePuzzles, probingOpts, laneStats);
  else if (search === 'cdcl') cdcl = await solveNonogramCdcl(ctx, lanePuzzles, cdclOpts, laneStats);
  else if (lanePuzzles.length) {
    const cdclSide = () => cdclKernel(ctx, lanePuzzles, { ...cdclOpts, ...RACE_CDCL });
    const { joinAfter, share } = CDCL_JOINS[search];
    const threads = search === 'auto' ? (opts.cdclThreads ?? defaultCdclThreads()) : 0;
    const helper = threads > 0 ? new CdclThreads(lanePuzzles, threads, maxSolutions, deadline ?? Infinity, t0) : undefined;
    try {
      const raced = await raceRounds(ctx, lanePuzzles, await probingKernel(ctx, lanePuzzles, probingOpts), search === 'race' ? await cdclSide() : helper ? undefined : cdclSide, {
        ...common,
        joinAfter: search === 'auto' ? (opts.lateJoinAfter ?? joinAfter) : joinAfter,
        secondShare: share,
        helper,
        helperJoinAfter: opts.lateJoinAfter ?? CDCL_THREADS_JOIN.rounds,
        // (a caller's lateJoinAfter is the whole rule)
        helperJoinMs: ctx.adapter.fallback && opts.lateJoinAfter === undefined ? CDCL_THREADS_JOIN.cpuAdapterMs : undefined,
        helpedShare: ctx.adapter.fallback ? HELPED_PROBING_SHARE : undefined,
        onFirst: probingOpts.onOutcome,
        onSecond: (k, c) => opts.onResult?.(onLanes[k], cdclResult(c, maxSolutions)),
      }, laneStats);
      probing = raced.first;
      cdcl = raced.second;
    } finally {
      helper?.close();
    }
  }
  if (opts.stats) {
    opts.stats.dispatches += laneStats.dispatches;
    opts.stats.readbacks += laneStats.readbacks;
    const work = (opts.stats.work ??= {});
    for (const [k, n] of Object.entries(laneStats.work ?? {})) work[k] = (work[k] ?? 0) + n;
  }
  const rest = puzzles.flatMap((p, i) => (laneTakes(p) ? [] : [i]));
  onLanes.forEach((i, k) => {
    const o = probing[k];
    const c = cdcl[k];
    // an answer (probing's on a tie), else the rounds solver for what the probing kernel could not hold, else a
    // stopped search (one with a solution first)
    if (o && ANSWERS.has(o.status)) out[i] = laneResult(o, maxSolutions);
    else if (c && ANSWERS.has(c.status)) out[i] = cdclResult(c, maxSolutions);
    else if (o?.status === 'depth' || o?.status === 'capped') rest.push(i);
    else if (o && (o.solutions.length || !c?.solutions.length)) out[i] = laneResult(o, maxSolutions);
    else if (c) out[i] = cdclResult(c, maxSolutions);
    else out[i] = { status: 'unsolved', reason: 'timeout', generations: 0, probes: 0, branches: 0, level: 'line', ms: performance.now() - t0 };
  });
  if (rest.length) {
    const left = deadline === undefined ? undefined : Math.max(0, deadline - performance.now());
    // the rounds' times count from their own start: from the call's here
    const since = performance.now() - t0;
    const res = await solveRounds(ctx, rest.map((i) => puzzles[i]), {
      ...opts,
      timeoutMs: left,
      progress: () => opts.progress?.(++done, puzzles.length),
      onResult: opts.onResult && ((k, r) => opts.onResult!(rest[k], { ...r, ms: r.ms + since })),
    });
    rest.forEach((i, k) => (out[i] = { ...res[k], ms: res[k].ms + since }));
  }
  return interrupted(out, opts.signal);
}

/** Puzzles an abort stopped say so, not 'timeout'. */
function interrupted(out: NonogramResult[], signal: AbortSignal | undefined): NonogramResult[] {
  if (signal?.aborted) for (const r of out) if (r.reason === 'timeout') r.reason = 'interrupted';
  return out;
}

function laneResult(o: LaneOutcome, maxSolutions: number): NonogramResult {
  // a search the deadline stopped: solved if it had found a solution (unique not proven), else unsolved
  const stopped = o.status === 'suspended';
  const status = (stopped ? (o.solutions.length ? 'solved' : 'unsolved') : o.status) as NonogramResult['status'];
  return {
    status,
    reason: status === 'unsolved' ? 'timeout' : undefined,
    solution: o.solutions[0],
    solution2: o.solutions[1],
    generations: o.generations,
    probes: o.probes,
    branches: o.branches,
    level: o.level,
    // stopped at its first solution, only line logic's is proven unique (a complete probe copy is a guess too)
    unique: status === 'solved' ? (maxSolutions >= 2 && !stopped) || o.level === 'line' : undefined,
    search: 'probing',
    branchScore: o.branchScore,
    ms: o.ms,
  };
}

function cdclResult(o: CdclOutcome, maxSolutions: number): NonogramResult {
  const stopped = o.status === 'suspended';
  const status = (stopped ? (o.solutions.length ? 'solved' : 'unsolved') : o.status === 'capped' ? 'unsolved' : o.status) as NonogramResult['status'];
  return {
    status,
    reason: status === 'unsolved' ? (stopped ? 'timeout' : 'capped') : undefined,
    solution: o.solutions[0],
    solution2: o.solutions[1],
    // line logic ran to its fixpoint before root probing; its generations are not counted apart
    generations: 0,
    probes: o.probes,
    branches: o.decisions,
    level: o.level,
    // root probing's facts hold in every solution: without a decision the solution is the only one
    unique: status === 'solved' ? (maxSolutions >= 2 && !stopped) || o.level !== 'search' : undefined,
    search: 'cdcl',
    conflicts: o.conflicts,
    decisions: o.decisions,
    learned: o.learned,
    decayShift: o.search.decayShift,
    filledFirst: o.search.filledFirst,
    rootProbing: o.search.rootProbing,
    targetPhases: o.search.targetPhases,
    cpuThread: o.cpuThread,
    transposed: o.transposed,
    ms: o.ms,
  };
}

/** The rounds solver: one engine batch per line-word class, probe copies in rounds (ClassRun). */
async function solveRounds(ctx: GpuContext, puzzles: Nonogram[], opts: NonogramSolveOptions): Promise<NonogramResult[]> {
  const out: NonogramResult[] = new Array(puzzles.length);
  const classes = new Map<number, number[]>();
  puzzles.forEach((p, i) => {
    const err = gpuLimitError(p);
    if (err) throw new Error(`puzzle ${i + 1}: ${err}`);
    const k = lineWordsFor(p);
    classes.set(k, [...(classes.get(k) ?? []), i]);
  });
  let done = 0;
  // The classes (one pipeline per line width) run side by side, their rounds sharing the GPU's queue, within one
  // deadline: one after another, each with the whole --timeout, a batch of mixed widths overran it several times
  // over, and with one deadline the first class's hard puzzles would leave a later class's easy ones no time.
  const deadline = opts.timeoutMs === undefined ? undefined : performance.now() + opts.timeoutMs;
  await Promise.all(
    [...classes].map(async ([lineWords, idx]) => {
      const timeoutMs = deadline === undefined ? undefined : Math.max(0, deadline - performance.now());
      const run = new ClassRun(ctx, puzzles, idx, lineWords, { ...opts, timeoutMs }, () => opts.progress?.(++done, puzzles.length));
      const results = await run.solve();
      idx.forEach((i, k) => (out[i] = results[k]));
    }),
  );
  return out;
}

/** Line logic alone (the twin tests' entry point): cells, status and generations per puzzle. */
export async function gpuLineSolve(ctx: GpuContext, puzzles: Nonogram[], opts: { mode?: Mode; maxGenerations?: number } = {}) {
  const res = await solveNonograms(ctx, puzzles, { ...opts, method: 'line' });
  return res.map((r) => ({
    cells: r.cells!,
    status: r.status === 'contradiction' ? 'contradiction' : r.status === 'solved' ? 'solved' : 'stalled',
    generations: r.generations,
  }));
}

// ---------------------------------------------------------------------------------------------------------------

interface PuzzleRun {
  index: number;
  p: Nonogram;
  l: CopyLayout;
  /** where the puzzle's clue table starts in the clue grid's aux */
  clues: number;
  solutions: string[];
  probes: number;
  branches: number;
  nodes: number;
  generations: number;
  level: Level;
  /** nodes probing (a few at a time) and waiting branches (searched depth first) */
  active: Set<NodeRun>;
  waiting: NodeRun[];
  /** jobs queued or running for this puzzle */
  jobs: number;
  result?: NonogramResult;
}

/** A state being probed: not contradictory, cells still unknown, settled by line logic unless `settled` says not. */
interface NodeRun {
  puzzle: PuzzleRun;
  words: Uint32Array;
  /** next cell to probe (probing sweeps round the grid) */
  cursor: number;
  /** cells probed since the state last changed: a whole sweep without change means probing has stalled */
  quiet: number;
  /** the best cell to branch on among the quiet probes: its two settled copies */
  best?: { score: number; cell: number; filled: Uint32Array; empty: Uint32Array };
  /** cells in the next probe window */
  window: number;
  /** false after probing fixed cells: line logic has not spread them yet */
  settled: boolean;
  /** the puzzle's own state after line logic: probed to its fixpoint (no early branch) */
  root: boolean;
}

/**
 * Probe windows: a node starts narrow (each window then sees what the one before proved, as sequential probing
 * would) and doubles its window while probing finds nothing, so a quiet sweep, which has nothing to pass on, takes
 * a few rounds instead of one per cell.
 */
const MIN_WINDOW = 8;
const MAX_WINDOW = 1024;
/**
 * A round costs a few ms of latency (submit, run, two readbacks) however little it carries: on SwiftShader about as
 * much as settling 1,000 probe copies. Rounds with fewer copies than this widen their windows instead.
 */
const MIN_ROUND_COPIES = 1024;
/**
 * ...for copies of this many cells (25x25). A larger puzzle's copy costs more to settle, so a round is worth its
 * latency with fewer of them: the 1,024 shrink by (ROUND_CELLS / cells)^1.5. A lone 50x50 that needs probing took
 * 9,216 probes and 16 s in ~1,000-copy windows here, 1,664 probes and 2 s now (the CPU solver: 1,094, 0.6 s);
 * eight puzzles of 36x36 to 50x50 together 10.5 s, now 3.8 s. Puzzles of 625 cells or fewer are as before.
 */
const ROUND_CELLS = 625;
/** Share of the last round's time slept before its readback is awaited (RunOptions.napBeforeReadback). */
const ROUND_NAP = 0.8;

/** A probe job's copies: the node itself first when it has new cells to settle, then two per probed cell. */
type Work = { kind: 'root'; puzzle: PuzzleRun } | { kind: 'probe'; node: NodeRun; cells: number[]; settling: boolean };
/** Work for some copies of a grid: copies start .. start + count - 1. */
type Job = Work & { start: number; count: number };

const puzzleOf = (w: Work) => (w.kind === 'root' ? w.puzzle : w.node.puzzle);

/** Copies per invocation in multi-generation dispatches: enough for several workgroups, at most 16 each. */
function copiesPerLane(copies: number): number {
  return Math.max(1, Math.min(16, Math.floor(copies / 256)));
}

/**
 * One line-word class of puzzles in one batch. Its grids: the clue grid (every puzzle's clue table in its aux; it
 * never runs), then one grid per round and puzzle size holding every copy queued in that round: puzzles, probe
 * windows, settles of merged states. Rounds follow each other: a round's grid runs to its fixpoint (in
 * multi-generation mode one dispatch), the host reads it once, and what it decides makes the next round's grid.
 */
class ClassRun {
  private readonly runs: PuzzleRun[];
  /** running grids and their jobs */
  private readonly grids = new Map<number, Job[]>();
  /** copies queued for the next round, by puzzle size */
  private readonly queued = new Map<string, { w: number; h: number; work: Work[]; states: Uint32Array[]; copies: number }>();
  private batch!: Batch;
  private clueGrid = -1;
  private readonly method: 'line' | 'full';
  private readonly targetCopies: number;
  private readonly maxNodes: number;
  private readonly maxActive: number;
  private readonly maxSolutions: number;
  private readonly earlyBranchScore: number;
  private deadline: number;
  /** when the puzzles were uploaded (after compiling pipelines: CLI.md `ms` leaves compilation out) */
  private started = 0;
  private timedOut = false;
  private unfinished: number;
  /** nodes probing, over all puzzles (kept as they start and stop: counting them per probe would cost O(puzzles)) */
  private activeNodes = 0;

  constructor(
    private readonly ctx: GpuContext,
    puzzles: Nonogram[],
    idx: number[],
    private readonly lineWords: number,
    private readonly opts: NonogramSolveOptions,
    private readonly onDone: () => void,
  ) {
    this.method = opts.method ?? 'full';
    this.targetCopies = opts.targetCopies ?? 4096;
    this.maxNodes = opts.maxNodes ?? 100_000;
    this.maxActive = opts.maxActiveNodes ?? 1;
    this.maxSolutions = opts.maxSolutions ?? 2;
    this.earlyBranchScore = opts.earlyBranchScore ?? EARLY_BRANCH_SCORE;
    this.deadline = Infinity;
    this.unfinished = idx.length;
    let clues = 0;
    this.runs = idx.map((index) => {
      const p = puzzles[index];
      const run: PuzzleRun = {
        index,
        p,
        l: layoutOf(p.width, p.height),
        clues,
        solutions: [],
        probes: 0,
        branches: 0,
        nodes: 0,
        generations: 0,
        level: 'line',
        active: new Set(),
        waiting: [],
        jobs: 0,
      };
      clues += packClues(p).length;
      return run;
    });
  }

  async solve(): Promise<NonogramResult[]> {
    this.batch = await Batch.create(this.ctx, nonogramRule(this.lineWords), { modes: [roundsMode(this.opts.mode)] });
    this.started = performance.now();
    if (this.opts.timeoutMs !== undefined) this.deadline = this.started + this.opts.timeoutMs;
    try {
      const aux = new Uint32Array(this.runs.reduce((n, r) => n + packClues(r.p).length, 0));
      for (const r of this.runs) aux.set(packClues(r.p), r.clues);
      // the clue grid: no cells, no work items; it only holds the clue tables every copy points into
      this.clueGrid = this.batch.add({ width: 1, height: 1, items: 0, state: new Uint32Array(0), aux, params: [0, 1, 0, 0] });
      for (const r of this.runs) this.queue({ kind: 'root', puzzle: r }, packCopy(r.l, initialCells(r.p), r.clues));
      this.flush();
      const mode = roundsMode(this.opts.mode);
      // multi-gen: a round's grid settles within one dispatch (nono_copies), so look after every dispatch
      await this.batch.run({
        mode,
        readbackEvery: mode === 'multi-gen' ? 1 : undefined,
        // rounds follow each other at similar lengths: sleep through most of one instead of Dawn's busy wait
        napBeforeReadback: ROUND_NAP,
        maxGenerations: this.opts.maxGenerations,
        onChunk: (finished) => this.onChunk(finished),
      });
      if (this.opts.stats) {
        this.opts.stats.dispatches += this.batch.stats.dispatches;
        this.opts.stats.readbacks += this.batch.stats.readbacks;
      }
      for (const r of this.runs) if (!r.result) this.finish(r, { status: 'unsolved', reason: this.timedOut ? 'timeout' : 'stalled' });
      return this.runs.map((r) => r.result!);
    } finally {
      this.batch.destroy();
    }
  }

  /** Queues copies for the next round. */
  private queue(work: Work, state: Uint32Array): void {
    const r = puzzleOf(work);
    const key = `${r.p.width}x${r.p.height}`;
    let q = this.queued.get(key);
    if (!q) this.queued.set(key, (q = { w: r.p.width, h: r.p.height, work: [], states: [], copies: 0 }));
    q.work.push(work);
    q.states.push(state);
    q.copies += state.length / r.l.words;
    r.jobs++;
  }

  /** The queued copies join the batch: one grid per puzzle size. */
  private flush(): void {
    for (const q of this.queued.values()) {
      const l = layoutOf(q.w, q.h);
      const state = new Uint32Array(q.copies * l.words);
      const jobs: Job[] = [];
      let at = 0;
      q.work.forEach((w, i) => {
        const count = q.states[i].length / l.words;
        state.set(q.states[i], at * l.words);
        jobs.push({ ...w, start: at, count });
        at += count;
      });
      const id = this.batch.add({
        width: q.w,
        height: q.h,
        items: q.copies * Math.max(q.w, q.h),
        state,
        params: [q.copies, copiesPerLane(q.copies), this.clueGrid, 0],
        maxGenerations: this.opts.maxGenerations,
      });
      this.grids.set(id, jobs);
      if (this.opts.stats) {
        this.opts.stats.grids++;
        this.opts.stats.copies += q.copies;
      }
    }
    this.queued.clear();
  }

  private lastChunkEnd = 0;

  private async onChunk(finished: GridOutcome[]): Promise<void> {
    const mine = finished.filter((o) => this.grids.has(o.id));
    if (mine.length === 0) return;
    const t0 = performance.now();
    if (this.opts.stats && this.lastChunkEnd) this.opts.stats.gpuMs += t0 - this.lastChunkEnd;
    const states = await this.batch.readStates(mine.map((o) => o.id));
    const t1 = performance.now();
    if ((performance.now() > this.deadline || this.opts.signal?.aborted) && !this.timedOut) this.stopAll();
    mine.forEach((o, k) => {
      const jobs = this.grids.get(o.id)!;
      this.grids.delete(o.id);
      const words = states[k];
      for (const job of jobs) {
        const r = puzzleOf(job);
        r.jobs--;
        if (r.result) continue;
        const l = r.l;
        const mine = words.subarray(job.start * l.words, (job.start + job.count) * l.words);
        if (o.status === 'capped' || o.status === 'timeout') this.onStopped(r, job.kind === 'root' ? mine : undefined, o.status);
        else if (job.kind === 'root') this.onRoot(r, mine);
        else this.onProbed(job.node, job.cells, job.settling, mine);
        this.schedule(r);
      }
      this.batch.release(o.id);
    });
    this.flush();
    if (this.opts.stats) {
      this.opts.stats.readMs += t1 - t0;
      this.opts.stats.hostMs += performance.now() - t1;
    }
    this.lastChunkEnd = performance.now();
  }

  /** A puzzle's line logic is done: solved, contradictory, stalled (method line) or on to probing. */
  private onRoot(r: PuzzleRun, words: Uint32Array): void {
    const s = unpackCopy(r.l, words);
    r.generations = s.generations;
    if (s.contradiction) return this.finish(r, { status: 'contradiction', cells: s.cells });
    if (!s.cells.includes(0)) {
      r.solutions.push(solutionOf(r.l, words));
      return this.finish(r, { status: 'solved', cells: s.cells });
    }
    if (this.method === 'line') return this.finish(r, { status: 'unsolved', reason: 'stalled', cells: s.cells });
    r.level = 'probe';
    this.addNode(r, Uint32Array.from(words), true);
  }

  /** The generation cap or the deadline stopped a round: a puzzle still in line logic shows how far it got. */
  private onStopped(r: PuzzleRun, root: Uint32Array | undefined, reason: string): void {
    if (!root) return this.finish(r, { status: 'unsolved', reason });
    const s = unpackCopy(r.l, root);
    // complete (or contradictory) in the last generation it was allowed: that is an answer, not a stop
    if (s.contradiction || !s.cells.includes(0)) return this.onRoot(r, root);
    r.generations = s.generations;
    this.finish(r, { status: 'unsolved', reason, cells: s.cells });
  }

  /** A settled state to search below (the puzzle after line logic, or a branch). */
  private addNode(r: PuzzleRun, words: Uint32Array, root = false): void {
    if (r.result) return;
    if (++r.nodes > this.maxNodes) return this.finish(r, { status: 'unsolved', reason: 'capped' });
    if (knownCount(r.l, words) === r.p.width * r.p.height) return this.onSolution(r, words);
    r.waiting.push({ puzzle: r, words, settled: true, cursor: 0, quiet: 0, window: MIN_WINDOW, root });
  }

  /** Starts waiting nodes (depth first) while there is room; a puzzle with nothing left to search is done. */
  private schedule(r: PuzzleRun): void {
    while (!r.result && r.active.size < this.activeLimit() && r.waiting.length) {
      const node = r.waiting.pop()!;
      r.active.add(node);
      this.activeNodes++;
      this.probe(node);
    }
    if (!r.result && r.active.size === 0 && r.jobs === 0) {
      // the whole tree is searched: one solution proves it unique, none means there is none
      this.finish(r, { status: r.solutions.length === 0 ? 'contradiction' : 'solved' });
    }
  }

  /**
   * Branches of one puzzle searched at once. Depth first, one at a time (the default), wastes nothing when the
   * puzzle has two solutions; side by side they would keep the GPU busier once few puzzles are left, but on the
   * hard TAAI puzzles (#300-319) 16 side by side ran twice the probes and took longer.
   */
  private activeLimit(): number {
    return Math.max(1, Math.min(this.maxActive, Math.floor((this.opts.activeNodes ?? 256) / Math.max(1, this.unfinished))));
  }

  private nodeDone(node: NodeRun): void {
    if (node.puzzle.active.delete(node)) this.activeNodes--;
  }

  private onSolution(r: PuzzleRun, words: Uint32Array): void {
    const s = solutionOf(r.l, words);
    if (!r.solutions.includes(s)) r.solutions.push(s);
    if (r.solutions.length >= 2) this.finish(r, { status: 'multiple' });
    else if (r.solutions.length >= this.maxSolutions) this.finish(r, { status: 'solved', unique: false }); // not proven: the search stopped at it
  }

  /**
   * Queues the next window of unknown cells of `node`, two copies each. Windows are wide when few nodes share the
   * GPU (fewer rounds) and narrow when many do (each probe then sees what the previous window proved).
   */
  private probe(node: NodeRun): void {
    const r = node.puzzle;
    const { l } = r;
    const n = r.p.width * r.p.height;
    const unknown = n - knownCount(l, node.words);
    // the node's own window (doubling while probing finds nothing), at least its share of a round that is worth
    // the round trip, at most its share of the copies the GPU takes at once
    const active = Math.max(1, this.activeNodes);
    const least = Math.ceil((MIN_ROUND_COPIES * Math.min(1, (ROUND_CELLS / n) ** 1.5)) / (2 * active));
    const most = Math.max(1, Math.floor(this.targetCopies / (2 * active)));
    const window = Math.min(MAX_WINDOW, most, Math.max(node.window, least));
    const cells: number[] = [];
    for (let step = 0; step < n && cells.length < window && node.quiet + cells.length < unknown; step++) {
      const i = (node.cursor + step) % n;
      if (cellUnknown(l, node.words, i)) cells.push(i);
    }
    if (cells.length) node.cursor = (cells[cells.length - 1] + 1) % n;
    // New cells from the last window have not been spread by line logic: the node goes along as copy 0 (its
    // settled state comes back with the probes, one round instead of two), and every copy starts with the lines
    // holding new cells dirty (node.words carries those dirty bits).
    const settling = !node.settled;
    const first = settling ? 1 : 0;
    const words = new Uint32Array(l.words * (first + 2 * cells.length));
    if (settling) {
      words.set(node.words);
      clearDirty(l, words, 0, true);
    }
    cells.forEach((i, k) => {
      const row = Math.floor(i / r.p.width);
      const col = i % r.p.width;
      for (const [j, v] of [
        [first + 2 * k, FILLED],
        [first + 2 * k + 1, EMPTY],
      ]) {
        const at = j * l.words;
        words.set(node.words, at);
        clearDirty(l, words, at, settling);
        setCell(l, words, row, col, v, at);
        touch(l, words, row, col, at);
      }
    });
    r.probes += 2 * cells.length;
    this.queue({ kind: 'probe', node, cells, settling }, words);
  }


  /** Probe outcomes: contradictions and agreements fix cells; solutions are collected; a quiet sweep branches. */
  private onProbed(node: NodeRun, cells: number[], settling: boolean, all: Uint32Array): void {
    const r = node.puzzle;
    const { l } = r;
    const n = r.p.width * r.p.height;
    let words = all;
    if (settling) {
      if (all[0] & 1) return this.nodeDone(node); // what the last window proved contradicts itself
      node.words = all.slice(0, l.words);
      node.settled = true;
      words = all.subarray(l.words);
      if (knownCount(l, node.words) === n) {
        this.onSolution(r, node.words);
        return this.nodeDone(node);
      }
    }
    const before = knownCount(l, node.words);
    const settledWords = node.words.slice();
    // per probed cell, the known cells of its weaker copy (counted once: the host's main cost per copy)
    const scores = new Int32Array(cells.length);
    for (let k = 0; k < cells.length; k++) {
      const a = 2 * k * l.words;
      const b = a + l.words;
      const aDead = (words[a] & 1) !== 0;
      const bDead = (words[b] & 1) !== 0;
      if (aDead && bDead) return this.nodeDone(node); // neither value of the cell: no solution below this node
      if (aDead || bDead) {
        orPlanes(l, node.words, words, aDead ? b : a); // the surviving copy's deductions hold here
        continue;
      }
      const knownA = knownCount(l, words, a);
      const knownB = knownCount(l, words, b);
      if (knownA === n) this.onSolution(r, words.subarray(a, a + l.words));
      if (knownB === n) this.onSolution(r, words.subarray(b, b + l.words));
      if (r.result) return;
      scores[k] = Math.min(knownA, knownB);
      andOrPlanes(l, node.words, words, a, b); // cells both copies agree on hold whatever the cell is
    }
    if (hasConflict(l, node.words)) return this.nodeDone(node);
    const after = knownCount(l, node.words);
    if (after > before) {
      // new cells: probe on (the next round settles them too)
      node.quiet = 0;
      node.window = MIN_WINDOW;
      node.best = undefined;
      node.settled = false;
      markChangedLines(l, node.words, settledWords);
      return this.probe(node);
    }
    node.quiet += cells.length;
    node.window = Math.min(MAX_WINDOW, node.window * 2);
    for (let k = 0; k < cells.length; k++) {
      const a = 2 * k * l.words;
      const b = a + l.words;
      const score = scores[k]; // no news: every cell here kept both copies
      if (!node.best || score > node.best.score) {
        node.best = { score, cell: cells[k], filled: words.slice(a, a + l.words), empty: words.slice(b, b + l.words) };
      }
    }
    // below the root, a cell whose weaker copy decides earlyBranchScore cells is branched on at once, as solveCpu does
    const early = !node.root && node.best !== undefined && node.best.score - after >= this.earlyBranchScore;
    if (!early && node.quiet < n - after) return this.probe(node);
    // a whole sweep without news (or an early branch): branch on the best cell (both of its copies are settled already)
    const best = node.best!;
    r.level = 'search';
    r.branches += 2;
    this.nodeDone(node);
    // the likelier child first, as solveCpu orders them: depth first, the node added last is searched first
    const child = (words: Uint32Array) => ({ cellAt: (j: number) => cellOf(l, words, j), known: knownCount(l, words) });
    const empty = emptyFirst(r.p, best.cell, child(best.filled), child(best.empty));
    this.addNode(r, empty ? best.filled : best.empty);
    this.addNode(r, empty ? best.empty : best.filled);
  }

  private finish(r: PuzzleRun, res: { status: NonogramResult['status']; reason?: string; cells?: Uint8Array; unique?: boolean }): void {
    if (r.result) return;
    const status = res.status === 'solved' && r.solutions.length === 0 ? 'contradiction' : res.status;
    r.result = {
      status,
      solution: r.solutions[0],
      solution2: status === 'multiple' ? r.solutions[1] : undefined,
      reason: res.reason,
      generations: r.generations,
      probes: r.probes,
      branches: r.branches,
      level: r.level,
      unique: status === 'solved' ? (res.unique ?? true) : undefined,
      cells: res.cells,
      ms: performance.now() - this.started,
    };
    this.activeNodes -= r.active.size;
    r.active.clear();
    r.waiting.length = 0;
    this.unfinished--;
    this.onDone();
    // an answer streams out now (a puzzle the deadline stops is reported with the rest at the end)
    if (status !== 'unsolved') this.opts.onResult?.(r.index, r.result);
  }

  /** The time is up: running grids stop, puzzles without an answer end as 'unsolved' (timeout). */
  private stopAll(): void {
    this.timedOut = true;
    for (const r of this.runs) if (!r.result) this.finish(r, { status: 'unsolved', reason: 'timeout' });
    for (const id of this.grids.keys()) if (!this.batch.outcome(id)) this.batch.retire(id, 'timeout');
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Word operations on copies (layout in pack.ts): the planes run from rowF to rowDirty.

function cellUnknown(l: CopyLayout, words: Uint32Array, i: number): boolean {
  const r = Math.floor(i / l.width);
  const c = i - r * l.width;
  const k = r * l.wr + (c >>> 5);
  return ((words[l.rowF + k] | words[l.rowE + k]) & (1 << (c & 31))) === 0;
}

/** Clears the header counters (and, unless `keepDirty`, the dirty bits) of the copy at `at`. */
function clearDirty(l: CopyLayout, words: Uint32Array, at: number, keepDirty = false): void {
  if (!keepDirty) words.fill(0, at + l.rowDirty, at + l.words);
  words[at + 1] = 0;
  words[at + 2] = 0;
}

/** Marks dirty exactly the lines of `words` whose cells differ from `old` (all other dirty bits cleared). */
function markChangedLines(l: CopyLayout, words: Uint32Array, old: Uint32Array): void {
  words.fill(0, l.rowDirty, l.words);
  for (let r = 0; r < l.height; r++) {
    for (let w = 0; w < l.wr; w++) {
      const k = r * l.wr + w;
      if (words[l.rowF + k] !== old[l.rowF + k] || words[l.rowE + k] !== old[l.rowE + k]) {
        words[l.rowDirty + (r >>> 5)] |= 1 << (r & 31);
        break;
      }
    }
  }
  for (let c = 0; c < l.width; c++) {
    for (let w = 0; w < l.wc; w++) {
      const k = c * l.wc + w;
      if (words[l.colF + k] !== old[l.colF + k] || words[l.colE + k] !== old[l.colE + k]) {
        words[l.colDirty + (c >>> 5)] |= 1 << (c & 31);
        break;
      }
    }
  }
}

/** node |= src copy at `at` (every plane) */
function orPlanes(l: CopyLayout, node: Uint32Array, src: Uint32Array, at: number): void {
  for (let i = l.rowF; i < l.rowDirty; i++) node[i] |= src[at + i];
}

/** node |= copy a & copy b (what both settled copies agree on) */
function andOrPlanes(l: CopyLayout, node: Uint32Array, src: Uint32Array, a: number, b: number): void {
  for (let i = l.rowF; i < l.rowDirty; i++) node[i] |= src[a + i] & src[b + i];
}

/** a cell both filled and empty */
function hasConflict(l: CopyLayout, words: Uint32Array): boolean {
  for (let i = 0; i < l.rowE - l.rowF; i++) if (words[l.rowF + i] & words[l.rowE + i]) return true;
  return false;
}
