// The maze rules as engine rules, and the methods built on them (issue 3):
// - deadend: dead-end filling (thesis 3.1.1 + 4.1), in place by chain following (multi-gen: a dispatch runs the
//   rule to its fixpoint, small mazes share atlas grids), or one synchronous generation per dispatch (one-gen,
//   for tests and the synchronous generation count);
// - wavefront: distance modulo 3 from the start, one or K exact generations per dispatch, trace-back on the host;
// - walker: thesis 3.1.2's 8-state automaton, one generation per dispatch;
// - auto: deadend, then the wavefront on whatever loops remain.
import type { GpuContext } from '../../gpu/context.ts';
import { Batch, type GridOutcome, type Mode } from '../../engine/batch.ts';
import { popcount } from '../../engine/bits.ts';
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
  unpackDeadend,
  unpackWalker,
  unpackWavefront,
  walkerWordsPerRow,
  wordsPerRow,
} from './pack.ts';
import { initialWalkerState, simplePath, traceBack, W } from './reference.ts';

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

/** small mazes (at most 31 wide, SMALL_MAX_ROWS tall): one invocation each, rows swept in private memory */
export const deadendSmallRule: Rule = {
  name: 'maze.deadendSmall',
  files: ['maze/common.wgsl', 'maze/deadend_small.wgsl'],
  entryPoints: ['deadend_small'],
  stateAccess: 'in-place',
  tracksCompletion: false,
  multiGeneration: { entryPoint: 'deadend_small', generationsPerDispatch: 1, exact: false },
};
/** shaders/maze/deadend_small.wgsl: SMALL_MAX_ROWS */
const SMALL_MAX_ROWS = 64;
const isSmall = (m: Maze) => m.width <= 31 && m.height <= SMALL_MAX_ROWS;

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
  /** mazes that shared this maze's grid (an atlas of small mazes), when more than one */
  atlasMazes?: number;
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
  /** an abort (Ctrl-C): the grids still running end as at the deadline */
  signal?: AbortSignal;
  readbackEvery?: number;
}

/**
 * Runs grids through a rule in as many batches as the device's limits need (CLI.md: a batch larger than the
 * device's limits is split, not refused), returning each grid's final state words and outcome.
 */
/** seconds spent in Batch.run (GPU work and readbacks, no packing) by the last runDeadend/runWavefront/runWalker */
export const lastRun = { seconds: 0, readbacks: 0 };
const resetLastRun = () => Object.assign(lastRun, { seconds: 0, readbacks: 0 });

async function runGrids(ctx: GpuContext, rule: Rule, inputs: GridInput[], opts: RunOpts): Promise<{ words: Uint32Array; outcome: GridOutcome }[]> {
  const out: { words: Uint32Array; outcome: GridOutcome }[] = new Array(inputs.length);
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
        signal: opts.signal,
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
    maxGenerations,
  };
}

/** mazes of at most this many cells share grids (atlases) in the in-place dead-end filling */
export const ATLAS_MAX_MAZE_CELLS = 1 << 16;
const ATLAS_WIDTH = 4096;
const ATLAS_MAX_CELLS = 1 << 24;

interface AtlasSlot {
  maze: number;
  /** cell column (a multiple of 32) and row of the maze's top-left cell */
  x: number;
  y: number;
}

/**
 * Shelf-packs small mazes into atlases: each maze starts on a word boundary and is followed by at least one wall
 * column and one wall row, so no path joins two mazes and dead-end filling of the atlas is dead-end filling of
 * each maze. Why: the engine gives every grid its own workgroups, and on SwiftShader launching a workgroup per
 * 31x31 maze per dispatch costs far more than filling it.
 */
function planAtlases(mazes: Maze[], which: number[]): { width: number; height: number; slots: AtlasSlot[] }[] {
  const order = which.slice().sort((a, b) => mazes[b].height - mazes[a].height || a - b);
  const atlases: { width: number; height: number; slots: AtlasSlot[] }[] = [];
  let cur = { width: 0, height: 0, slots: [] as AtlasSlot[] };
  let shelfY = 0;
  let shelfH = 0;
  let x = 0;
  for (const i of order) {
    const m = mazes[i];
    const w = 32 * Math.ceil((m.width + 1) / 32);
    const h = m.height + 1;
    if (x + w > ATLAS_WIDTH && x > 0) {
      shelfY += shelfH;
      shelfH = 0;
      x = 0;
    }
    if ((shelfY + h) * ATLAS_WIDTH > ATLAS_MAX_CELLS && cur.slots.length) {
      atlases.push(cur);
      cur = { width: 0, height: 0, slots: [] };
      shelfY = 0;
      shelfH = 0;
      x = 0;
    }
    cur.slots.push({ maze: i, x, y: shelfY });
    x += w;
    shelfH = Math.max(shelfH, h);
    cur.width = Math.max(cur.width, x);
    cur.height = shelfY + shelfH;
  }
  if (cur.slots.length) atlases.push(cur);
  return atlases;
}

function atlasInput(atlas: { width: number; height: number; slots: AtlasSlot[] }, mazes: Maze[], opens: Uint8Array[], maxGenerations?: number, small = false): GridInput {
  const awpr = wordsPerRow(atlas.width);
  const plane = awpr * atlas.height;
  const n = small ? 0 : deadendRegions(atlas.width, atlas.height);
  const words = new Uint32Array(2 * plane + n * DEADEND_REGION_META);
  for (const slot of atlas.slots) {
    const m = mazes[slot.maze];
    const own = packDeadend(m, opens[slot.maze]);
    const wpr = wordsPerRow(m.width);
    const mplane = wpr * m.height;
    for (let y = 0; y < m.height; y++) {
      const at = (slot.y + y) * awpr + slot.x / 32;
      for (let k = 0; k < wpr; k++) {
        words[at + k] = own[y * wpr + k];
        words[plane + at + k] = own[mplane + y * wpr + k];
      }
    }
  }
  if (!small) return { width: atlas.width, height: atlas.height, items: n, state: words, maxGenerations };
  // one work item per maze: [word column, first row, rows]
  const aux = new Uint32Array(3 * atlas.slots.length);
  atlas.slots.forEach((slot, k) => aux.set([slot.x / 32, slot.y, mazes[slot.maze].height], 3 * k));
  return { width: atlas.width, height: atlas.height, items: atlas.slots.length, state: words, aux, maxGenerations };
}

/** a maze's own two planes, cut out of its atlas */
function fromAtlas(words: Uint32Array, atlas: { width: number; height: number }, slot: AtlasSlot, m: Maze): Uint32Array {
  const awpr = wordsPerRow(atlas.width);
  const plane = awpr * atlas.height;
  const wpr = wordsPerRow(m.width);
  const mplane = wpr * m.height;
  const out = new Uint32Array(2 * mplane);
  for (let y = 0; y < m.height; y++) {
    const at = (slot.y + y) * awpr + slot.x / 32;
    for (let k = 0; k < wpr; k++) {
      out[y * wpr + k] = words[at + k];
      out[mplane + y * wpr + k] = words[plane + at + k];
    }
  }
  return out;
}

/**
 * Dead-end filling on the GPU. Each result holds the maze's two planes (words; `state` unpacks them to
 * reference.ts WALL/OPEN/FAKE/TERMINAL). In multi-gen mode small mazes share atlases (planAtlases).
 */
export async function runDeadend(ctx: GpuContext, mazes: Maze[], opts: RunOpts & { open?: Uint8Array[] } = {}): Promise<RunResult<Uint8Array>[]> {
  resetLastRun();
  const mode = opts.mode ?? 'multi-gen';
  const rule = mode === 'one-gen' ? deadendSyncRule : deadendChainsRule;
  const opens = mazes.map((m, i) => opts.open?.[i] ?? m.open);
  const all = mazes.map((_, i) => i);
  const tiny = mode === 'one-gen' ? [] : all.filter((i) => isSmall(mazes[i]));
  const small = mode === 'one-gen' ? [] : all.filter((i) => !isSmall(mazes[i]) && mazes[i].width * mazes[i].height <= ATLAS_MAX_MAZE_CELLS);
  const inAtlas = new Set([...tiny, ...small]);
  const big = all.filter((i) => !inAtlas.has(i));
  const tinyAtlases = planAtlases(mazes, tiny);
  const atlases = planAtlases(mazes, small);
  const inputs = [
    ...atlases.map((a) => atlasInput(a, mazes, opens, opts.maxGenerations)),
    ...big.map((i) => deadendInput(mazes[i], opens[i], mode, opts.maxGenerations)),
  ];
  // In place, the first dispatch almost always reaches the fixpoint and the second confirms it: read back after
  // every two.
  const readbackEvery = opts.readbackEvery ?? (mode === 'one-gen' ? undefined : 2);
  const runs = inputs.length ? await runGrids(ctx, rule, inputs, { ...opts, mode, readbackEvery }) : [];
  const tinyRuns = tinyAtlases.length
    ? await runGrids(ctx, deadendSmallRule, tinyAtlases.map((a) => atlasInput(a, mazes, opens, opts.maxGenerations, true)), { ...opts, mode, readbackEvery })
    : [];
  const out: RunResult<Uint8Array>[] = new Array(mazes.length);
  const unpack = (m: Maze) => (w: Uint32Array) => unpackDeadend(w, m.width, m.height);
  const cut = (a: (typeof atlases)[number], r: { words: Uint32Array; outcome: GridOutcome }) => {
    for (const slot of a.slots) {
      const m = mazes[slot.maze];
      const words = fromAtlas(r.words, a, slot, m);
      // fills = fake cells = plane B less the terminals
      let fake = 0;
      for (let j = words.length / 2; j < words.length; j++) fake += popcount(words[j]);
      out[slot.maze] = result(words, r.outcome, unpack(m), { cellUpdates: fake - (m.start === m.end ? 1 : 2), atlasMazes: a.slots.length });
    }
  };
  atlases.forEach((a, k) => cut(a, runs[k]));
  tinyAtlases.forEach((a, k) => cut(a, tinyRuns[k]));
  big.forEach((i, k) => {
    const r = runs[atlases.length + k];
    const m = mazes[i];
    const extra: Partial<RunInfo> = {};
    if (mode !== 'one-gen') {
      const meta = 2 * wordsPerRow(m.width) * m.height;
      let fills = 0;
      for (let j = meta; j < r.words.length; j += DEADEND_REGION_META) fills += r.words[j + 1];
      extra.cellUpdates = fills;
    }
    out[i] = result(r.words, r.outcome, unpack(m), extra);
  });
  return out;
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

/**
 * `caps`: a generation cap per maze, in place of `maxGenerations` (what a method's earlier stage left of the
 * puzzle's --max-generations)
 */
export async function runWavefront(
  ctx: GpuContext,
  mazes: Maze[],
  opts: RunOpts & { open?: (Uint8Array | Uint32Array)[]; caps?: (number | undefined)[] } = {},
): Promise<RunResult<Uint8Array>[]> {
  resetLastRun();
  const mode = opts.mode ?? 'multi-gen';
  const inputs = mazes.map((m, i) => wavefrontInput(m, opts.open?.[i] ?? m.open, mode, opts.caps?.[i] ?? opts.maxGenerations));
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
  resetLastRun();
  const inputs = mazes.map((m) => walkerInput(m, opts.maxGenerations));
  const runs = await runGrids(ctx, walkerRule, inputs, { ...opts, mode: 'one-gen' });
  return runs.map((r, i) => result(r.words, r.outcome, (w) => unpackWalker(w, mazes[i].width, mazes[i].height)));
}

export function walkerPath(maze: Maze, state: Uint8Array): number[] | null {
  const on = (v: number) => v === W.START || v === W.WALKED || v === W.WALKED_CROSS || v === W.EXIT;
  return simplePath(maze, (i) => on(state[i]));
}
