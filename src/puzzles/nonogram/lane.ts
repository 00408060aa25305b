// The complete nonogram solver with one puzzle per GPU invocation (shaders/nonogram/lane.wgsl): line logic, probing
// and depth-first search in the invocation's private memory, waiting branches on its stack; one dispatch and one
// readback per chunk of puzzles. The twin of solveCpu (reference.ts), step for step. Puzzles it cannot finish (its
// stack or probe cap) come back as such for the caller to hand to the rounds solver (solver.ts).
import { LANE_STATUS, laneCount, lanePipeline, runLanes, type LaneStatus } from '../../engine/lanes.ts';
import type { GpuContext } from '../../gpu/context.ts';
import type { Nonogram } from './codec.ts';
import { gpuLimitError, packClues } from './pack.ts';
import { EMPTY, FILLED, initialCells, type Level } from './reference.ts';

/** lane.wgsl keeps a line in one word: lines up to 31 cells */
export const LANE_MAX_LINE = 31;
/** words per job in the results (lane.wgsl RESULT_WORDS): a header, then two solutions of 32 rows */
const RESULT_WORDS = 72;
const RESULT_HEADER = 8;
/** words per waiting copy (lane.wgsl COPY_WORDS) */
const STATE_WORDS = 128;
const LEVELS: Level[] = ['line', 'probe', 'search'];

export interface LaneOutcome {
  status: LaneStatus;
  /** row-major 0/1, as many as were found (0, 1 or 2) */
  solutions: string[];
  probes: number;
  branches: number;
  settles: number;
  /** generations of line logic on the puzzle itself */
  generations: number;
  level: Level;
  nodes: number;
  depth: number;
  /** from the start of the call to the readback that brought it */
  ms: number;
}

export interface LaneOptions {
  /** 1: stop at the first solution; 2 (default): prove uniqueness or find a second */
  maxSolutions?: number;
  /** invocations (each holds a stack of copies); SwiftShader runs 4 lanes per core at a time */
  lanes?: number;
  /** probes one puzzle may run before it comes back `capped` */
  probeCap?: number;
  /** puzzles per dispatch (and readback) */
  chunk?: number;
  /** checked between chunks: puzzles not started by then are left out (undefined) */
  deadline?: number;
  onChunk?: (count: number) => void;
  kernelFile?: string;
}

export interface LaneStats {
  dispatches: number;
  readbacks: number;
}

/** Can the lanes kernel take this puzzle? */
export function laneTakes(p: Nonogram): boolean {
  return Math.max(p.width, p.height) <= LANE_MAX_LINE && !gpuLimitError(p);
}

export function nonogramLanePipeline(ctx: GpuContext, file = 'nonogram/lane.wgsl'): Promise<GPUComputePipeline> {
  return lanePipeline(ctx, ['nonogram/settle.wgsl', file], 'nono_lanes');
}

/** Solves the puzzles (each must pass laneTakes); outcomes in puzzle order, undefined past a deadline. */
export async function solveNonogramLanes(
  ctx: GpuContext,
  puzzles: Nonogram[],
  opts: LaneOptions = {},
  stats: LaneStats = { dispatches: 0, readbacks: 0 },
): Promise<(LaneOutcome | undefined)[]> {
  const out: (LaneOutcome | undefined)[] = new Array(puzzles.length);
  if (puzzles.length === 0) return out;
  const t0 = performance.now();
  for (const p of puzzles) if (!laneTakes(p)) throw new Error(`nonogram lanes: a ${p.width}x${p.height} puzzle is past the kernel's limits`);
  // a puzzle's search ends within its hardest chunk-mate; smaller chunks check the deadline more often
  const chunk = opts.chunk ?? Math.max(64, Math.min(1024, Math.ceil(puzzles.length / 4)));
  const lanesWanted = opts.lanes ?? 64;
  const lanes = laneCount(lanesWanted, puzzles.length);
  // every branch fixes at least one cell, so a stack of `cells` copies always suffices
  const maxCells = Math.max(...puzzles.map((p) => p.width * p.height));
  const scratchLimit = Math.min(64 << 20, ctx.limits.maxStorageBufferBindingSize);
  const depthCap = Math.max(1, Math.min(maxCells, Math.floor(scratchLimit / (4 * STATE_WORDS * lanes))));
  // the results hold two solutions
  const maxSolutions = Math.min(2, Math.max(1, opts.maxSolutions ?? 2));
  await runLanes(ctx, {
    label: 'nonogram.lanes',
    // chunks take seconds: sleep through most of one rather than in Dawn's busy wait
    napBeforeReadback: 0.8,
    pipeline: await nonogramLanePipeline(ctx, opts.kernelFile),
    lanes,
    scratchBytes: 4 * lanes * depthCap * STATE_WORDS,
    paramsBytes: 16,
    jobs: puzzles.length,
    chunk,
    more: () => opts.deadline === undefined || performance.now() <= opts.deadline,
    onDispatch: () => stats.dispatches++,
    onReadback: () => stats.readbacks++,
    pack: (first, count) => {
      const words: number[] = new Array(count).fill(0);
      for (let k = 0; k < count; k++) {
        const p = puzzles[first + k];
        words[k] = words.length;
        const rec = words.length;
        words.push(p.width | (p.height << 8), 0);
        const { filled, empty } = rowBits(p);
        words.push(...filled, ...empty);
        words[rec + 1] = words.length;
        words.push(...packClues(p));
      }
      const params = Uint32Array.from([count, depthCap, opts.probeCap ?? 0xffffffff, maxSolutions]);
      return { input: Uint32Array.from(words), params, resultWords: count * RESULT_WORDS };
    },
    unpack: (first, count, r) => {
      const ms = performance.now() - t0;
      for (let k = 0; k < count; k++) {
        const p = puzzles[first + k];
        const at = k * RESULT_WORDS;
        const status = LANE_STATUS[r[at]];
        if (!status) throw new Error(`nonogram lanes: puzzle ${first + k} came back without a status`);
        const found = status === 'multiple' ? 2 : status === 'solved' ? 1 : 0;
        out[first + k] = {
          status,
          solutions: Array.from({ length: found }, (_, s) => solutionOfRows(r, at + RESULT_HEADER + 32 * s, p.width, p.height)),
          probes: r[at + 1],
          branches: r[at + 2],
          settles: r[at + 3],
          generations: r[at + 4],
          level: LEVELS[r[at + 5]],
          nodes: r[at + 6],
          depth: r[at + 7],
          ms,
        };
      }
      opts.onChunk?.(count);
    },
  });
  return out;
}

/** The starting cells as rows' filled and empty bits. */
function rowBits(p: Nonogram): { filled: number[]; empty: number[] } {
  const cells = initialCells(p);
  const filled = new Array(p.height).fill(0);
  const empty = new Array(p.height).fill(0);
  for (let i = 0; i < cells.length; i++) {
    const r = Math.floor(i / p.width);
    const bit = 1 << (i - r * p.width);
    if (cells[i] === FILLED) filled[r] |= bit;
    else if (cells[i] === EMPTY) empty[r] |= bit;
  }
  return { filled, empty };
}

function solutionOfRows(words: Uint32Array, at: number, width: number, height: number): string {
  let s = '';
  for (let r = 0; r < height; r++) for (let c = 0; c < width; c++) s += (words[at + r] >>> c) & 1 ? '1' : '0';
  return s;
}
