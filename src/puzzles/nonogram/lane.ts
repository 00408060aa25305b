// The complete nonogram solvers with one puzzle per GPU invocation, run in rounds by rounds.ts:
// - probing (shaders/nonogram/lane.wgsl): line logic, probing and depth-first search in the invocation's private
//   memory, waiting branches in the job's slot of scratch; the twin of solveCpu (reference.ts), step for step.
//   Puzzles it cannot finish (its stack or probe cap) come back as such for the caller to hand to the rounds
//   solver (solver.ts).
// - conflict-driven search (shaders/nonogram/cdcl.wgsl): the twin of solveCdclCpu (cdcl.ts), step for step.
import { laneCount, lanePipeline, type LaneStatus } from '../../engine/lanes.ts';
import type { GpuContext } from '../../gpu/context.ts';
import type { Nonogram } from './codec.ts';
import { gpuLimitError } from './pack.ts';
import { BRANCH_SCORES, EARLY_BRANCH_SCORE, RESTART_AFTER, type BranchScore, type Level } from './reference.ts';
import { CDCL_ARENA_WORDS, CDCL_REPHASE_INTERVAL, CDCL_SEARCHES, CDCL_SHARE_RING, type CdclResult, type CdclSearch, type LbdCleanup, type ShareRing } from './cdcl.ts';
import { runRounds, type RoundKernel, type RoundStats } from './rounds.ts';

/** lane.wgsl keeps a line in one word: lines up to 31 cells */
export const LANE_MAX_LINE = 31;
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
  /** the branch score of the search this outcome is from (LaneOptions.scores) */
  branchScore: BranchScore;
  /** from the start of the call to the readback that brought it */
  ms: number;
}

export interface LaneOptions {
  /** 1: stop at the first solution; 2 (default): prove uniqueness or find a second */
  maxSolutions?: number;
  /** invocations (each holds a stack of copies); SwiftShader runs 4 lanes per core at a time */
  lanes?: number;
  /** probes each of a puzzle's searches may run; it comes back `capped` when all it got have */
  probeCap?: number;
  /** probes a search runs before it starts again with the other child order, twice as long each time (solveCpu's
   * restartAfter: default RESTART_AFTER; 0: never) */
  restartAfter?: number;
  /** jobs in flight (each has a slot of scratch: its stack and, between rounds, its suspended search) */
  slots?: number;
  /** probes a job may run per round before it waits for the next one */
  budget?: number;
  /** checked between rounds: puzzles not finished by then are left out (undefined) */
  deadline?: number;
  /** an abort ends the rounds as the deadline does */
  signal?: AbortSignal;
  /** after each round: puzzles it finished */
  onChunk?: (count: number) => void;
  /** each puzzle's outcome as its search ends (before the run does) */
  onOutcome?: (index: number, outcome: LaneOutcome) => void;
  /** the searches a puzzle may get, by branch score, in the order they join it (default DEFAULT_SCORES) */
  scores?: readonly BranchScore[];
  /** rounds a puzzle's search runs without an answer before the next one starts beside it (default JOIN_AFTER) */
  joinAfter?: number;
  /** waiting copies each slot's stack holds at first (default FIRST_DEPTH; it doubles as searches need) */
  firstDepth?: number;
  /** below a run's root, the `weaker` search branches at once on a cell scoring this (solveCpu's earlyBranchScore:
   * default EARLY_BRANCH_SCORE; Infinity: never) */
  earlyBranchScore?: number;
}

/**
 * A hard puzzle gets a second search with the other branch score: the two make trees of very different sizes on the
 * same puzzle (either is 10-25x cheaper on some TAAI puzzles), so two searches sharing its time cost about twice the
 * cheaper one's. CPU twin, TAAI first solutions, 70 puzzles (#305-995 by 10), 400k probes at most each: the second
 * joining after 20,000 probes of the first leaves 2 puzzles unanswered instead of 7, and 3.80M probes in all instead
 * of 5.01M; joining at once costs the easy ones twice (by a sharing model of the kernel's rounds, 9 answered at 82 s
 * instead of 43).
 */
export const DEFAULT_SCORES: readonly BranchScore[] = ['weaker', 'sum'];
/** 40 rounds of 500 probes: 20,000 probes */
export const JOIN_AFTER = 40;
/**
 * Waiting copies a slot's stack holds at first; it doubles when a search needs more. TAAI 2011, 240 s (uniqueness):
 * the deepest stacks were 22 at the median, 178 at the 99th percentile, 214 at most. A full-depth stack (the cells)
 * for every slot is 51 MB for 100 puzzles of 20x20, fresh memory that SwiftShader zero-fills a page fault at a time.
 */
export const FIRST_DEPTH = 32;

export type LaneStats = RoundStats;

/** Can the lanes kernel take this puzzle? */
export function laneTakes(p: Nonogram): boolean {
  return Math.max(p.width, p.height) <= LANE_MAX_LINE && !gpuLimitError(p);
}

export function nonogramLanePipeline(ctx: GpuContext): Promise<GPUComputePipeline> {
  return lanePipeline(ctx, ['nonogram/settle.wgsl', 'nonogram/job.wgsl', 'nonogram/count.wgsl', 'nonogram/lane.wgsl'], 'nono_lanes');
}

/** The probing search's round kernel (lane.wgsl) for these puzzles (each must pass laneTakes). */
export async function probingKernel(ctx: GpuContext, puzzles: Nonogram[], opts: LaneOptions = {}): Promise<RoundKernel<LaneOutcome>> {
  checkTakes(puzzles, 'nonogram.lanes');
  // many jobs in flight, short rounds: a TAAI 1,000 batch on SwiftShader (first solutions, 82 s deadline, one round
  // at a time then) answered 594 puzzles with 256 lanes, 1,024 slots and 500 probes per round, 508 with 64, 128 and
  // 2,000 (fewer lanes idle at a round's end, and the easy puzzles of the whole batch are done in the first rounds)
  const scores = opts.scores ?? DEFAULT_SCORES;
  const earlyBranchScore = opts.earlyBranchScore ?? EARLY_BRANCH_SCORE;
  // a params word, as solveCpu compares with it: scores are whole cells, so 2.5 is 3; NaN would become 0 (branch at
  // once) where solveCpu never branches early
  if (!(earlyBranchScore >= 0)) throw new Error(`nonogram.lanes: an early-branch score of ${earlyBranchScore} (0 or more, Infinity: never)`);
  const { lanes, slots, maxSolutions } = jobsInFlight(puzzles, opts, 256, 4, scores.length);
  // every branch fixes at least one cell, so a stack of `cells` copies always suffices; most searches stay far
  // shallower, so the stacks start at FIRST_DEPTH and double when a search needs more (RoundKernel.deepen)
  const maxCells = Math.max(1, ...puzzles.map((p) => p.width * p.height));
  const maxDepth = Math.max(1, Math.min(maxCells, Math.floor((scratchLimit(ctx) / 4 / slots - SLOT_STACK) / ENTRY_WORDS)));
  let depthCap = Math.min(maxDepth, opts.firstDepth ?? FIRST_DEPTH);
  const slotWordsFor = (depth: number) => SLOT_STACK + depth * ENTRY_WORDS;
  const budget = opts.budget ?? 500;
  const kernel: RoundKernel<LaneOutcome> = {
    label: 'nonogram.lanes',
    work: 'probes',
    pipeline: await nonogramLanePipeline(ctx),
    lanes,
    slots,
    slotWords: slotWordsFor(depthCap),
    deepen: () => {
      if (depthCap >= maxDepth) return false;
      depthCap = Math.min(maxDepth, 2 * depthCap);
      kernel.slotWords = slotWordsFor(depthCap);
      return true;
    },
    params: (count) => Uint32Array.from([count, depthCap, opts.probeCap ?? 0xffffffff, maxSolutions, budget, kernel.slotWords, opts.restartAfter ?? RESTART_AFTER, depthCap < maxDepth ? 1 : 0, Math.min(Math.ceil(earlyBranchScore), 0xffffffff)]),
    outcome: outcomeOf,
    variants: scores.map((score) => BRANCH_SCORES.indexOf(score)),
    joinAfter: opts.joinAfter ?? JOIN_AFTER,
    // slot header: the result header's counters from word 1, then stack depth and solutions (lane.wgsl)
    report: { words: 80, solutionsAt: 16, found: 9 },
  };
  return kernel;
}

/**
 * Solves the puzzles (each must pass laneTakes) with the probing search; outcomes in puzzle order: `suspended` for
 * a search the deadline stopped (its counters, a solution if it had found one), undefined for a puzzle it never
 * started.
 */
export async function solveNonogramLanes(ctx: GpuContext, puzzles: Nonogram[], opts: LaneOptions = {}, stats: LaneStats = { dispatches: 0, readbacks: 0 }): Promise<(LaneOutcome | undefined)[]> {
  if (puzzles.length === 0) return [];
  return runRounds(ctx, puzzles, await probingKernel(ctx, puzzles, opts), opts, stats);
}

/** Invocations, jobs in flight (`slotsPerLane` per invocation, no more than `searches` per puzzle) and solutions
 * sought (the results hold two). */
function jobsInFlight(puzzles: Nonogram[], opts: Pick<LaneOptions, 'lanes' | 'slots' | 'maxSolutions'>, lanesDefault: number, slotsPerLane: number, searches = 1) {
  const lanes = laneCount(opts.lanes ?? lanesDefault, puzzles.length * searches);
  const slots = Math.max(1, Math.min(puzzles.length * searches, opts.slots ?? slotsPerLane * lanes));
  return { lanes, slots, maxSolutions: Math.min(2, Math.max(1, opts.maxSolutions ?? 2)) };
}

function checkTakes(puzzles: Nonogram[], label: string): void {
  for (const p of puzzles) if (!laneTakes(p)) throw new Error(`${label}: a ${p.width}x${p.height} puzzle is past the kernel's limits`);
}

/** The CPU twin's result (solveCdclCpu), with a lanes status and the time it came back. */
export type CdclOutcome = Omit<CdclResult, 'status'> & {
  status: LaneStatus;
  /** the search this outcome is from (CdclLaneOptions.searches) */
  search: CdclSearch;
  /** from the start of the call to the readback that brought it */
  ms: number;
  /** run on a CPU thread beside the GPU (cdcl-threads.ts), not by the kernel */
  cpuThread?: boolean;
  /** answered by the thread's copy of the puzzle transposed (cdcl.ts CdclPortfolioRace) */
  transposed?: boolean;
};

export interface CdclLaneOptions extends Omit<LaneOptions, 'probeCap' | 'restartAfter' | 'scores' | 'firstDepth' | 'onOutcome'> {
  /** conflicts one puzzle may take before it comes back `capped` */
  conflictCap?: number;
  /** words per slot for learned clauses (default: arenaFor the slots) */
  arenaWords?: number;
  /** the searches a puzzle may get, in the order they join it (default CDCL_SEARCHES; decay shifts 4 to 31); each
   * next one joins after `joinAfter` rounds of the one before (default CDCL_JOIN_AFTER) */
  searches?: readonly CdclSearch[];
  /** the ring of clauses each search shares (default CDCL_SHARE_RING; tests make it small) */
  shareRing?: ShareRing;
  /** conflicts before a search's first rephase (default CDCL_REPHASE_INTERVAL; tests make it small) */
  rephaseInterval?: number;
  /** clean-ups of each search's arena on a schedule, keeping low-LBD clauses (default none: only a full arena is
   * cleaned, keeping the short ones); the solver passes CDCL_CLEANUP, as its CPU threads take */
  cleanup?: LbdCleanup;
  /** each round as packed (a test replays them on the twin: CdclRoundsTwin) */
  onPack?: RoundKernel<CdclOutcome>['onPack'];
}

/** 5 rounds of 200 conflicts: puzzles CDCL answers in 1,000 conflicts or fewer get one search */
export const CDCL_JOIN_AFTER = 5;
/** A search as cdcl.wgsl's job variant: the decay shift past DECAY_SHIFT_BASE in the bits below VARIANT_TARGET_PHASES,
 * VARIANT_TARGET_PHASES, VARIANT_ROOT_PROBING and VARIANT_FILLED_FIRST. */
const DECAY_SHIFT_BASE = 4;
const VARIANT_TARGET_PHASES = 0x20;
const VARIANT_ROOT_PROBING = 0x40;
const VARIANT_FILLED_FIRST = 0x80;
const variantOfSearch = ({ decayShift, filledFirst, rootProbing, targetPhases }: CdclSearch) =>
  (decayShift - DECAY_SHIFT_BASE) | (targetPhases ? VARIANT_TARGET_PHASES : 0) | (rootProbing ? VARIANT_ROOT_PROBING : 0) | (filledFirst ? VARIANT_FILLED_FIRST : 0);
const searchOfVariant = (variant: number): CdclSearch => ({
  decayShift: DECAY_SHIFT_BASE + (variant & (VARIANT_TARGET_PHASES - 1)),
  filledFirst: (variant & VARIANT_FILLED_FIRST) !== 0,
  rootProbing: (variant & VARIANT_ROOT_PROBING) !== 0,
  targetPhases: (variant & VARIANT_TARGET_PHASES) !== 0,
});

/** cdcl.wgsl's slot: its fixed part (S_MEM + ARENA), then the arena of learned clauses */
const CDCL_SLOT_FIXED = 9794 + 3075;

/** bytes of one kernel's slots at most */
const scratchLimit = (ctx: GpuContext) => Math.min(256 << 20, ctx.limits.maxStorageBufferBindingSize);

/** The arena per slot: CDCL_ARENA_WORDS where the slots fit in `limit` bytes with it, else the largest power of two
 * that fits (a many-slot `--search cdcl` run: 256K words for 128 slots), at least 64K words. */
export function arenaFor(slots: number, limit: number): number {
  let words = CDCL_ARENA_WORDS;
  while (words > 1 << 16 && 4 * slots * (CDCL_SLOT_FIXED + words) > limit) words >>>= 1;
  return words;
}

export function nonogramCdclPipeline(ctx: GpuContext, ring = CDCL_SHARE_RING, rephaseInterval = CDCL_REPHASE_INTERVAL): Promise<GPUComputePipeline> {
  if (!(ring.perRound >= 1 && ring.perRound < ring.entries && ring.entries <= 256)) throw new Error(`nonogram.cdcl: a share ring of ${ring.entries} entries, ${ring.perRound} a round`);
  if (!(Number.isInteger(rephaseInterval) && rephaseInterval >= 1 && rephaseInterval <= 1 << 20)) throw new Error(`nonogram.cdcl: a rephase interval of ${rephaseInterval} (1 to ${1 << 20})`);
  return lanePipeline(ctx, ['nonogram/settle.wgsl', 'nonogram/job.wgsl', 'nonogram/cdcl.wgsl'], 'nono_cdcl', { SHARE_ENTRIES: ring.entries, SHARE_PER_ROUND: ring.perRound, REPHASE_INTERVAL: rephaseInterval });
}

/** The conflict-driven search's round kernel (cdcl.wgsl, twin of solveCdclCpu in cdcl.ts); each job may take
 * `budget` conflicts per round. */
export async function cdclKernel(ctx: GpuContext, puzzles: Nonogram[], opts: CdclLaneOptions = {}): Promise<RoundKernel<CdclOutcome>> {
  checkTakes(puzzles, 'nonogram.cdcl');
  const searches = opts.searches ?? CDCL_SEARCHES;
  for (const { decayShift } of searches) if (!Number.isInteger(decayShift) || decayShift < DECAY_SHIFT_BASE || decayShift > 31) throw new Error(`nonogram.cdcl: a decay shift of ${decayShift} (4 to 31)`);
  const { lanes, slots, maxSolutions } = jobsInFlight(puzzles, opts, 64, 2, searches.length);
  const arenaWords = opts.arenaWords ?? arenaFor(slots, scratchLimit(ctx));
  const slotWords = CDCL_SLOT_FIXED + arenaWords;
  // every 0: no clean-ups but a full arena's (cdcl.wgsl)
  const cleanup = opts.cleanup ?? { every: 0, growth: 0, keepLbd: 0 };
  if (opts.cleanup) {
    const { every, growth, keepLbd } = opts.cleanup;
    if (!(Number.isInteger(every) && every >= 1 && every < 2 ** 31 && Number.isInteger(growth) && growth >= 0 && growth < 2 ** 20 && Number.isInteger(keepLbd) && keepLbd >= 0 && keepLbd < 2 ** 16)) throw new Error(`nonogram.cdcl: a clean-up every ${every} conflicts, growing by ${growth}, keeping LBD ${keepLbd}`);
  }
  const kernel: RoundKernel<CdclOutcome> = {
    label: 'nonogram.cdcl',
    work: 'conflicts',
    pipeline: await nonogramCdclPipeline(ctx, opts.shareRing, opts.rephaseInterval),
    lanes,
    slots,
    slotWords,
    budget: opts.budget ?? 200,
    params: (count, round) => Uint32Array.from([count, opts.conflictCap ?? 0xffffffff, maxSolutions, kernel.budget!, slotWords, arenaWords, round, cleanup.every, cleanup.growth, cleanup.keepLbd]),
    outcome: (status, w, at, solutionsAt, found, p, ms, variant) => ({
      status,
      search: searchOfVariant(variant),
      solutions: solutionsOf(w, solutionsAt, found, p),
      conflicts: w[at + 1],
      decisions: w[at + 2],
      settles: w[at + 3],
      explainChecks: w[at + 4],
      learned: w[at + 5],
      restarts: w[at + 6],
      // cdcl.wgsl's last counter: the level, root probing's probes past its two bits
      level: LEVELS[w[at + 7] & 3],
      probes: w[at + 7] >>> 2,
      ms,
    }),
    variants: searches.map(variantOfSearch),
    joinAfter: opts.joinAfter ?? CDCL_JOIN_AFTER,
    onPack: opts.onPack,
    // slot header: the result header's counters from word 1, then the solutions found (cdcl.wgsl)
    report: { words: 96, solutionsAt: 32, found: 8 },
  };
  return kernel;
}

/** Conflict-driven search over the puzzles (each must pass laneTakes); outcomes as solveNonogramLanes'. */
export async function solveNonogramCdcl(ctx: GpuContext, puzzles: Nonogram[], opts: CdclLaneOptions = {}, stats: LaneStats = { dispatches: 0, readbacks: 0 }): Promise<(CdclOutcome | undefined)[]> {
  if (puzzles.length === 0) return [];
  return runRounds(ctx, puzzles, await cdclKernel(ctx, puzzles, opts), opts, stats);
}

/** An outcome from a header of counters (result layout: words 1-7) and `found` solutions of 32 rows at `solutionsAt`. */
function outcomeOf(status: LaneStatus, w: Uint32Array, at: number, solutionsAt: number, found: number, p: Nonogram, ms: number, variant: number): LaneOutcome {
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
    branchScore: BRANCH_SCORES[variant],
    ms,
  };
}

function solutionsOf(w: Uint32Array, at: number, found: number, p: Nonogram): string[] {
  return Array.from({ length: found }, (_, s) => solutionOfRows(w, at + 32 * s, p.width, p.height));
}

function solutionOfRows(words: Uint32Array, at: number, width: number, height: number): string {
  let s = '';
  for (let r = 0; r < height; r++) for (let c = 0; c < width; c++) s += (words[at + r] >>> c) & 1 ? '1' : '0';
  return s;
}
