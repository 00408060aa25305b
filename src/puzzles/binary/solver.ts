// Binary puzzles on the GPU: the two automata as engine rules, and the strategies over them.
//   thesis  the thesis automaton (3.3.2) alone;
//   ca      our automaton with Methods 1-4 from the first generation;
//   full    our automaton in stages by the thesis' levels (Methods 1-2, then +3, then +4: the stage that completes
//           the grid is the puzzle's level), then probing on the GPU (Method 5: copies of the stalled puzzle with
//           one unknown cell set each way, advanced in the same batch as everything else; a copy that reaches a
//           contradiction fixes its cell the other way, cells both copies agree on are fixed too), and branching
//           only when a whole sweep of probes fixes nothing, depth-first in restarts as the CPU search
//           (search.ts BinarySearch.solve). Stops at two solutions.
import type { GpuContext } from '../../gpu/context.ts';
import { GpuError } from '../../gpu/context.ts';
import { Batch, runOver, type GridOutcome, type GridStatus } from '../../engine/batch.ts';
import type { GridInput, Rule } from '../../engine/rule.ts';
import { runAll } from '../../engine/run.ts';
import type { SolveResult } from '../types.ts';
import { cellsToString, UNKNOWN, type BinaryPuzzle } from './codec.ts';
import { packCa, unpackCa, wordsPerRow } from './pack.ts';
import { rng } from '../random.ts';
import { firstWay, RESTART_BRANCHES } from './search.ts';
import { LEVEL_METHODS, METHODS_ALL, checkSolution, thesisCells, thesisInit, thesisLastChange, THESIS_AGE_MAX } from './reference.ts';

export const caRule: Rule = {
  name: 'binary-ca',
  files: ['binary/generation.wgsl', 'binary/ca.wgsl'],
  entryPoints: ['binary_ca'],
  stateAccess: 'ping-pong',
  tracksCompletion: true,
};

export const thesisRule: Rule = {
  name: 'binary-thesis',
  files: ['binary/thesis.wgsl'],
  entryPoints: ['binary_thesis'],
  stateAccess: 'ping-pong',
  tracksCompletion: true,
};

/** ca.wgsl counts columns in 8-bit counters; the thesis walkers carry 8-bit counts */
export const MAX_LINE = 254;

type Shape = Pick<BinaryPuzzle, 'width' | 'height'>;

function checkLines(p: Shape) {
  if (p.width > MAX_LINE || p.height > MAX_LINE) {
    throw new GpuError(`a ${p.width}x${p.height} binary puzzle is larger than the automata's counters allow (lines up to ${MAX_LINE} cells)`);
  }
}

/** grids up to this size run in one work item's private memory, many generations per dispatch (ca.wgsl) */
export const SMALL_GRID = 32;
const CAPPED = 0x80000000;

export const isSmall = (p: Shape) => p.width <= SMALL_GRID && p.height <= SMALL_GRID;

/**
 * A grid of our automaton: the packed rows, then one word for the generations the in-lane path ran (bit 31: it
 * stopped at the cap). params: methods, Rule 3, the cap (0: none), 1 = in-lane path.
 */
export function caInput(p: Shape & { distinct: boolean }, cells: ArrayLike<number>, methods: number, maxGenerations?: number): GridInput {
  checkLines(p);
  const rows = packCa(p.width, p.height, cells);
  const state = new Uint32Array(rows.length + 1);
  state.set(rows);
  return {
    width: p.width,
    height: p.height,
    // one work item per 32-column strip (shaders/binary/ca.wgsl)
    items: wordsPerRow(p.width),
    state,
    params: [methods, p.distinct ? 1 : 0, maxGenerations ?? 0, isSmall(p) ? 1 : 0],
    maxGenerations,
  };
}

/** cells, status and generations of a finished grid of our automaton (the in-lane path counts its own) */
export function caOutcome(p: Shape, o: GridOutcome, state: Uint32Array): { cells: Uint8Array; status: GridStatus; generations: number } {
  const cells = unpackCa(p.width, p.height, state);
  if (!isSmall(p)) return { cells, status: o.status, generations: o.generations };
  const header = state[state.length - 1];
  const status = header & CAPPED && o.status === 'fixpoint' ? 'capped' : o.status;
  return { cells, status, generations: header & ~CAPPED };
}

/** grids of one shape in a pack (ca.wgsl, grid.param3 = 2): one work item each */
export const PACK_LANES = 1024;
const PACK_CONTRADICTION = 0x40000000;
const PACK_PENDING = 0x20000000;
const PACK_GENERATIONS = 0x0fffffff;

/** the pack key of a small grid: grids in one pack share size, Rule 3, methods and cap */
const packKey = (p: Shape & { distinct: boolean }, methods: number, maxGenerations?: number) => `${p.width}x${p.height}/${p.distinct ? 1 : 0}/${methods}/${maxGenerations ?? 0}`;

/**
 * Small grids of one shape as one engine grid (isSmall only): lane k's words at k * (2 * height + 2 * width + 1):
 * its rows, its columns (pairs [known, value], bit y = row y), then its last word (generations and outcome). The
 * pack is over after one dispatch: each lane runs to its own end there.
 */
export function packInput(p: Shape & { distinct: boolean }, grids: { cells: ArrayLike<number>; set?: number; value?: number }[], methods: number, maxGenerations?: number): GridInput {
  checkLines(p);
  const { width: w, height: h } = p;
  const words = packWords(p);
  const state = new Uint32Array(words * grids.length);
  const U = UNKNOWN;
  for (let k = 0; k < grids.length; k++) {
    const { cells, set = -1, value = 0 } = grids[k];
    const at = k * words;
    const cols = at + 2 * h;
    // rows and columns in one pass (a probe's cell read as its value)
    for (let y = 0, i = 0; y < h; y++) {
      let known = 0;
      let ones = 0;
      for (let x = 0; x < w; x++, i++) {
        const v = i === set ? value : cells[i];
        if (v === U) continue;
        known |= 1 << x;
        state[cols + 2 * x] |= 1 << y;
        if (v === 1) {
          ones |= 1 << x;
          state[cols + 2 * x + 1] |= 1 << y;
        }
      }
      state[at + 2 * y] = known;
      state[at + 2 * y + 1] = ones;
    }
  }
  return { width: w, height: h, items: grids.length, state, params: [methods, p.distinct ? 1 : 0, maxGenerations ?? 0, 2] };
}

const packWords = (p: Shape) => 2 * p.height + 2 * p.width + 1;

/** each lane's cells, status and generations from a pack's state */
export function packOutcomes(p: Shape, state: Uint32Array, count: number): { cells: Uint8Array; status: GridStatus; generations: number }[] {
  const words = packWords(p);
  const { width: w, height: h } = p;
  // all lanes' cells in one buffer: a typed array of its own per lane (past V8's 64 on-heap bytes) made garbage
  // collection a quarter of the host's time
  const all = new Uint8Array(count * w * h);
  const out = new Array<{ cells: Uint8Array; status: GridStatus; generations: number }>(count);
  for (let k = 0, i = 0; k < count; k++) {
    const at = k * words;
    const header = state[at + words - 1];
    const cells = all.subarray(i, i + w * h);
    for (let y = 0; y < h; y++) {
      const known = state[at + 2 * y];
      const value = state[at + 2 * y + 1];
      for (let x = 0; x < w; x++, i++) all[i] = (known >>> x) & 1 ? (value >>> x) & 1 : UNKNOWN;
    }
    const status: GridStatus =
      header & PACK_CONTRADICTION ? 'contradiction' : header & CAPPED ? 'capped' : header & PACK_PENDING ? 'fixpoint' : 'done';
    out[k] = { cells, status, generations: header & PACK_GENERATIONS };
  }
  return out;
}

export function thesisInput(p: BinaryPuzzle, maxGenerations?: number): GridInput {
  checkLines(p);
  return {
    width: p.width,
    height: p.height,
    items: p.width * p.height,
    state: thesisInit(p),
    // ages saturate at 16 bits: past that the generation of the last change could not be told
    maxGenerations: Math.min(maxGenerations ?? THESIS_AGE_MAX - 1, THESIS_AGE_MAX - 1),
  };
}

export interface AutomatonRun {
  cells: Uint8Array;
  status: GridStatus;
  generations: number;
  /** rule flags raised in the grid's last chunk (methodFlag bits) */
  flags: number;
  ms: number;
}

export interface RunOpts {
  maxGenerations?: number;
  timeoutMs?: number;
  /** an abort (Ctrl-C): what is still running ends as the deadline ends it */
  signal?: AbortSignal;
}

/** Our automaton alone (`--method ca`, and the tests' GPU side), every grid to its fixpoint or contradiction. */
export async function runCa(ctx: GpuContext, puzzles: BinaryPuzzle[], methods = METHODS_ALL, opts: RunOpts = {}): Promise<AutomatonRun[]> {
  const t0 = performance.now();
  // small grids in packs of one shape, larger ones one engine grid each
  const inputs: GridInput[] = [];
  const members: number[][] = [];
  const packs = new Map<string, number[]>();
  puzzles.forEach((p, i) => {
    if (!isSmall(p)) {
      inputs.push(caInput(p, p.cells, methods, opts.maxGenerations));
      members.push([i]);
      return;
    }
    const key = packKey(p, methods, opts.maxGenerations);
    let pack = packs.get(key);
    if (!pack || pack.length >= PACK_LANES) packs.set(key, (pack = []));
    if (pack.length === 0) {
      inputs.push(null!);
      members.push(pack);
    }
    pack.push(i);
  });
  members.forEach((m, g) => {
    const p = puzzles[m[0]];
    if (!inputs[g]) inputs[g] = packInput(p, m.map((i) => ({ cells: puzzles[i].cells })), methods, opts.maxGenerations);
  });
  const allSmall = puzzles.every(isSmall);
  const { results } = await runAll(ctx, caRule, inputs, { ...opts, readbackEvery: allSmall ? 1 : undefined });
  const ms = performance.now() - t0;
  const out: AutomatonRun[] = new Array(puzzles.length);
  results.forEach((r, g) => {
    const m = members[g];
    const p = puzzles[m[0]];
    if (!isSmall(p)) out[m[0]] = { ...caOutcome(p, r, r.state), flags: r.flags, ms };
    else packOutcomes(p, r.state, m.length).forEach((o, k) => (out[m[k]] = { ...o, flags: 0, ms }));
  });
  return out;
}

/**
 * The thesis automaton. `generations` is the generation of the last change of a cell (from the cells' ages): the
 * automaton itself keeps walking for a cycle or two after it, until it knows no walker has anything left to do.
 */
export async function runThesis(ctx: GpuContext, puzzles: BinaryPuzzle[], opts: RunOpts = {}): Promise<AutomatonRun[]> {
  const t0 = performance.now();
  const { results } = await runAll(ctx, thesisRule, puzzles.map((p) => thesisInput(p, opts.maxGenerations)), opts);
  const ms = performance.now() - t0;
  return results.map((r) => ({
    cells: thesisCells(r.state),
    status: r.status,
    generations: r.status === 'contradiction' ? r.generations : thesisLastChange(r.state, r.dispatches),
    flags: r.flags,
    ms,
  }));
}

/**
 * Is a grid the cap stopped complete? Then the generation that completed it was the cap's last, and the cap did not
 * stop the puzzle (as a nonogram's: a cap of N is no stop to one its Nth generation completes): every cell was
 * forced, so the grid is the answer when it keeps the rules, and a contradiction the next generation would have
 * found when it breaks one.
 */
const completeAtCap = (r: { cells: Uint8Array; status: GridStatus }) => r.status === 'capped' && !r.cells.includes(UNKNOWN);

/** A grid's outcome with a grid complete at its cap (completeAtCap) judged: 'done' or 'contradiction'. */
function judgedAtCap<T extends { cells: Uint8Array; status: GridStatus }>(p: BinaryPuzzle, r: T): T {
  if (!completeAtCap(r)) return r;
  return { ...r, status: checkSolution(p, cellsToString(r.cells)) ? 'contradiction' : 'done' };
}

export function automatonResult(p: BinaryPuzzle, r: AutomatonRun, extra: Record<string, unknown> = {}): SolveResult {
  const base = { generations: r.generations, ms: r.ms };
  if (r.status === 'done' || completeAtCap(r)) {
    // every cell was forced, so a grid that breaks a rule the automaton does not check (the thesis CA: no two equal
    // lines) is the only candidate and no solution: the puzzle has none (it was reported as 'verifier rejected')
    const solution = cellsToString(r.cells);
    const broken = checkSolution(p, solution);
    if (broken) return { ...base, status: 'contradiction', extra: { ...extra, note: `the only grid the rules force breaks one: ${broken}` } };
    return { ...base, status: 'solved', solution, extra };
  }
  if (r.status === 'contradiction') return { ...base, status: 'contradiction', extra };
  const reason = r.status === 'fixpoint' ? 'stalled' : r.status;
  return { ...base, status: 'unsolved', reason, extra: { ...extra, partial: cellsToString(r.cells), unknown: r.cells.filter((c) => c === UNKNOWN).length } };
}

// ---------------------------------------------------------------------------------------------------------------
// --method full

/**
 * Probes in a row without a fix after which a node below the root, over a quarter unknown, branches on the best
 * cell so far (the batch path here, lane.wgsl open_node_probed in the lanes). Why: on grids with few givens a whole
 * sweep at every node (~2 probes per unknown cell) fixed next to nothing and was most of the work. Probes that fix
 * cells reset the count, so a constrained node probes on while probing pays. The lanes, one call per grid, with
 * firstWay (2026-11-29): empty 24x24 15 s -> 3.7 s, 28x28 to 32x32 from `unsolved` at 30 s to 4.4-6.6 s. With 32 in
 * a row open grids took 1.6x fewer fixpoint runs, but 2 of 70 generated unique puzzles that need branching went to
 * the node cap (a 16x16: 30 -> 1,611 branch points); with 64 the 70 took 487,186 runs against 594,447 whole sweeps.
 */
export const OPEN_NODE_PROBES = 64;

export interface FullOptions extends RunOpts {
  /**
   * unknown cells probed in a node's first round (two copies each); a round that fixes nothing doubles it for the
   * next (up to 64), so easy nodes spend few copies and hard ones sweep fast; default 4
   */
  probeCells?: number;
  /** stop a puzzle at this many solutions (2: is it unique?) */
  solutionLimit?: number;
  progress?: (done: number, total: number) => void;
}

export interface FullStats {
  /** engine grids (a pack of small grids is one) */
  grids: number;
  /** grids of puzzles run: stages, probe copies, branches */
  copies: number;
  generations: number;
  dispatches: number;
  readbacks: number;
  seconds: number;
}

/** One puzzle being solved. */
interface Job {
  index: number;
  puzzle: BinaryPuzzle;
  solutions: string[];
  probes: number;
  branches: number;
  /** generations of the puzzle's own grid through its stages (not its copies) */
  generations: number;
  probeGenerations: number;
  branchGenerations: number;
  /** the thesis level: the stage that completed the grid, 4 once probing was needed */
  level: number;
  /** nodes alive: the root, then the branch child being searched (0 or 1: the search is depth-first) */
  open: number;
  /** branch children waiting their turn, the last first */
  pending: SearchNode[];
  /** the restarts (as search.ts BinarySearch.solve): this run, its branch points before it, its value order */
  run: number;
  runFrom: number;
  order?: () => number;
  /** the root as probing left it: where every run branches first */
  root?: SearchNode;
  /** grid ids of this job in the batch */
  grids: Set<number>;
  result: SolveResult | null;
  error?: string;
}

/** A search node: a grid state and what is known about probing it. */
interface SearchNode {
  job: Job;
  cells: Uint8Array;
  /** root lineage (its generations are the puzzle's own) or a branch child */
  root: boolean;
  /**
   * per cell, in this sweep: 0 not probed, 1 probed one way (it lived: `half`), 2 both ways. A sweep goes on over
   * the unprobed cells when probes fix some (as the CPU's sweep does): what a probe found from a node still holds
   * in the stronger node that follows (its end only lacks the newer cells)
   */
  probed: Uint8Array;
  /** cells probed one way only, that way's end (kept until the other way is probed or the sweep ends) */
  half: Map<number, { value: number; end: ProbeEnd }>;
  /** probes fixed cells in this sweep: when it ends, another one */
  fixedInSweep: boolean;
  /** cells to probe in the node's next round */
  roundSize: number;
  /** cells probed since the node's last fix (or its start): OPEN_NODE_PROBES */
  fruitless: number;
  /** the most informative probe since then: the cell to branch on when probing stalls */
  best: { cell: number; score: number; states: [Uint8Array, Uint8Array] } | null;
}

type GridRole =
  | { kind: 'stage'; node: SearchNode; stage: number }
  | { kind: 'probe'; round: ProbeRound; cell: number; value: number };

interface ProbeRound {
  node: SearchNode;
  pending: number;
  /**
   * per probed cell: the two ways' ends (null cells: contradiction); a way not probed in this round stays
   * undefined (its end may be in the node's `half`, from an earlier round)
   */
  results: Map<number, [ProbeEnd | undefined, ProbeEnd | undefined]>;
}

interface ProbeEnd {
  cells: Uint8Array | null;
  done: boolean;
}

/** the methods of each stage: the thesis levels (Rule 3 off: Method 4 has nothing to do, skip its stage) */
function nextStage(stage: number, distinct: boolean): number {
  const next = stage + 1;
  return next === 3 && !distinct ? 4 : next;
}

export async function solveFull(ctx: GpuContext, puzzles: BinaryPuzzle[], opts: FullOptions = {}): Promise<{ results: SolveResult[]; stats: FullStats }> {
  const firstRound = opts.probeCells ?? 4;
  const limit = opts.solutionLimit ?? 2;
  const jobs: Job[] = puzzles.map((puzzle, index) => ({
    index,
    puzzle,
    solutions: [],
    probes: 0,
    branches: 0,
    generations: 0,
    probeGenerations: 0,
    branchGenerations: 0,
    level: 1,
    open: 1,
    pending: [],
    run: 0,
    runFrom: 0,
    grids: new Set(),
    result: null,
  }));
  const stats: FullStats = { grids: 0, copies: 0, generations: 0, dispatches: 0, readbacks: 0, seconds: 0 };
  let finishedJobs = 0;
  /** per engine grid: the role of each of its lanes (one for a large grid, one per small grid of a pack) */
  const roles = new Map<number, GridRole[]>();
  /** grids made since the last readback, placed together then (small ones in packs of one shape and cap) */
  const made: { job: Job; cells: Uint8Array; set: number; value: number; methods: number; role: GridRole; cap: number | undefined }[] = [];
  /** engine grids waiting for room in the batch */
  const waiting: { input: GridInput; roles: GridRole[] }[] = [];
  const batch = await Batch.create(ctx, caRule);
  const started = performance.now();

  // --max-generations caps the generations of the puzzle's own grid over all its stages (its `generations`): a
  // root stage gets what the stages before it left, at least 1 (a stage at its fixpoint stopped short of its cap;
  // one that reached its cap ended the puzzle). A copy (probe, branch child) is capped on its own.
  const add = (job: Job, cells: Uint8Array, methods: number, role: GridRole) => {
    const own = role.kind === 'stage' && role.node.root;
    const cap = opts.maxGenerations === undefined || !own ? opts.maxGenerations : opts.maxGenerations - job.generations;
    if (cap !== undefined && cap <= 0) return finish(job, { status: 'unsolved', reason: 'capped', extra: { partial: cellsToString(cells) } });
    made.push({ job, cells, set: -1, value: 0, methods, role, cap });
    stats.copies++;
  };
  /** the grids made since the last readback into the batch (or the waiting line) */
  const placeMade = () => {
    const packs = new Map<string, typeof made>();
    for (const m of made) {
      if (!isSmall(m.job.puzzle)) {
        const cells = m.set < 0 ? m.cells : m.cells.slice();
        if (m.set >= 0) cells[m.set] = m.value;
        waiting.push({ input: caInput(m.job.puzzle, cells, m.methods, m.cap), roles: [m.role] });
        continue;
      }
      const key = packKey(m.job.puzzle, m.methods, m.cap);
      let pack = packs.get(key);
      if (!pack) packs.set(key, (pack = []));
      pack.push(m);
    }
    made.length = 0;
    for (const pack of packs.values()) {
      for (let i = 0; i < pack.length; i += PACK_LANES) {
        const part = pack.slice(i, i + PACK_LANES);
        const input = packInput(part[0].job.puzzle, part, part[0].methods, part[0].cap);
        waiting.push({ input, roles: part.map((m) => m.role) });
      }
    }
    const overTime = runOver(started, opts);
    while (waiting.length && batch.canAdd(waiting[0].input)) {
      const w = waiting.shift()!;
      const live = w.roles.filter((r) => !jobOf(r).result);
      if (live.length === 0) continue;
      if (overTime) {
        for (const r of live) finish(jobOf(r), { status: 'unsolved', reason: 'timeout' });
        continue;
      }
      const id = batch.add(w.input);
      roles.set(id, w.roles);
      // a large grid leaves the batch when its puzzle finishes; a pack stays for its other lanes (one dispatch)
      if (w.roles.length === 1 && w.input.params?.[3] !== 2) jobOf(w.roles[0]).grids.add(id);
      stats.grids++;
    }
  };
  const jobOf = (role: GridRole) => (role.kind === 'stage' ? role.node.job : role.round.node.job);

  const finish = (job: Job, result: Omit<SolveResult, 'ms' | 'generations' | 'extra'> & { extra?: Record<string, unknown> }) => {
    if (job.result) return;
    job.result = {
      ...result,
      generations: job.generations,
      ms: performance.now() - started,
      extra: {
        level: job.level,
        probes: job.probes,
        branches: job.branches,
        probeGenerations: job.probeGenerations,
        branchGenerations: job.branchGenerations,
        ...result.extra,
      },
    };
    // whatever of it is still in the batch leaves now
    for (const id of job.grids) {
      batch.release(id);
      roles.delete(id);
    }
    job.grids.clear();
    finishedJobs++;
    opts.progress?.(finishedJobs, jobs.length);
  };

  /** a complete grid found by a stage or a probe: one more solution (checked on the CPU first) */
  const solutionFound = (job: Job, cells: Uint8Array) => {
    const s = cellsToString(cells);
    // probes often complete the grid the same way: each distinct grid is checked once
    if (job.solutions.includes(s)) return;
    const why = checkSolution(job.puzzle, s);
    if (why) {
      job.error = `verifier rejected a GPU grid: ${why}`;
      return;
    }
    job.solutions.push(s);
  };

  const settle = (job: Job) => {
    if (job.result) return;
    if (job.error) return finish(job, { status: 'error', extra: { error: job.error } });
    if (job.solutions.length >= limit) {
      return finish(job, { status: limit >= 2 ? 'multiple' : 'solved', solution: job.solutions[0], solution2: job.solutions[1] });
    }
    if (job.open === 0) {
      if (job.solutions.length === 1) finish(job, { status: 'solved', solution: job.solutions[0] });
      else finish(job, { status: 'contradiction' });
    }
  };

  // Scratch arrays reused by every round (the host's per-round work is synchronous): typed arrays past V8's 64
  // on-heap bytes each get a buffer of their own, and making them per round kept the garbage collector busy.
  const scratchInts: Int32Array[] = [];
  const scratch = (k: number, n: number) => {
    if (!scratchInts[k] || scratchInts[k].length < n) scratchInts[k] = new Int32Array(n);
    const a = scratchInts[k].subarray(0, n);
    a.fill(0);
    return a;
  };
  let scratchCells = new Uint8Array(0);
  const scratch8 = (n: number) => {
    if (scratchCells.length < n) scratchCells = new Uint8Array(n);
    return scratchCells.subarray(0, n);
  };

  const startProbing = (node: SearchNode) => {
    const job = node.job;
    if (!node.cells.includes(UNKNOWN)) {
      // a branch child that a probe had completed already
      solutionFound(job, node.cells);
      nodeEnded(job);
      return;
    }
    job.level = 4;
    const w = job.puzzle.width;
    const h = job.puzzle.height;
    // per line: how many of each value are placed (rows 0..h-1, then columns)
    const ones = scratch(0, w + h);
    const zeros = scratch(1, w + h);
    const cells = node.cells;
    for (let i = 0, y = 0, x = 0; i < cells.length; i++) {
      const v = cells[i];
      if (v === 1) {
        ones[y]++;
        ones[h + x]++;
      } else if (v === 0) {
        zeros[y]++;
        zeros[h + x]++;
      }
      if (++x === w) {
        x = 0;
        y++;
      }
    }
    const scarce = (l: number) => {
      const half = (l < h ? w : h) / 2;
      return Math.min(half - ones[l], half - zeros[l]);
    };
    const known = (x: number, y: number) => (x >= 0 && y >= 0 && x < w && y < h && cells[y * w + x] !== UNKNOWN ? 1 : 0);
    // Cells of lines short of just one 0 (or 1) first: thesis Figure 3.21's "remainder", where putting that last
    // value in the wrong place forces a trio; then cells with many known neighbours. Scores computed once per
    // cell (a score in the comparator costs more than the rest of the round on the host).
    const unknown: number[] = [];
    const scores = scratch(2, cells.length);
    let unknownCount = 0;
    for (let i = 0, y = 0, x = 0; i < cells.length; i++) {
      if (cells[i] === UNKNOWN) unknownCount++;
      if (cells[i] === UNKNOWN && node.probed[i] < 2) {
        const near = known(x + 1, y) + known(x - 1, y) + known(x, y + 1) + known(x, y - 1) + known(x + 2, y) + known(x - 2, y) + known(x, y + 2) + known(x, y - 2);
        scores[i] = -64 * Math.min(scarce(y), scarce(h + x)) + near;
        unknown.push(i);
      }
      if (++x === w) {
        x = 0;
        y++;
      }
    }
    // an open node below the root that probing has not paid on lately branches (lane.wgsl open_node_probed)
    if (!node.root && node.best && node.fruitless >= OPEN_NODE_PROBES && 4 * unknownCount > cells.length) return branch(node);
    if (unknown.length === 0) {
      if (!node.fixedInSweep) return branch(node);
      node.fixedInSweep = false;
      node.probed.fill(0);
      node.half.clear();
      return startProbing(node);
    }
    unknown.sort((a, b) => scores[b] - scores[a] || a - b);
    const round: ProbeRound = { node, pending: 0, results: new Map() };
    for (let k = 0; k < unknown.length && k < node.roundSize; k++) {
      const cell = unknown[k];
      const x = cell % w;
      const y = (cell - x) / w;
      // The way to probe first: in a line short of one value, that value (the remainder: placed here, it leaves
      // the rest of the line to the other value, which mostly makes a trio), one copy instead of two; when it
      // fails the cell is fixed, when it lives the other way comes in a later round.
      const line = scarce(y) === 1 ? y : scarce(h + x) === 1 ? h + x : -1;
      const half = line < 0 ? 0 : (line < h ? w : h) / 2;
      const first = line < 0 ? -1 : half - ones[line] === 1 ? 1 : 0;
      let ways: number[];
      if (node.probed[cell] === 1) ways = [1 - node.half.get(cell)!.value];
      else if (first >= 0) ways = [first];
      else ways = [0, 1];
      node.probed[cell] = node.probed[cell] === 1 || ways.length === 2 ? 2 : 1;
      node.fruitless++;
      round.results.set(cell, [undefined, undefined]);
      for (const value of ways) {
        // the node's cells with this one set: written into the pack as it is made (no copy per probe)
        made.push({ job, cells: node.cells, set: cell, value, methods: METHODS_ALL, role: { kind: 'probe', round, cell, value }, cap: opts.maxGenerations });
        stats.copies++;
        round.pending++;
        job.probes++;
      }
    }
  };

  const branch = (node: SearchNode) => {
    const job = node.job;
    const best = node.best;
    if (!best) {
      // nothing unknown left to probe and no probe recorded: cannot happen for a stalled grid with unknowns
      job.error = 'probing stalled without a candidate to branch on';
      return;
    }
    if (node.root) job.root = node;
    // Depth-first: the run's first way now, the other on the job's stack; or, this run's branch points spent, the
    // next run from the root (search.ts BinarySearch.solve: restarts, each with its own order).
    if (job.branches - job.runFrom >= RESTART_BRANCHES * 2 ** job.run) {
      job.run++;
      job.runFrom = job.branches;
      job.order = rng(job.run * 0x10000 + job.index);
      job.pending.length = 0;
      // every node below the root came from it: job.root is set
      return branch(job.root!);
    }
    job.branches++;
    const first = firstWay(job.puzzle.width, job.puzzle.height, node.cells, best.cell) ?? (job.order && job.order() < 0.5 ? 1 : 0);
    const child = (cells: Uint8Array): SearchNode => ({ job, cells, root: false, probed: new Uint8Array(cells.length), half: new Map(), fixedInSweep: false, best: null, roundSize: firstRound, fruitless: 0 });
    // the two probe ends are fixpoints already: probing goes on from them
    job.pending.push(child(best.states[1 - first]));
    runNode(child(best.states[first]), 4);
  };

  /** the node being searched is over (dead or complete): the next one from the stack, if any */
  const nodeEnded = (job: Job) => {
    const next = job.pending.pop();
    if (next && job.solutions.length < limit) runNode(next, 4);
    else job.open--;
  };

  /** a node's grid at a stage: stages 1-3 run the automaton with that level's methods, 4 probes */
  const runNode = (node: SearchNode, stage: number) => {
    if (stage <= 3) add(node.job, node.cells, LEVEL_METHODS[stage], { kind: 'stage', node, stage });
    else startProbing(node);
  };

  const roundDone = (round: ProbeRound) => {
    const node = round.node;
    const job = node.job;
    // merged into a scratch copy; a node array of its own only when something was fixed
    const base = scratch8(node.cells.length);
    base.set(node.cells);
    let progress = false;
    let dead = false;
    for (const [cell, ends] of round.results) {
      const earlier = node.half.get(cell);
      if (earlier) ends[earlier.value] = earlier.end;
      const [r0, r1] = ends;
      if (r0?.done && r0.cells) solutionFound(job, r0.cells);
      if (r1?.done && r1.cells) solutionFound(job, r1.cells);
      if (!r0 || !r1) {
        // one way probed so far: a contradiction fixes the cell the other way; a live end waits for the other way
        const value = r0 ? 0 : 1;
        const end = (r0 ?? r1)!;
        if (end.cells) {
          node.half.set(cell, { value, end });
          continue;
        }
        if (base[cell] === value) {
          dead = true;
          break;
        }
        base[cell] = 1 - value;
        progress = true;
        continue;
      }
      const c0 = r0.cells;
      const c1 = r1.cells;
      if (!c0 && !c1) {
        dead = true;
        break;
      }
      // one way fails: the other way's whole fixpoint follows from the node; both live: what they share does
      if (c0 && c1) {
        let known0 = 0;
        let known1 = 0;
        for (let i = 0; i < base.length; i++) {
          const v = c0[i];
          if (v !== UNKNOWN) known0++;
          if (c1[i] !== UNKNOWN) known1++;
          if (v === UNKNOWN || v !== c1[i] || base[i] === v) continue;
          if (base[i] !== UNKNOWN) dead = true;
          base[i] = v;
          progress = true;
        }
        if (dead) break;
        // a way that completes the grid makes the best branch point: one child is solved already
        const score = r0!.done || r1!.done ? Infinity : Math.min(known0, known1);
        if (!node.best || score > node.best.score) node.best = { cell, score, states: [c0, c1] };
      } else {
        const merge = (c0 ?? c1)!;
        for (let i = 0; i < base.length; i++) {
          const v = merge[i];
          if (v === UNKNOWN || base[i] === v) continue;
          if (base[i] !== UNKNOWN) dead = true;
          base[i] = v;
          progress = true;
        }
        if (dead) break;
      }
    }
    if (dead) {
      nodeEnded(job);
      return;
    }
    if (progress) {
      node.cells = base.slice();
      node.fixedInSweep = true;
      node.fruitless = 0;
      node.roundSize = firstRound;
      runNode(node, 3);
    } else {
      node.roundSize = Math.min(node.roundSize * 2, Math.max(firstRound, 64));
      startProbing(node);
    }
  };

  const onStage = (role: Extract<GridRole, { kind: 'stage' }>, o: Pick<GridOutcome, 'status' | 'generations'>, cells: Uint8Array) => {
    const { node, stage } = role;
    const job = node.job;
    if (node.root) job.generations += o.generations;
    else job.branchGenerations += o.generations;
    if (node.root && stage > job.level) job.level = stage;
    if (o.status === 'contradiction') {
      nodeEnded(job);
    } else if (o.status === 'done') {
      solutionFound(job, cells);
      nodeEnded(job);
    } else if (o.status === 'fixpoint') {
      node.cells = cells;
      runNode(node, nextStage(stage, job.puzzle.distinct));
    } else {
      finish(job, { status: 'unsolved', reason: o.status, extra: { partial: cellsToString(cells) } });
    }
  };

  const onProbe = (role: Extract<GridRole, { kind: 'probe' }>, o: Pick<GridOutcome, 'status' | 'generations'>, cells: Uint8Array) => {
    const { round, cell, value } = role;
    const job = round.node.job;
    job.probeGenerations += o.generations;
    if (o.status === 'capped' || o.status === 'timeout') {
      return finish(job, { status: 'unsolved', reason: o.status, extra: { partial: cellsToString(round.node.cells) } });
    }
    round.results.get(cell)![value] = { cells: o.status === 'contradiction' ? null : cells, done: o.status === 'done' };
    if (--round.pending === 0) roundDone(round);
  };

  for (const job of jobs) {
    if (job.puzzle.cells.length === 0) finish(job, { status: 'solved', solution: '' });
    else runNode({ job, cells: job.puzzle.cells.slice(), root: true, probed: new Uint8Array(job.puzzle.cells.length), half: new Map(), fixedInSweep: false, best: null, roundSize: firstRound, fruitless: 0 }, 1);
  }
  placeMade();

  try {
    await batch.run({
      maxGenerations: opts.maxGenerations,
      timeoutMs: opts.timeoutMs,
      signal: opts.signal,
      // packs end in one dispatch: read back after each (large grids: the engine's adaptive chunks)
      readbackEvery: puzzles.every(isSmall) ? 1 : undefined,
      onChunk: async (finished, b) => {
        if (finished.length === 0) return;
        const states = await b.readStates(finished.map((o) => o.id));
        const touched = new Set<Job>();
        finished.forEach((o, k) => {
          const lanes = roles.get(o.id);
          // released already: its puzzle finished earlier in this chunk
          if (!lanes) return;
          roles.delete(o.id);
          b.release(o.id);
          const first = jobOf(lanes[0]).puzzle;
          const outcomes = isSmall(first) ? packOutcomes(first, states[k], lanes.length) : [caOutcome(first, o, states[k])];
          lanes.forEach((role, lane) => {
            const job = jobOf(role);
            job.grids.delete(o.id);
            if (job.result) return;
            const r = judgedAtCap(job.puzzle, outcomes[lane]);
            if (role.kind === 'stage') onStage(role, r, r.cells);
            else onProbe(role, r, r.cells);
            touched.add(job);
          });
        });
        for (const job of touched) settle(job);
        placeMade();
      },
    });
  } finally {
    Object.assign(stats, { generations: batch.stats.generations, dispatches: batch.stats.dispatches, readbacks: batch.stats.readbacks, seconds: batch.stats.seconds });
    batch.destroy();
  }
  for (const job of jobs) {
    settle(job);
    if (!job.result) finish(job, { status: 'unsolved', reason: waiting.length ? 'batch full' : 'stalled' });
  }
  return { results: jobs.map((j) => j.result!), stats };
}
