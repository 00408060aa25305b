// The maze rules as engine rules, and the methods built on them (issue 3):
// - deadend: dead-end filling (thesis 3.1.1 + 4.1), in place, tiles to their local fixpoint (multi-gen), or one
//   synchronous generation per dispatch (one-gen, for tests and the synchronous generation count);
// - wavefront: distance modulo 3 from the start, K exact generations per dispatch, then trace-back on the host;
// - walker: thesis 3.1.2's 8-state automaton, one generation per dispatch;
// - auto: deadend, then the wavefront on whatever loops remain.
import type { GpuContext } from '../../gpu/context.ts';
import { Batch, type GridOutcome, type Mode } from '../../engine/batch.ts';
import { WORKGROUP_SIZE } from '../../engine/constants.ts';
import type { GridInput, Rule } from '../../engine/rule.ts';
import type { Maze } from './codec.ts';
import {
  DEADEND_REGION_META,
  DEADEND_REGION_ROWS,
  deadendRegions,
  packDeadend,
  packWalker,
  packPlane,
  packWavefront,
  planeReader,
  tileCount,
  unpackDeadend,
  unpackWalker,
  unpackWavefront,
  walkerWordsPerRow,
  wordsPerRow,
} from './pack.ts';
import { initialWalkerState, OPEN, simplePath, TERMINAL, traceBack, W } from './reference.ts';

export const deadendSyncRule: Rule = {
  name: 'maze.deadendSync',
  files: ['maze/common.wgsl', 'maze/deadend_sync.wgsl'],
  entryPoints: ['deadend_step'],
  stateAccess: 'ping-pong',
  tracksCompletion: false,
};

export const deadendChainsRule: Rule = {
  name: 'maze.deadendChains',
  files: ['maze/common.wgsl', 'maze/deadend_chains.wgsl'],
  entryPoints: ['deadend_chains'],
  stateAccess: 'in-place',
  constants: { REGION_ROWS: DEADEND_REGION_ROWS },
  tracksCompletion: false,
  // a dispatch runs every region that may change until no dead end is left that it can reach: it counts as one
  // (asynchronous) generation; the synchronous count comes from the CPU twin or the one-gen rule
  multiGeneration: { entryPoint: 'deadend_chains', generationsPerDispatch: 1, exact: false },
};

/** generations per wavefront dispatch in multi-gen mode (the tile halo is this deep) */
export const WAVE_GENERATIONS = 16;
/** a wavefront region: one word (32 cells) by WAVE_REGION_ROWS rows, one invocation (shaders/maze/wavefront.wgsl) */
export const WAVE_REGION_ROWS = 32;
/** stamps per wavefront region after the planes: last change anywhere, in its top/bottom row, left/right column */
const WAVE_REGION_META = 5;
/** regions (stacked vertically) per work item */
export const WAVE_REGIONS_PER_ITEM = 8;
const waveRegions = (w: number, h: number) => wordsPerRow(w) * Math.ceil(h / WAVE_REGION_ROWS);
const waveItems = (w: number, h: number) => wordsPerRow(w) * Math.ceil(h / WAVE_REGION_ROWS / WAVE_REGIONS_PER_ITEM);

export const wavefrontRule: Rule = {
  name: 'maze.wavefront',
  files: ['maze/common.wgsl', 'maze/wavefront.wgsl'],
  entryPoints: ['wave_step'],
  stateAccess: 'ping-pong',
  constants: { REGION_ROWS: WAVE_REGION_ROWS, GENERATIONS: WAVE_GENERATIONS, REGIONS_PER_ITEM: WAVE_REGIONS_PER_ITEM },
  tracksCompletion: false,
  multiGeneration: { entryPoint: 'wave_multi', generationsPerDispatch: WAVE_GENERATIONS, exact: true },
};

export const walkerRule: Rule = {
  name: 'maze.walker',
  files: ['maze/walker.wgsl'],
  entryPoints: ['walker_step'],
  stateAccess: 'ping-pong',
  constants: { REGION_ROWS: WAVE_REGION_ROWS, REGIONS_PER_ITEM: WAVE_REGIONS_PER_ITEM },
  tracksCompletion: false,
};

export interface RunInfo {
  outcome: GridOutcome;
  /** dispatches the grid took part in */
  dispatches: number;
  /** single-cell rule applications that changed a cell (in-place dead-end filling) */
  cellUpdates?: number;
}

export interface RunResult<S> extends RunInfo {
  /** the final state words as the shader left them */
  words: Uint32Array;
  /** the final state, one code per cell (unpacked on first use: a pass over every cell) */
  readonly state: S;
}

function result<S>(words: Uint32Array, outcome: GridOutcome, unpack: (w: Uint32Array) => S, extra: Partial<RunInfo> = {}): RunResult<S> {
  let cached: S | undefined;
  return {
    words,
    outcome,
    dispatches: outcome.dispatches,
    ...extra,
    get state() {
      return (cached ??= unpack(words));
    },
  };
}

export interface RunOpts {
  mode?: Mode;
  maxGenerations?: number;
  timeoutMs?: number;
  readbackEvery?: number;
}

/**
 * Runs grids through a rule in as many batches as the device's limits need (CLI.md: a batch larger than the
 * device's limits is split, not refused), returning each grid's final state words and outcome.
 */
/** seconds spent in Batch.run (GPU work and readbacks, no packing) by the last runGrids call */
export const lastRun = { seconds: 0, readbacks: 0 };

async function runGrids(ctx: GpuContext, rule: Rule, inputs: GridInput[], opts: RunOpts): Promise<{ words: Uint32Array; outcome: GridOutcome }[]> {
  const out: { words: Uint32Array; outcome: GridOutcome }[] = new Array(inputs.length);
  lastRun.seconds = 0;
  lastRun.readbacks = 0;
  let next = 0;
  while (next < inputs.length) {
    const batch = await Batch.create(ctx, rule);
    try {
      const ids = new Map<number, number>();
      while (next < inputs.length && batch.canAdd(inputs[next])) ids.set(batch.add(inputs[next]), next++);
      if (ids.size === 0) batch.add(inputs[next]); // throws the clear "too large for this device" error
      // the rule counter (report_count) restarts every chunk: sum it per grid
      const counts = new Map<number, number>();
      const outcomes = await batch.run({
        mode: opts.mode,
        maxGenerations: opts.maxGenerations,
        timeoutMs: opts.timeoutMs,
        readbackEvery: opts.readbackEvery,
        onChunk: (finished, b) => {
          for (const [id, c] of b.lastCounters) counts.set(id, (counts.get(id) ?? 0) + c);
          b.lastCounters.clear();
          for (const o of finished) counts.set(o.id, (counts.get(o.id) ?? 0) + o.counter);
        },
      });
      lastRun.seconds += batch.stats.seconds;
      lastRun.readbacks += batch.stats.readbacks;
      const order = outcomes.map((o) => o.id);
      const states = await batch.readStates(order);
      outcomes.forEach((o, i) => (out[ids.get(o.id)!] = { words: states[i].slice(), outcome: { ...o, counter: counts.get(o.id) ?? 0 } }));
    } finally {
      batch.destroy();
    }
  }
  return out;
}

// ---- dead-end filling ----

export function deadendInput(maze: Maze, open: Uint8Array, mode: Mode, maxGenerations?: number): GridInput {
  const { width: w, height: h } = maze;
  if (mode === 'one-gen') {
    return { width: w, height: h, items: wordsPerRow(w) * h, state: packDeadend(maze, open), maxGenerations };
  }
  const n = deadendRegions(w, h);
  return {
    width: w,
    height: h,
    items: n,
    state: packDeadend(maze, open, n * DEADEND_REGION_META),
    params: [maze.start, maze.end],
    maxGenerations,
  };
}

/** Dead-end filling on the GPU: the final 2-bit states (reference.ts WALL/OPEN/FAKE/TERMINAL) of every maze. */
export async function runDeadend(ctx: GpuContext, mazes: Maze[], opts: RunOpts & { open?: Uint8Array[] } = {}): Promise<RunResult<Uint8Array>[]> {
  const mode = opts.mode ?? 'multi-gen';
  const rule = mode === 'one-gen' ? deadendSyncRule : deadendChainsRule;
  const inputs = mazes.map((m, i) => deadendInput(m, opts.open?.[i] ?? m.open, mode, opts.maxGenerations));
  const runs = await runGrids(ctx, rule, inputs, { ...opts, mode });
  return runs.map((r, i) => {
    const m = mazes[i];
    const extra: Partial<RunInfo> = {};
    if (mode !== 'one-gen') {
      const meta = 2 * wordsPerRow(m.width) * m.height;
      let fills = 0;
      for (let k = meta; k < r.words.length; k += DEADEND_REGION_META) fills += r.words[k + 1];
      extra.cellUpdates = fills;
    }
    return result(r.words, r.outcome, (w) => unpackDeadend(w, m.width, m.height), extra);
  });
}

/** the path left by dead-end filling, when what is left is one simple path (no loops); reads the packed state */
export function deadendPath(maze: Maze, words: Uint32Array): number[] | null {
  const open = planeReader(words, maze.width);
  return simplePath(maze, (i) => open(i) === 1);
}

// ---- wavefront ----

/** `open`: one byte per cell, or an already packed open plane (e.g. plane A of a dead-end state) */
export function wavefrontInput(maze: Maze, open: Uint8Array | Uint32Array, mode: Mode, maxGenerations?: number): GridInput {
  const { width: w, height: h } = maze;
  const n = waveRegions(w, h);
  const plane = wordsPerRow(w) * h;
  const aux = open instanceof Uint32Array ? open.subarray(0, plane) : packPlane(open, w, h);
  void mode;
  return {
    width: w,
    height: h,
    items: waveItems(w, h),
    state: packWavefront(maze, n * WAVE_REGION_META),
    aux,
    params: [maze.start, maze.end],
    maxGenerations,
  };
}

export async function runWavefront(ctx: GpuContext, mazes: Maze[], opts: RunOpts & { open?: (Uint8Array | Uint32Array)[] } = {}): Promise<RunResult<Uint8Array>[]> {
  const mode = opts.mode ?? 'multi-gen';
  const inputs = mazes.map((m, i) => wavefrontInput(m, opts.open?.[i] ?? m.open, mode, opts.maxGenerations));
  const runs = await runGrids(ctx, wavefrontRule, inputs, { ...opts, mode });
  return runs.map((r, i) => result(r.words, r.outcome, (w) => unpackWavefront(w, mazes[i].width, mazes[i].height)));
}

export { traceBack };

// ---- walker ----

export function walkerInput(maze: Maze, maxGenerations?: number): GridInput {
  const { width: w, height: h } = maze;
  // regions of one word (8 cells) by WAVE_REGION_ROWS rows with 5 stamps each, 8 regions per work item
  const wpr = walkerWordsPerRow(w);
  const regionRows = Math.ceil(h / WAVE_REGION_ROWS);
  return {
    width: w,
    height: h,
    items: wpr * Math.ceil(regionRows / WAVE_REGIONS_PER_ITEM),
    state: packWalker(initialWalkerState(maze), w, h, wpr * regionRows * WAVE_REGION_META),
    maxGenerations,
  };
}

export async function runWalker(ctx: GpuContext, mazes: Maze[], opts: RunOpts = {}): Promise<RunResult<Uint8Array>[]> {
  const inputs = mazes.map((m) => walkerInput(m, opts.maxGenerations));
  const runs = await runGrids(ctx, walkerRule, inputs, { ...opts, mode: 'one-gen' });
  return runs.map((r, i) => result(r.words, r.outcome, (w) => unpackWalker(w, mazes[i].width, mazes[i].height)));
}

export function walkerPath(maze: Maze, state: Uint8Array): number[] | null {
  const on = (v: number) => v === W.START || v === W.WALKED || v === W.WALKED_CROSS || v === W.EXIT;
  return simplePath(maze, (i) => on(state[i]));
}
