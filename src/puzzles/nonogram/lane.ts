// The complete nonogram solver with one puzzle per GPU invocation (shaders/nonogram/lane.wgsl): line logic, probing
// and depth-first search in the invocation's private memory, waiting branches in the job's slot of scratch; rounds
// of one dispatch and one readback each. The twin of solveCpu (reference.ts), step for step. Puzzles it cannot
// finish (its stack or probe cap) come back as such for the caller to hand to the rounds solver (solver.ts).
import { LANE_STATUS, laneCount, lanePipeline, runLanes, type LaneStatus } from '../../engine/lanes.ts';
import type { GpuContext } from '../../gpu/context.ts';
import type { Nonogram } from './codec.ts';
import { gpuLimitError, packClues } from './pack.ts';
import { EMPTY, FILLED, initialCells, type Level } from './reference.ts';
import { CDCL_ARENA_WORDS } from './cdcl.ts';

/** lane.wgsl keeps a line in one word: lines up to 31 cells */
export const LANE_MAX_LINE = 31;
/** words per job in the results (lane.wgsl and cdcl.wgsl RESULT_WORDS): a header, then two solutions of 32 rows */
const RESULT_WORDS = 72;
const RESULT_HEADER = 8;
/** words per waiting copy (cells and probe set), and where a slot's stack starts (lane.wgsl ENTRY_WORDS, SLOT_STACK) */
const ENTRY_WORDS = 160;
const SLOT_STACK = 240;
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
  /** jobs in flight (each has a slot of scratch: its stack and, between rounds, its suspended search) */
  slots?: number;
  /** probes a job may run per round before it waits for the next one */
  budget?: number;
  /** checked between rounds: puzzles not finished by then are left out (undefined) */
  deadline?: number;
  /** after each round: puzzles it finished */
  onChunk?: (count: number) => void;
}

export interface LaneStats {
  dispatches: number;
  readbacks: number;
}

/** Can the lanes kernel take this puzzle? */
export function laneTakes(p: Nonogram): boolean {
  return Math.max(p.width, p.height) <= LANE_MAX_LINE && !gpuLimitError(p);
}

export function nonogramLanePipeline(ctx: GpuContext): Promise<GPUComputePipeline> {
  return lanePipeline(ctx, ['nonogram/settle.wgsl', 'nonogram/lane.wgsl'], 'nono_lanes');
}

/**
 * Solves the puzzles (each must pass laneTakes); outcomes in puzzle order: `suspended` for a search the deadline
 * stopped (its counters, a solution if it had found one), undefined for a puzzle it never started.
 */
export async function solveNonogramLanes(
  ctx: GpuContext,
  puzzles: Nonogram[],
  opts: LaneOptions = {},
  stats: LaneStats = { dispatches: 0, readbacks: 0 },
): Promise<(LaneOutcome | undefined)[]> {
  if (puzzles.length === 0) return [];
  const lanes = laneCount(opts.lanes ?? 64, puzzles.length);
  const slots = Math.min(puzzles.length, opts.slots ?? 2 * lanes);
  // every branch fixes at least one cell, so a stack of `cells` copies always suffices
  const maxCells = Math.max(...puzzles.map((p) => p.width * p.height));
  const scratchLimit = Math.min(256 << 20, ctx.limits.maxStorageBufferBindingSize);
  const depthCap = Math.max(1, Math.min(maxCells, Math.floor((scratchLimit / 4 / slots - SLOT_STACK) / ENTRY_WORDS)));
  const slotWords = SLOT_STACK + depthCap * ENTRY_WORDS;
  // the results hold two solutions
  const maxSolutions = Math.min(2, Math.max(1, opts.maxSolutions ?? 2));
  const budget = opts.budget ?? 2000;
  return runRounds(
    ctx,
    puzzles,
    {
      label: 'nonogram.lanes',
      pipeline: await nonogramLanePipeline(ctx),
      slotWords,
      params: (count) => Uint32Array.from([count, depthCap, opts.probeCap ?? 0xffffffff, maxSolutions, budget, slotWords, 0, 0]),
      outcome: outcomeOf,
      // slot header: the result header's counters from word 1, then stack depth and solutions (lane.wgsl)
      report: { words: 80, solutionsAt: 16, found: 9 },
    },
    { ...opts, lanes, slots },
    stats,
  );
}

export interface CdclOutcome {
  status: LaneStatus;
  /** row-major 0/1, as many as were found (0, 1 or 2) */
  solutions: string[];
  conflicts: number;
  decisions: number;
  /** line settles while propagating */
  settles: number;
  /** line settles spent reducing explanations */
  explainSettles: number;
  learned: number;
  restarts: number;
  /** no decision was needed: line logic alone */
  lineOnly: boolean;
  /** from the start of the call to the readback that brought it */
  ms: number;
}

export interface CdclLaneOptions extends Omit<LaneOptions, 'probeCap'> {
  /** conflicts one puzzle may take before it comes back `capped` */
  conflictCap?: number;
  /** words per slot for learned clauses (default CDCL_ARENA_WORDS) */
  arenaWords?: number;
}

/** cdcl.wgsl's slot: its fixed part (S_MEM + ARENA), then the arena of learned clauses */
const CDCL_SLOT_FIXED = 7426 + 3075;

export function nonogramCdclPipeline(ctx: GpuContext): Promise<GPUComputePipeline> {
  return lanePipeline(ctx, ['nonogram/settle.wgsl', 'nonogram/cdcl.wgsl'], 'nono_cdcl');
}

/**
 * Conflict-driven search (cdcl.wgsl, twin of solveCdclCpu in cdcl.ts), one puzzle per invocation in rounds; each
 * job may take `budget` conflicts per round. Outcomes as solveNonogramLanes'.
 */
export async function solveNonogramCdcl(
  ctx: GpuContext,
  puzzles: Nonogram[],
  opts: CdclLaneOptions = {},
  stats: LaneStats = { dispatches: 0, readbacks: 0 },
): Promise<(CdclOutcome | undefined)[]> {
  if (puzzles.length === 0) return [];
  const lanes = laneCount(opts.lanes ?? 64, puzzles.length);
  const slots = Math.min(puzzles.length, opts.slots ?? 2 * lanes);
  const arenaWords = opts.arenaWords ?? CDCL_ARENA_WORDS;
  const slotWords = CDCL_SLOT_FIXED + arenaWords;
  const maxSolutions = Math.min(2, Math.max(1, opts.maxSolutions ?? 2));
  const budget = opts.budget ?? 200;
  return runRounds(
    ctx,
    puzzles,
    {
      label: 'nonogram.cdcl',
      pipeline: await nonogramCdclPipeline(ctx),
      slotWords,
      params: (count) => Uint32Array.from([count, opts.conflictCap ?? 0xffffffff, maxSolutions, budget, slotWords, arenaWords, 0, 0]),
      outcome: (status, w, at, solutionsAt, found, p, ms) => ({
        status,
        solutions: solutionsOf(w, solutionsAt, found, p),
        conflicts: w[at + 1],
        decisions: w[at + 2],
        settles: w[at + 3],
        explainSettles: w[at + 4],
        learned: w[at + 5],
        restarts: w[at + 6],
        lineOnly: w[at + 7] === 1,
        ms,
      }),
      // slot header: the result header's counters from word 1, then the solutions found (cdcl.wgsl)
      report: { words: 96, solutionsAt: 32, found: 8 },
    },
    { ...opts, lanes, slots },
    stats,
  );
}

/** A kernel that runs one puzzle per invocation in rounds, its search kept in a slot of scratch between them. */
export interface RoundKernel<O> {
  label: string;
  pipeline: GPUComputePipeline;
  /** words per slot of scratch */
  slotWords: number;
  /** the params words (uniform) for a round of `count` jobs */
  params(count: number): Uint32Array<ArrayBuffer>;
  /** an outcome from a header of counters at `at` (words 1-7) and `found` solutions of 32 rows at `solutionsAt` */
  outcome(status: LaneStatus, w: Uint32Array, at: number, solutionsAt: number, found: number, p: Nonogram, ms: number): O;
  /** what of a suspended job's slot to read back at a deadline: its first `words`, where its solutions are and the
   * word that counts them */
  report: { words: number; solutionsAt: number; found: number };
}

/**
 * Runs a round kernel over the puzzles. Each round is one dispatch of the jobs in flight (one slot of scratch each,
 * `slots` at most); a job runs until its puzzle is done or it has spent its share of the round, then waits in its
 * slot for the next round. So a round lasts a bounded time (the deadline is looked at between rounds), a hard
 * puzzle never holds a round's other lanes idle at its end for long, and finished puzzles free their slots for new
 * ones at once.
 */
export async function runRounds<O>(
  ctx: GpuContext,
  puzzles: Nonogram[],
  kernel: RoundKernel<O>,
  opts: { lanes: number; slots: number; deadline?: number; onChunk?: (count: number) => void },
  stats: LaneStats,
): Promise<(O | undefined)[]> {
  const out: (O | undefined)[] = new Array(puzzles.length);
  if (puzzles.length === 0) return out;
  const t0 = performance.now();
  for (const p of puzzles) if (!laneTakes(p)) throw new Error(`${kernel.label}: a ${p.width}x${p.height} puzzle is past the kernel's limits`);
  const { lanes, slots, slotWords } = { ...opts, slotWords: kernel.slotWords };
  const clueTables = puzzles.map(packClues);
  const scratch = ctx.device.createBuffer({ label: `${kernel.label}.slots`, size: 4 * slots * slotWords, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC });
  const free = Array.from({ length: slots }, (_, k) => slots - 1 - k);
  let active: { index: number; slot: number; resume: boolean }[] = [];
  let next = 0;
  let msPerJob = 0;
  try {
    while (active.length || next < puzzles.length) {
      if (opts.deadline !== undefined && performance.now() > opts.deadline) break;
      while (active.length < slots && next < puzzles.length) active.push({ index: next++, slot: free.pop()!, resume: false });
      const round = active;
      await runLanes(ctx, {
        label: kernel.label,
        pipeline: kernel.pipeline,
        lanes: laneCount(lanes, round.length),
        scratchBytes: 0,
        scratch,
        paramsBytes: 32,
        jobs: round.length,
        chunk: round.length,
        // a round takes up to seconds: sleep through most of it rather than in Dawn's busy wait
        napBeforeReadback: 0.8,
        msPerJob,
        onTimed: (ms) => (msPerJob = ms),
        onDispatch: () => stats.dispatches++,
        onReadback: () => stats.readbacks++,
        pack: () => {
          const words: number[] = new Array(round.length).fill(0);
          round.forEach((job, k) => {
            const p = puzzles[job.index];
            words[k] = words.length;
            const rec = words.length;
            words.push(p.width | (p.height << 8), 0, job.slot, job.resume ? 1 : 0);
            // a resumed search has its cells in its slot: only a new one needs the starting cells
            if (!job.resume) {
              const { filled, empty } = rowBits(p);
              words.push(...filled, ...empty);
            }
            words[rec + 1] = words.length;
            for (const w of clueTables[job.index]) words.push(w);
          });
          return { input: Uint32Array.from(words), params: kernel.params(round.length), resultWords: round.length * RESULT_WORDS };
        },
        unpack: (_first, count, r) => {
          const ms = performance.now() - t0;
          active = [];
          let finished = 0;
          for (let k = 0; k < count; k++) {
            const job = round[k];
            const p = puzzles[job.index];
            const at = k * RESULT_WORDS;
            const status = LANE_STATUS[r[at]];
            if (!status) throw new Error(`${kernel.label}: puzzle ${job.index} came back without a status`);
            if (status === 'suspended') {
              active.push({ ...job, resume: true });
              continue;
            }
            free.push(job.slot);
            finished++;
            const found = status === 'multiple' ? 2 : status === 'solved' ? 1 : 0;
            out[job.index] = kernel.outcome(status, r, at, at + RESULT_HEADER, found, p, ms);
          }
          if (finished) opts.onChunk?.(finished);
        },
      });
    }
    if (active.length) await readSuspended(ctx, scratch, kernel, active, puzzles, out, performance.now() - t0);
  } finally {
    scratch.destroy();
  }
  return out;
}

/** The searches a deadline stopped, as `suspended` outcomes: their counters and any solution found so far. */
async function readSuspended<O>(
  ctx: GpuContext,
  scratch: GPUBuffer,
  kernel: RoundKernel<O>,
  jobs: { index: number; slot: number }[],
  puzzles: Nonogram[],
  out: (O | undefined)[],
  ms: number,
): Promise<void> {
  const device = ctx.device;
  const { words, solutionsAt, found } = kernel.report;
  const read = device.createBuffer({ label: `${kernel.label}.suspended`, size: 4 * words * jobs.length, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  try {
    const enc = device.createCommandEncoder({ label: `${kernel.label}.suspended` });
    jobs.forEach((job, k) => enc.copyBufferToBuffer(scratch, 4 * job.slot * kernel.slotWords, read, 4 * k * words, 4 * words));
    device.queue.submit([enc.finish()]);
    await read.mapAsync(GPUMapMode.READ);
    const h = new Uint32Array(read.getMappedRange().slice(0));
    read.unmap();
    jobs.forEach((job, k) => {
      const at = k * words;
      out[job.index] = kernel.outcome('suspended', h, at, at + solutionsAt, Math.min(2, h[at + found]), puzzles[job.index], ms);
    });
  } finally {
    read.destroy();
  }
}

/** An outcome from a header of counters (result layout: words 1-7) and `found` solutions of 32 rows at `solutionsAt`. */
function outcomeOf(status: LaneStatus, w: Uint32Array, at: number, solutionsAt: number, found: number, p: Nonogram, ms: number): LaneOutcome {
  return {
    status,
    solutions: solutionsOf(w, solutionsAt, found, p),
    probes: w[at + 1],
    branches: w[at + 2],
    settles: w[at + 3],
    generations: w[at + 4],
    level: LEVELS[w[at + 5]],
    nodes: w[at + 6],
    depth: w[at + 7],
    ms,
  };
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

function solutionsOf(w: Uint32Array, at: number, found: number, p: Nonogram): string[] {
  return Array.from({ length: found }, (_, s) => solutionOfRows(w, at + 32 * s, p.width, p.height));
}

function solutionOfRows(words: Uint32Array, at: number, width: number, height: number): string {
  let s = '';
  for (let r = 0; r < height; r++) for (let c = 0; c < width; c++) s += (words[at + r] >>> c) & 1 ? '1' : '0';
  return s;
}
