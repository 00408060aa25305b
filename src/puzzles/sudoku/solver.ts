// Sudoku on the engine: the elimination automaton as a rule (`--method ca`), and the complete solver
// (`--method full`): the automaton runs every puzzle to its fixpoint; a stalled puzzle splits into copies, one per
// candidate of its cell with the fewest candidates, that join the same batch; copies that contradict retire; the
// first solution is kept and the search goes on to a second one to decide uniqueness (`multiple`).
import { Batch, runOver, type GridOutcome } from '../../engine/batch.ts';
import { FLAG_CONTRADICTION } from '../../engine/constants.ts';
import type { Rule } from '../../engine/rule.ts';
import type { GpuContext } from '../../gpu/context.ts';
import type { SolveResult } from '../types.ts';
import { searchStatus, solveOnCpuThreads } from '../cpu-pool.ts';
import type { SudokuCpuResult } from './cpu-worker.ts';
import { stppcString } from './codec.ts';
import { compileLanes, LANE_MAX_CELLS, solveLanes, type LaneStats } from './lane.ts';
import { caInput, unpackMasks } from './pack.ts';
import {
  COUNT_HIDDEN,
  COUNT_LOCKED,
  gridString,
  initialMasks,
  masksToValues,
  popcount,
  ruleNames,
  RULE_HIDDEN,
  RULE_NAKED,
  RULES_ALL,
  type SudokuPuzzle,
} from './reference.ts';

/** The automaton, one exact synchronous generation per dispatch: `--method ca`, the CPU twin's generations. */
export const sudokuRule: Rule = {
  name: 'sudoku',
  files: ['sudoku/topology.wgsl', 'sudoku/rules.wgsl', 'sudoku/sync.wgsl'],
  entryPoints: ['sudoku_step'],
  stateAccess: 'ping-pong',
  tracksCompletion: true,
};

/**
 * The automaton in place (order-independent, monotone): the complete solver's workhorse. Same fixpoint as the
 * synchronous rule; each dispatch runs rounds over the grid until its fixpoint (shaders/sudoku/async.wgsl).
 */
export const sudokuRoundsRule: Rule = {
  name: 'sudoku-rounds',
  files: ['sudoku/topology.wgsl', 'sudoku/rules.wgsl', 'sudoku/async.wgsl'],
  entryPoints: ['sudoku_rounds'],
  stateAccess: 'in-place',
  tracksCompletion: true,
};

/** The solution string in the puzzle's own alphabet (STPPC forms use 1-9 then a-z). */
export function solutionString(p: SudokuPuzzle, values: ArrayLike<number>): string {
  const form = p.io?.form;
  if (form === 'gameid' || form === 'tsv') return stppcString(values);
  return gridString(values, p.io?.blank ?? '.', p.io?.lower ?? false, p.io?.hex);
}

/** A generation cap no run of the automaton reaches: every changing generation removes a candidate. */
function caCap(p: SudokuPuzzle): number {
  return p.n * p.n * p.n + 2;
}

export function unpackCounts(counter: number): [number, number, number] {
  return [counter & 1023, Math.floor(counter / COUNT_HIDDEN) & 1023, Math.floor(counter / COUNT_LOCKED) & 1023];
}

// ---- --method ca ----------------------------------------------------------------------------------------------
export interface CaOptions {
  rules?: number;
  /** with `sync`: a readback after every generation, to log the rules of each (default true) */
  log?: boolean;
  /** 'sync': the synchronous rule, one generation per dispatch; 'rounds': the in-place rule, to the fixpoint */
  mode?: 'sync' | 'rounds';
  timeoutMs?: number;
  /** an abort (Ctrl-C): the grids still running end as at the deadline */
  signal?: AbortSignal;
  maxGenerations?: number;
}

export interface CaResult {
  status: 'solved' | 'stalled' | 'contradiction' | 'capped' | 'timeout';
  masks: Uint32Array;
  generations: number;
  flags: number;
  /** per generation: cells where [naked, hidden, locked] fired (sync mode with log); rounds mode: rounds */
  log: [number, number, number][];
  ms: number;
}

/** Runs the elimination automaton alone on every puzzle, in one batch (or as many as the device needs). */
export async function runCa(ctx: GpuContext, puzzles: SudokuPuzzle[], opts: CaOptions = {}): Promise<CaResult[]> {
  const rules = opts.rules ?? RULES_ALL;
  const mode = opts.mode ?? 'sync';
  const log = mode === 'sync' && (opts.log ?? true);
  const results: CaResult[] = new Array(puzzles.length);
  let next = 0;
  while (next < puzzles.length) {
    const batch = await Batch.create(ctx, mode === 'sync' ? sudokuRule : sudokuRoundsRule);
    try {
      const ids = new Map<number, number>();
      const logs = new Map<number, [number, number, number][]>();
      const started = new Map<number, number>();
      while (next < puzzles.length) {
        const p = puzzles[next];
        const input = caInput(p, initialMasks(p), rules, opts.maxGenerations ?? caCap(p), mode === 'rounds');
        if (!batch.canAdd(input)) break;
        const id = batch.add(input);
        ids.set(id, next++);
        logs.set(id, []);
        started.set(id, performance.now());
      }
      const done = new Map<number, GridOutcome>();
      const ended = new Map<number, number>();
      await batch.run({
        // the in-place rule finds each grid's fixpoint inside a dispatch: read back after every one
        readbackEvery: log || mode === 'rounds' ? 1 : undefined,
        timeoutMs: opts.timeoutMs,
        signal: opts.signal,
        onChunk: (finished) => {
          const now = performance.now();
          for (const o of finished) {
            done.set(o.id, o);
            ended.set(o.id, now);
            if (log && o.flags & FLAG_CONTRADICTION) logs.get(o.id)!.push(unpackCounts(o.counter));
          }
          if (!log) return;
          for (const id of ids.keys()) {
            if (done.has(id)) continue;
            logs.get(id)!.push(unpackCounts(batch.lastCounters.get(id) ?? 0));
          }
        },
      });
      const order = [...ids.keys()];
      const states = await batch.readStates(order);
      order.forEach((id, k) => {
        const o = done.get(id)!;
        const p = puzzles[ids.get(id)!];
        const masks = unpackMasks(states[k], p).slice();
        const status: CaResult['status'] =
          o.status === 'done' ? 'solved' : o.status === 'fixpoint' ? 'stalled' : o.status === 'contradiction' ? 'contradiction' : o.status === 'capped' ? 'capped' : 'timeout';
        const generations = mode === 'rounds' ? states[k][p.n * p.n] : o.generations;
        const entries = logs.get(id)!.slice(0, generations);
        results[ids.get(id)!] = { status, masks, generations, flags: o.flags, log: entries, ms: ended.get(id)! - started.get(id)! };
      });
    } finally {
      batch.destroy();
    }
  }
  return results;
}

export function caToResult(p: SudokuPuzzle, r: CaResult): SolveResult {
  const values = masksToValues(r.masks);
  const flags = r.log.reduce((f, [a, b, c]) => f | (a ? 256 : 0) | (b ? 512 : 0) | (c ? 1024 : 0), r.flags & 0x700);
  const extra: Record<string, unknown> = { rules: ruleNames(flags), rulesPerGeneration: r.log, branches: 0 };
  if (r.status === 'solved') return { status: 'solved', generations: r.generations, solution: solutionString(p, values), extra, ms: r.ms };
  if (r.status === 'contradiction') return { status: 'contradiction', generations: r.generations, extra, ms: r.ms };
  extra.partial = solutionString(p, values);
  extra.candidates = r.masks.reduce((n, m) => n + popcount(m), 0);
  return { status: 'unsolved', reason: r.status, generations: r.generations, extra, ms: r.ms };
}

// ---- --method full -------------------------------------------------------------------------------------------
export interface FullOptions {
  rules?: number;
  timeoutMs?: number;
  /** an abort (Ctrl-C): what is running ends as at the deadline, and nothing new starts */
  signal?: AbortSignal;
  /** grids in the batch at once (roots and copies); more wait on the host */
  maxActive?: number;
  /**
   * grids of one puzzle in the batch at once; its other copies wait on the host, newest first (depth first).
   * Breadth first would grow a frontier of thousands of copies on a sparse puzzle before finding anything.
   */
  perPuzzle?: number;
  progress?: (done: number, total: number) => void;
  /** grids one puzzle may run on the lanes before the rounds solver takes it over (lane.ts) */
  laneNodeCap?: number;
  /**
   * where the puzzles the lanes hand back (past their stack or node cap) go: the rounds solver (default), or the CPU
   * search on a thread per core (index.ts `--handed-back`: on a CPU adapter, where the rounds' dispatches and
   * readbacks cost more than the search; an empty 25x25 took the rounds solver 40 s and the search 0.05 s)
   */
  handedBack?: 'rounds' | 'cpu';
}

/** The JSON `note` of a puzzle the CPU search answered after the lanes handed it back. */
const HANDED_BACK_NOTE = 'on the CPU search: past the lanes\' stack or node cap (--handed-back)';

interface Job {
  index: number;
  puzzle: SudokuPuzzle;
  started: number;
  /** grids of this puzzle in the batch */
  live: Set<number>;
  /** copies waiting on the host, newest last (taken depth first) */
  waiting: Copy[];
  solutions: string[];
  /** copies that ran (joined the batch) */
  branches: number;
  /** stalls split into copies */
  splits: number;
  /** generations of the root grid (the puzzle itself) */
  generations: number;
  /** generations of all its copies */
  copyGenerations: number;
  depth: number;
  result?: SolveResult;
  unsolvedReason?: string;
}

interface Copy {
  masks: Uint32Array;
  depth: number;
}

export interface FullStats {
  seconds: number;
  readbacks: number;
  dispatches: number;
  grids: number;
}

// the lanes always place singles (naked and hidden): a rule set without them takes the rounds solver
const takesLane = (rules: number) => (p: SudokuPuzzle) =>
  p.n * p.n <= LANE_MAX_CELLS && (rules & (RULE_NAKED | RULE_HIDDEN)) === (RULE_NAKED | RULE_HIDDEN);

/** Compiles what `solveFull` runs on these puzzles: the lane kernels they take (the rounds solver compiles on
 * the rare hand-back). */
export async function compileFull(ctx: GpuContext, puzzles: SudokuPuzzle[], rules = RULES_ALL): Promise<void> {
  await compileLanes(ctx, puzzles.filter(takesLane(rules)));
}

/**
 * The complete solver. Every result is `solved` (unique), `multiple` (two solutions, both given), `contradiction`
 * (none) or `unsolved` (timeout). One puzzle per GPU invocation (lane.ts, shaders/sudoku/lane.wgsl); the puzzles it
 * hands back (larger than its private grid, or past its stack or node cap) go to the in-place rounds solver.
 */
export async function solveFull(ctx: GpuContext, puzzles: SudokuPuzzle[], opts: FullOptions = {}): Promise<{ results: SolveResult[]; stats: FullStats }> {
  const rules = opts.rules ?? RULES_ALL;
  const laneOk = takesLane(rules);
  await compileLanes(ctx, puzzles.filter(laneOk));
  const t0 = performance.now();
  const results: SolveResult[] = new Array(puzzles.length);
  const mine = puzzles.flatMap((p, i) => (laneOk(p) ? [i] : []));
  const laneStats: LaneStats = { dispatches: 0, readbacks: 0 };
  let grids = 0;
  let done = 0;
  const deadline = opts.timeoutMs !== undefined ? t0 + opts.timeoutMs : undefined;
  const outcomes = await solveLanes(
    ctx,
    mine.map((i) => puzzles[i]),
    { rules, deadline, signal: opts.signal, nodeCap: opts.laneNodeCap, chunk: deadline !== undefined ? 1024 : undefined, onChunk: (n) => opts.progress?.((done += n), puzzles.length) },
    laneStats,
  );
  const ms = performance.now() - t0;
  const rest: number[] = puzzles.flatMap((p, i) => (laneOk(p) ? [] : [i]));
  // handed back to the CPU search, by index: the lanes' sweeps of the puzzle itself (its `generations`)
  const rootSweeps = new Map<number, number>();
  mine.forEach((i, k) => {
    const o = outcomes[k];
    const p = puzzles[i];
    if (o && opts.handedBack === 'cpu' && (o.status === 'depth' || o.status === 'capped')) {
      rootSweeps.set(i, o.rootSweeps);
      return;
    }
    if (!o || o.status === 'depth' || o.status === 'capped') {
      if (o || (deadline === undefined && !opts.signal?.aborted)) rest.push(i);
      else results[i] = { status: 'unsolved', reason: 'timeout', generations: 0, ms, extra: { branches: 0 } };
      return;
    }
    grids += o.nodes;
    const extra = { branches: o.nodes - 1, splits: o.splits, depth: o.depth, sweeps: o.sweeps };
    const sol = o.solutions.map((values) => solutionString(p, values));
    if (o.status === 'contradiction') results[i] = { status: 'contradiction', generations: o.rootSweeps, ms: o.ms, extra };
    else if (o.status === 'multiple') results[i] = { status: 'multiple', generations: o.rootSweeps, solution: sol[0], solution2: sol[1], ms: o.ms, extra };
    else results[i] = { status: 'solved', generations: o.rootSweeps, solution: sol[0], ms: o.ms, extra };
  });
  const stats: FullStats = { seconds: 0, readbacks: laneStats.readbacks, dispatches: laneStats.dispatches, grids };
  const cpuSide = solveOnCpuThreads<SudokuPuzzle, SudokuCpuResult>({
    from: import.meta.url,
    file: 'cpu-worker.ts',
    puzzles,
    which: [...rootSweeps.keys()],
    deadline: deadline ?? Infinity,
    signal: opts.signal,
    job: {},
    answer: (i, r, ms, reason) => cpuResult(puzzles[i], r, rootSweeps.get(i)!, ms, reason),
    stopped: (i, reason, ms = 0) => ({ status: 'unsolved', reason, generations: rootSweeps.get(i)!, ms, extra: { branches: 0, note: HANDED_BACK_NOTE } }),
    report: (i, r) => (results[i] = r),
  });
  if (rest.length) {
    rest.sort((a, b) => a - b);
    const left = deadline !== undefined ? Math.max(1, deadline - performance.now()) : undefined;
    const r = await solveFullRounds(ctx, rest.map((i) => puzzles[i]), { ...opts, timeoutMs: left, progress: undefined });
    rest.forEach((i, k) => (results[i] = r.results[k]));
    stats.readbacks += r.stats.readbacks;
    stats.dispatches += r.stats.dispatches;
    stats.grids += r.stats.grids;
    opts.progress?.(puzzles.length, puzzles.length);
  }
  await cpuSide;
  if (rootSweeps.size) opts.progress?.(puzzles.length, puzzles.length);
  stats.seconds = (performance.now() - t0) / 1000;
  return { results, stats };
}

/** The CPU search's answer for a puzzle the lanes handed back (its solutions are verified by the CLI as any). */
function cpuResult(p: SudokuPuzzle, r: SudokuCpuResult, generations: number, ms: number, reason = r.reason): SolveResult {
  const [solution, solution2] = r.solutions.map((values) => solutionString(p, values));
  const status = searchStatus(r.solutions.length, reason);
  return { status, generations, solution, solution2, ms, reason: status === 'unsolved' ? reason : undefined, extra: { branches: r.nodes, note: HANDED_BACK_NOTE } };
}

/**
 * The complete solver on the engine's batch: grids of one workgroup each, in-place rounds to the fixpoint per
 * dispatch, copies joining the batch from the host. Slower on SwiftShader than the lanes; it takes what they hand
 * back.
 */
export async function solveFullRounds(ctx: GpuContext, puzzles: SudokuPuzzle[], opts: FullOptions = {}): Promise<{ results: SolveResult[]; stats: FullStats }> {
  const rules = opts.rules ?? RULES_ALL;
  const maxActive = opts.maxActive ?? 4096;
  const perPuzzle = opts.perPuzzle ?? 32;
  const t0 = performance.now();
  const results: SolveResult[] = new Array(puzzles.length);
  const batch = await Batch.create(ctx, sudokuRoundsRule);
  const owner = new Map<number, { job: Job; root: boolean; depth: number }>();
  /** started puzzles that have copies waiting, in puzzle order */
  const open = new Set<Job>();
  let nextRoot = 0;
  let finishedCount = 0;
  let grids = 0;

  const finish = (job: Job, r: Omit<SolveResult, 'ms' | 'generations'>) => {
    if (job.result) return;
    job.result = {
      ...r,
      generations: job.generations,
      ms: performance.now() - job.started,
      extra: { branches: job.branches, splits: job.splits, depth: job.depth, copyGenerations: job.copyGenerations, ...(r.extra ?? {}) },
    };
    for (const id of job.live) {
      batch.release(id);
      owner.delete(id);
    }
    job.live.clear();
    job.waiting.length = 0;
    open.delete(job);
    results[job.index] = job.result;
    finishedCount++;
    opts.progress?.(finishedCount, puzzles.length);
  };

  const settle = (job: Job) => {
    if (job.result || job.live.size || job.waiting.length) return;
    if (job.unsolvedReason) {
      if (job.solutions.length) finish(job, { status: 'solved', solution: job.solutions[0], reason: undefined, extra: { uniqueness: 'unknown' } });
      else finish(job, { status: 'unsolved', reason: job.unsolvedReason });
    } else if (job.solutions.length === 0) finish(job, { status: 'contradiction' });
    else finish(job, { status: 'solved', solution: job.solutions[0] });
  };

  const addGrid = (job: Job, masks: Uint32Array, root: boolean, depth: number): boolean => {
    const input = caInput(job.puzzle, masks, rules, 1_000_000, true);
    if (!batch.canAdd(input)) return false;
    const id = batch.add(input);
    owner.set(id, { job, root, depth });
    job.live.add(id);
    grids++;
    return true;
  };

  const fill = () => {
    // past the deadline nothing new joins: the batch's run ends with the grids it has (it ran on for as long as
    // finished grids were replaced: an empty 25x25, handed back by the lanes, ran 55 s past a 5-s --timeout)
    if (runOver(t0, opts)) return;
    let active = owner.size;
    // copies of started puzzles first (they hold results back), at most perPuzzle grids each
    for (const job of open) {
      while (active < maxActive && job.live.size < perPuzzle && job.waiting.length) {
        const copy = job.waiting.pop()!;
        if (!addGrid(job, copy.masks, false, copy.depth)) {
          job.waiting.push(copy);
          return;
        }
        job.branches++;
        active++;
      }
      if (!job.waiting.length) open.delete(job);
      if (active >= maxActive) return;
    }
    while (active < maxActive) {
      if (nextRoot >= puzzles.length) break;
      const p = puzzles[nextRoot];
      const job: Job = {
        index: nextRoot,
        puzzle: p,
        started: performance.now(),
        live: new Set(),
        waiting: [],
        solutions: [],
        branches: 0,
        splits: 0,
        generations: 0,
        copyGenerations: 0,
        depth: 0,
      };
      if (!addGrid(job, initialMasks(p), true, 0)) break;
      nextRoot++;
      active++;
    }
  };

  const onChunk = async (finished: GridOutcome[]) => {
    const mine = finished.filter((o) => owner.has(o.id));
    if (mine.length === 0) {
      fill();
      return;
    }
    const states = await batch.readStates(mine.map((o) => o.id));
    mine.forEach((o, k) => {
      const own = owner.get(o.id);
      if (!own) return; // released when its puzzle finished earlier in this chunk
      const { job, root, depth } = own;
      owner.delete(o.id);
      job.live.delete(o.id);
      batch.release(o.id);
      if (job.result) return;
      const p = job.puzzle;
      const cells = p.n * p.n;
      const gens = states[k][cells];
      if (root) job.generations = gens;
      else job.copyGenerations += gens;
      const masks = states[k].subarray(0, cells);
      if (o.status === 'done') {
        job.solutions.push(solutionString(p, masksToValues(masks)));
        // deductions alone are sound, so a root solved without a guess is the only solution
        if (root) finish(job, { status: 'solved', solution: job.solutions[0] });
        else if (job.solutions.length >= 2) finish(job, { status: 'multiple', solution: job.solutions[0], solution2: job.solutions[1] });
      } else if (o.status === 'fixpoint') {
        // stalled: split on the cell with the fewest candidates, one copy per candidate
        let best = -1;
        let bestCount = 99;
        for (let i = 0; i < cells; i++) {
          const c = popcount(masks[i]);
          if (c > 1 && c < bestCount) {
            bestCount = c;
            best = i;
            if (c === 2) break;
          }
        }
        const bits: number[] = [];
        for (let m = masks[best]; m; m &= m - 1) bits.push((m & -m) >>> 0);
        job.splits++;
        job.depth = Math.max(job.depth, depth + 1);
        // pushed in reverse so the smallest candidate is taken first (last in, first out)
        for (let b = bits.length - 1; b >= 0; b--) {
          const copy = masks.slice();
          copy[best] = bits[b];
          job.waiting.push({ masks: copy, depth: depth + 1 });
        }
        open.add(job);
      } else if (o.status === 'contradiction') {
        // this branch holds no solution
      } else {
        job.unsolvedReason = o.status === 'timeout' ? 'timeout' : 'capped';
      }
      settle(job);
    });
    fill();
  };

  try {
    fill();
    while (owner.size > 0) {
      // a dispatch runs every grid to its fixpoint (or MAX_ROUNDS rounds): read back after each one
      await batch.run({ readbackEvery: 1, timeoutMs: opts.timeoutMs, signal: opts.signal, onChunk });
      if (runOver(t0, opts)) break;
      fill();
    }
    // whatever is left (timeout) is unsolved
    const started = new Map<number, Job>();
    for (const o of owner.values()) started.set(o.job.index, o.job);
    for (const job of open) started.set(job.index, job);
    for (let i = 0; i < puzzles.length; i++) {
      if (results[i]) continue;
      const job = started.get(i);
      results[i] = job?.result ?? {
        status: 'unsolved',
        reason: 'timeout',
        generations: job?.generations ?? 0,
        solution: job?.solutions[0],
        ms: performance.now() - (job?.started ?? t0),
        extra: { branches: job?.branches ?? 0 },
      };
    }
  } finally {
    batch.destroy();
  }
  return {
    results,
    stats: { seconds: (performance.now() - t0) / 1000, readbacks: batch.stats.readbacks, dispatches: batch.stats.dispatches, grids },
  };
}
