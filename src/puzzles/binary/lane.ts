// `--method full` with one puzzle per GPU invocation (shaders/binary/lane.wgsl) for grids up to 32x32: the stages,
// probing and branching all in the invocation, one dispatch and one readback per chunk of puzzles. The batch path
// (solver.ts solveFull: probe copies in the batch, the host deciding each round) takes larger grids, runs with a
// generation cap, and whatever the lanes hand back (stack or node cap, a grid the CPU verifier rejects).
import { LANE_STATUS, laneCount, lanePipeline as enginePipeline, runLanes as runEngineLanes, type LaneStatus } from '../../engine/lanes.ts';
import type { GpuContext } from '../../gpu/context.ts';
import type { SolveResult } from '../types.ts';
import { cellsToString, type BinaryPuzzle } from './codec.ts';
import { checkSolution } from './reference.ts';
import { RESTART_BRANCHES } from './search.ts';
import { isSmall, OPEN_NODE_PROBES, solveFull, type FullOptions, type FullStats } from './solver.ts';

/** words before a puzzle's two solutions in the result buffer (lane.wgsl RESULT_HEADER) */
const RESULT_HEADER = 8;
/** lane.wgsl STACK_WORDS: a stack level holds 32 rows [known, value] */
const STACK_WORDS = 64;
/** the stacks of all invocations together */
const STACK_BYTES = 16 << 20;

export interface LaneOptions {
  /** invocations (each holds a stack; default 1024: 64 gave 0.23x of the CPU solver on the bench, 1024 0.5x) */
  lanes?: number;
  /**
   * stack levels per invocation (a branch fixes one more cell per level); default: what 16 MB of stacks hold,
   * 64 levels at 1,024 lanes up to 512 for small calls (32 MB cost the bench ~10%: `bench binary --quick`)
   */
  depthCap?: number;
  /** fixpoint runs (stages, probes, nodes) one puzzle may make before it is handed to the batch path */
  nodeCap?: number;
  /** puzzles per dispatch (and readback) */
  chunk?: number;
  /** an abort (Ctrl-C): no more dispatches (a lane's search is not stopped within one); the puzzles not run are left
   * out of the outcomes */
  signal?: AbortSignal;
}

/**
 * With a deadline, the fixpoint runs a lane's search may make: about what the time allows. A lane runs its whole
 * search in one dispatch, and the deadline is looked at only between dispatches: an empty 32x32 ran its 200,000 runs
 * (~27 ns per cell each here) for 5.5 s against a 1-s --timeout. A capped search goes on in the batch path, which
 * stops at the deadline.
 */
function deadlineNodeCap(puzzles: BinaryPuzzle[], timeoutMs: number | undefined): number | undefined {
  if (timeoutMs === undefined || puzzles.length === 0) return undefined;
  const cells = Math.max(...puzzles.map((p) => p.cells.length));
  return Math.max(256, Math.min(200_000, Math.floor((timeoutMs * 1e6) / (cells * 27))));
}

/** the complete solver: small grids in lanes, the rest (and what the lanes hand back) on the batch path */
export async function solveFullLanes(ctx: GpuContext, puzzles: BinaryPuzzle[], opts: FullOptions & LaneOptions = {}): Promise<{ results: SolveResult[]; stats: FullStats & { laneDispatches: number; handedBack: number } }> {
  const started = performance.now();
  const results: SolveResult[] = new Array(puzzles.length);
  // a generation cap is the batch path's (the lanes run each fixpoint to its end)
  const inLanes = opts.maxGenerations === undefined ? puzzles.flatMap((p, i) => (isSmall(p) && p.cells.length > 0 ? [i] : [])) : [];
  const rest = new Set(puzzles.map((_, i) => i));
  let laneDispatches = 0;
  if (inLanes.length) {
    const limit = opts.solutionLimit ?? 2;
    const out = await runLanes(ctx, inLanes.map((i) => puzzles[i]), { ...opts, nodeCap: opts.nodeCap ?? deadlineNodeCap(inLanes.map((i) => puzzles[i]), opts.timeoutMs) }, () => laneDispatches++);
    out.forEach((o, k) => {
      const i = inLanes[k];
      const p = puzzles[i];
      if (o.status === 'depth' || o.status === 'capped') return;
      const solutions = o.solutions.map((cells) => cellsToString(cells));
      // every solution checked on the CPU; a rejected one sends the puzzle to the batch path
      if (solutions.some((s) => checkSolution(p, s) !== null)) return;
      const extra = { level: o.level, probes: o.probes, branches: o.branches, probeGenerations: o.probeGenerations, branchGenerations: o.branchGenerations };
      const base = { generations: o.generations, ms: o.ms, extra };
      if (o.status === 'contradiction') results[i] = { ...base, status: 'contradiction' };
      else if (o.status === 'solved' || limit < 2) results[i] = { ...base, status: 'solved', solution: solutions[0] };
      else results[i] = { ...base, status: 'multiple', solution: solutions[0], solution2: solutions[1] };
      rest.delete(i);
    });
  }
  const handedBack = [...rest];
  const stats: FullStats & { laneDispatches: number; handedBack: number } = { grids: 0, copies: 0, generations: 0, dispatches: 0, readbacks: 0, seconds: 0, laneDispatches, handedBack: 0 };
  if (handedBack.length) {
    const since = performance.now() - started;
    const timeoutMs = opts.timeoutMs === undefined ? undefined : Math.max(0, opts.timeoutMs - since);
    const full = await solveFull(ctx, handedBack.map((i) => puzzles[i]), { ...opts, timeoutMs });
    // the batch path's times count from its own start: from the call's here (an empty 32x32 said 0.55 ms after 6 s)
    full.results.forEach((r, k) => (results[handedBack[k]] = { ...r, ms: r.ms + since }));
    Object.assign(stats, full.stats);
    stats.handedBack = handedBack.filter((i) => puzzles[i].cells.length > 0 && isSmall(puzzles[i])).length;
  }
  stats.laneDispatches = laneDispatches;
  stats.seconds = (performance.now() - started) / 1000;
  opts.progress?.(puzzles.length, puzzles.length);
  return { results, stats };
}

export interface LaneOutcome {
  status: LaneStatus;
  level: number;
  probes: number;
  branches: number;
  generations: number;
  probeGenerations: number;
  branchGenerations: number;
  /** fixpoint runs: stages, probes, nodes */
  nodes: number;
  /** the solutions found (0, 1 or 2), cells 0/1 */
  solutions: Uint8Array[];
  ms: number;
}

/** the lanes' pipeline (compiled once per context; callers that time solves compile it first) */
export function lanePipeline(ctx: GpuContext): Promise<GPUComputePipeline> {
  return enginePipeline(ctx, ['binary/generation.wgsl', 'binary/lane.wgsl'], 'binary_lanes');
}

/** runs the puzzles (each at most 32x32) in lanes; outcomes in puzzle order */
export async function runLanes(ctx: GpuContext, puzzles: BinaryPuzzle[], opts: LaneOptions = {}, onDispatch = () => {}): Promise<LaneOutcome[]> {
  const out: LaneOutcome[] = new Array(puzzles.length);
  if (puzzles.length === 0) return out;
  const t0 = performance.now();
  const lanes = laneCount(opts.lanes ?? 1024, puzzles.length);
  const depthCap = opts.depthCap ?? Math.min(512, Math.floor(STACK_BYTES / (lanes * 4 * STACK_WORDS)));
  await runEngineLanes(ctx, {
    label: 'binary.lanes',
    pipeline: await lanePipeline(ctx),
    lanes,
    scratchBytes: 4 * lanes * depthCap * STACK_WORDS,
    paramsBytes: 32,
    jobs: puzzles.length,
    chunk: opts.chunk ?? Math.max(256, Math.min(4096, Math.ceil(puzzles.length / 4))),
    onDispatch,
    more: () => !opts.signal?.aborted,
    // input: one record offset per puzzle; record: width, height, Rule 3, result offset, rows [known, value]
    pack: (first, count) => {
      let recordWords = count;
      for (let i = first; i < first + count; i++) recordWords += 4 + 2 * puzzles[i].height;
      const words = new Uint32Array(recordWords);
      let resultWords = 0;
      let at = count;
      for (let k = 0; k < count; k++) {
        const p = puzzles[first + k];
        words[k] = at;
        words[at] = p.width;
        words[at + 1] = p.height;
        words[at + 2] = p.distinct ? 1 : 0;
        words[at + 3] = resultWords;
        resultWords += RESULT_HEADER + 2 * p.height;
        for (let y = 0, c = 0; y < p.height; y++) {
          let known = 0;
          let ones = 0;
          for (let x = 0; x < p.width; x++, c++) {
            const v = p.cells[c];
            if (v > 1) continue;
            known |= 1 << x;
            ones |= v << x;
          }
          words[at + 4 + 2 * y] = known >>> 0;
          words[at + 5 + 2 * y] = ones >>> 0;
        }
        at += 4 + 2 * p.height;
      }
      return { input: words, resultWords, params: Uint32Array.from([count, depthCap, opts.nodeCap ?? 200_000, RESTART_BRANCHES, OPEN_NODE_PROBES, 0, 0, 0]) };
    },
    unpack: (first, count, r) => {
      const ms = performance.now() - t0;
      const offsets = resultOffsets(puzzles, first, count);
      for (let k = 0; k < count; k++) {
        const i = first + k;
        const p = puzzles[i];
        const at = offsets[k];
        const status = LANE_STATUS[r[at]];
        if (!status) throw new Error(`binary lanes: puzzle ${i} came back without a status`);
        const found = status === 'multiple' ? 2 : status === 'solved' ? 1 : 0;
        const solutions = Array.from({ length: found }, (_, s) => {
          const cells = new Uint8Array(p.width * p.height);
          for (let y = 0, c = 0; y < p.height; y++) {
            const row = r[at + RESULT_HEADER + s * p.height + y];
            for (let x = 0; x < p.width; x++, c++) cells[c] = (row >>> x) & 1;
          }
          return cells;
        });
        out[i] = { status, level: r[at + 1], probes: r[at + 2], branches: r[at + 3], generations: r[at + 4], probeGenerations: r[at + 5], branchGenerations: r[at + 6], nodes: r[at + 7], solutions, ms };
      }
    },
  });
  return out;
}

/** where each puzzle's results start in its chunk's results buffer (as `pack` laid them out) */
function resultOffsets(puzzles: BinaryPuzzle[], first: number, count: number): number[] {
  const at: number[] = [];
  for (let k = 0, words = 0; k < count; k++) {
    at.push(words);
    words += RESULT_HEADER + 2 * puzzles[first + k].height;
  }
  return at;
}
