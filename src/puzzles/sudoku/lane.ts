// The complete solver with one puzzle per GPU invocation (shaders/sudoku/lane.wgsl): the automaton to its fixpoint
// in private memory, copies on a per-invocation stack, to two solutions; one dispatch and one readback per chunk
// of puzzles. Puzzles it cannot finish (its stack or node cap) are returned as such for the caller to hand to the
// in-place rounds solver (solver.ts).
import { LANE_STATUS, laneCount, lanePipeline, runLanes, type LaneStatus } from '../../engine/lanes.ts';
import type { GpuContext } from '../../gpu/context.ts';
import { shapeParam } from './pack.ts';
import { initialMasks, masksToValues, RULES_ALL, topology, type SudokuPuzzle } from './reference.ts';

/** words before a puzzle's two solutions in the result buffer (lane.wgsl RESULT_HEADER) */
const RESULT_HEADER = 8;
/** the shader's private grid (lane.wgsl MAX_CELLS): larger grids go to the rounds solver */
export const LANE_MAX_CELLS = 625;

export interface LaneOutcome {
  status: LaneStatus;
  /** grids that ran: the puzzle and its copies */
  nodes: number;
  splits: number;
  depth: number;
  /** automaton sweeps of the puzzle itself before its first split, and of all its grids */
  rootSweeps: number;
  sweeps: number;
  /** the solutions found (0, 1 or 2), as values 1..n */
  solutions: Uint8Array[];
  /** from the start of the call to the readback that brought it */
  ms: number;
}

export interface LaneOptions {
  /** false: standard 9x9 grids too on the cell-by-cell kernel (for comparisons and tests) */
  planes?: boolean;
  rules?: number;
  /** invocations (each holds a stack of copies); SwiftShader runs 4 lanes per core at a time */
  lanes?: number;
  /** grids one puzzle may run before it is handed back as `capped` */
  nodeCap?: number;
  /** puzzles per dispatch (and readback) */
  chunk?: number;
  /** bytes of copy stacks at most */
  scratchBytes?: number;
  /** checked between chunks: puzzles not started by then are left out (undefined) */
  deadline?: number;
  /** an abort (Ctrl-C): no more chunks, as past the deadline */
  signal?: AbortSignal;
  /** after each readback: puzzles it finished */
  onChunk?: (count: number) => void;
}

export interface LaneStats {
  dispatches: number;
  readbacks: number;
}

/** Solves the puzzles (each at most LANE_MAX_CELLS cells); outcomes in puzzle order, undefined past a deadline. */
export async function solveLanes(
  ctx: GpuContext,
  puzzles: SudokuPuzzle[],
  opts: LaneOptions = {},
  stats: LaneStats = { dispatches: 0, readbacks: 0 },
): Promise<(LaneOutcome | undefined)[]> {
  const out: (LaneOutcome | undefined)[] = new Array(puzzles.length);
  const t0 = performance.now();
  // standard 9x9 grids on digit planes (lane9.wgsl), every other shape cell by cell (lane.wgsl)
  for (const kernel of [PLANES9, CELLS]) {
    const indices = puzzles.flatMap((p, i) => (kernel.takes(p, opts) ? [i] : []));
    const got = await solveGroup(ctx, kernel, indices.map((i) => puzzles[i]), opts, stats, t0);
    indices.forEach((i, k) => (out[i] = got[k]));
  }
  return out;
}

/** Compiles the kernels these puzzles need (so that a deadline counts solving, not compiling: CLI.md `ms`). */
export async function compileLanes(ctx: GpuContext, puzzles: SudokuPuzzle[], opts: LaneOptions = {}): Promise<void> {
  for (const kernel of [PLANES9, CELLS]) {
    if (puzzles.some((p) => kernel.takes(p, opts))) await kernelPipeline(ctx, kernel);
  }
}

function kernelPipeline(ctx: GpuContext, kernel: Kernel): Promise<GPUComputePipeline> {
  return lanePipeline(ctx, kernel.files, kernel.entryPoint);
}

/** How a kernel holds a grid: its words in the input (from the givens) and in a solution (to values). */
interface Kernel {
  files: string[];
  entryPoint: string;
  takes(p: SudokuPuzzle, opts: LaneOptions): boolean;
  gridWords(p: SudokuPuzzle): number;
  pack(p: SudokuPuzzle, words: number[]): void;
  values(words: Uint32Array, at: number, p: SudokuPuzzle): Uint8Array;
}

function isStandard9(p: SudokuPuzzle): boolean {
  return p.n === 9 && p.boxW === 3 && p.boxH === 3 && !p.regions && !p.diagonal;
}

const CELLS: Kernel = {
  files: ['sudoku/lane.wgsl'],
  entryPoint: 'sudoku_lanes',
  takes: (p, opts) => !(isStandard9(p) && opts.planes !== false),
  gridWords: (p) => p.n * p.n,
  pack: (p, words) => {
    for (const m of initialMasks(p)) words.push(m);
  },
  values: (words, at, p) => masksToValues(words.subarray(at, at + p.n * p.n)),
};

/** Digit planes: word 3d + band holds digit d's places in that band of three rows, bit 9 * row + column. */
export const PLANES9: Kernel = {
  files: ['sudoku/lane9.wgsl'],
  entryPoint: 'sudoku_lanes9',
  takes: (p, opts) => isStandard9(p) && opts.planes !== false,
  gridWords: () => 27,
  pack: (p, words) => {
    // every digit everywhere, then each given takes its cell from the other digits
    const planes = new Array(27).fill(0x7ffffff);
    for (let x = 0; x < 81; x++) {
      const v = p.givens[x];
      if (!v) continue;
      const band = (x / 27) | 0;
      const bit = 1 << x % 27;
      for (let d = 0; d < 9; d++) if (d !== v - 1) planes[3 * d + band] &= ~bit;
    }
    for (const w of planes) words.push(w >>> 0);
  },
  values: (words, at) => {
    // a solved grid: every cell in exactly one plane
    const values = new Uint8Array(81);
    for (let d = 0; d < 9; d++) {
      for (let band = 0; band < 3; band++) {
        for (let w = words[at + 3 * d + band]; w; w &= w - 1) values[band * 27 + 31 - Math.clz32(w & -w)] = d + 1;
      }
    }
    return values;
  },
};

async function solveGroup(ctx: GpuContext, kernel: Kernel, puzzles: SudokuPuzzle[], opts: LaneOptions, stats: LaneStats, t0: number): Promise<(LaneOutcome | undefined)[]> {
  const out: (LaneOutcome | undefined)[] = new Array(puzzles.length);
  if (puzzles.length === 0) return out;
  const chunk = opts.chunk ?? Math.max(256, Math.min(4096, Math.ceil(puzzles.length / 4)));
  const stride = Math.max(...puzzles.map((p) => kernel.gridWords(p)));
  const lanesWanted = opts.lanes ?? 64;
  const scratchBytes = opts.scratchBytes ?? Math.min(64 << 20, ctx.limits.maxStorageBufferBindingSize);
  // a path of copies fixes one more cell per level, so `cells` levels always suffice
  const maxCells = Math.max(...puzzles.map((p) => p.n * p.n));
  const depthCap = Math.max(1, Math.min(maxCells, Math.floor(scratchBytes / (4 * stride * lanesWanted))));
  const lanes = laneCount(lanesWanted, puzzles.length);
  const resultAt = new Map<number, number[]>();
  await runLanes(ctx, {
    label: 'sudoku.lanes',
    pipeline: await kernelPipeline(ctx, kernel),
    lanes,
    scratchBytes: 4 * lanes * depthCap * stride,
    paramsBytes: 32,
    jobs: puzzles.length,
    chunk,
    more: () => !opts.signal?.aborted && (opts.deadline === undefined || performance.now() <= opts.deadline),
    onDispatch: () => stats.dispatches++,
    onReadback: () => stats.readbacks++,
    // input: one header offset per puzzle, then per puzzle [shape, grid, regions, result] and its data
    pack: (first, count) => {
      const words: number[] = new Array(count).fill(0);
      let resultWords = 0;
      const at: number[] = [];
      const regionsAt = new Map<string, number>();
      for (let k = 0; k < count; k++) {
        const p = puzzles[first + k];
        words[k] = words.length;
        const header = words.length;
        words.push(shapeParam(p), 0, 0, resultWords);
        at.push(resultWords);
        resultWords += RESULT_HEADER + 2 * kernel.gridWords(p);
        if (p.regions) {
          const t = topology(p);
          const key = Array.from(p.regions).join(',');
          let regions = regionsAt.get(key);
          if (regions === undefined) {
            regions = words.length;
            regionsAt.set(key, regions);
            for (let R = 0; R < p.n; R++) for (const c of t.units[2 * p.n + R]) words.push(c);
          }
          words[header + 2] = regions;
        }
        words[header + 1] = words.length;
        kernel.pack(p, words);
      }
      resultAt.set(first, at);
      const params = Uint32Array.from([count, depthCap, opts.nodeCap ?? 1_000_000, opts.rules ?? RULES_ALL, stride, 0, 0, 0]);
      return { input: Uint32Array.from(words), params, resultWords };
    },
    unpack: (first, count, r) => {
      const ms = performance.now() - t0;
      const at = resultAt.get(first)!;
      resultAt.delete(first);
      for (let k = 0; k < count; k++) {
        const p = puzzles[first + k];
        const words = kernel.gridWords(p);
        const status = LANE_STATUS[r[at[k]]];
        if (!status) throw new Error(`sudoku lanes: puzzle ${first + k} came back without a status`);
        const found = status === 'multiple' ? 2 : status === 'solved' ? 1 : 0;
        out[first + k] = {
          status,
          nodes: r[at[k] + 1],
          splits: r[at[k] + 2],
          depth: r[at[k] + 3],
          rootSweeps: r[at[k] + 4],
          sweeps: r[at[k] + 5],
          solutions: Array.from({ length: found }, (_, s) => kernel.values(r, at[k] + RESULT_HEADER + s * words, p)),
          ms,
        };
      }
      opts.onChunk?.(count);
    },
  });
  return out;
}
