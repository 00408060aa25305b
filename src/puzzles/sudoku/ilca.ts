// The paper's Irregular Learning Cellular Automaton (ILCA, seed 002: Chatzinikolaou et al. 2024), on the GPU
// (shaders/sudoku/ilca.wgsl) with this CPU twin, bit for bit.
//
// Each cell holds a learning automaton: an action weight vector P over 1..n; its state is the action with the
// highest weight (Definition 3, eq. 6). Each time-step (Algorithm 1), with d the cell's degree (eq. 5: peers whose
// action differs) and |N| its peer count (20 for 9x9), all cells at once from the states of step t:
//   d == |N|                                     -> reward:  P(c) *= r(d) = 1 + d/|N| * lr      (eq. 8)
//   d > max(d_k of peers k with the same action) -> reward
//   otherwise                                    -> penalty: P(c) *= p(d) = 1 - (1 - d/|N|) * lp (eq. 9)
// then every cell takes its most probable action. The puzzle is resolved when every cell has d == |N| (Algorithm 1,
// lines 16-18: any grid without a conflict, which for a puzzle with several solutions need not be the one it was
// made from). Every sr steps the selective probability reset (Algorithm 3) replaces Algorithm 1: a cell whose row,
// column or box does not sum to n(n+1)/2 (eq. 10) has its weights set back to the initial vector.
//
// Where the paper is vague, we chose (measured effects in README.md, "ILCA"):
//  - Initial vector (section 4: "the given numbers are considered to have a 100% probability while their neighbors
//    have a 0% probability ... all states are equally likely"): a given holds weight 1 on its value; every other
//    cell weight 1 on each value no given peer holds, 0 on the rest. Equal weights 1 (not 1/k) because Algorithm 3
//    sets a live action's P to 1 and a dead one's to 0 to "reset the probability" (section 6): the reset vector is
//    then the initial one. Cells left with one candidate keep it at 100% for good, as Fig. 4e says of C5,5.
//  - eq. 7 multiplies one entry by r > 1, so P leaves [0, 1] unless it is renormalised; Fig. 4 plots each cell's
//    vector as stacked areas that sum to 1 ("increasing their area, if rewarded", the others "shrinking"). We
//    read it so: P normalised after each update, which keeps the ratios, hence the argmax, of the unbounded
//    products; we hold log P in f32 unbounded (factors come from a host table, so GPU and CPU add the same floats).
//    The other reading, `capped: true`, keeps each weight a probability of its own, never above 1 (rewards
//    saturate): it resolves more (README), but then rewards from the initial weight 1 do nothing and lr hardly
//    matters, while the paper's lp/lr sweep (Fig. 6) changes its results a lot.
//  - Algorithm 3 writes "if P(c) > 0 then P(c) = 1 else 0"; c is read as every action of the cell (the paper uses
//    c for any of the n states, Fig. 4), not just the chosen one: setting only the chosen action to 1 would
//    entrench it, the opposite of a reset (measured worse too).
//  - eq. 9 goes negative for lp > 1 (lp = 3.5 with d < 15): such a factor kills the action (weight 0), except a
//    cell's last live action, which stays at 100% as a normalised vector would keep it.
//  - ties in the argmax (all candidates at the start, after a reset, and capped rewards) are broken uniformly at
//    random from a hash of (seed, cell, step): the only randomness, and why 10 runs of a puzzle differ. A cell
//    whose current action is among the best keeps it (with capped rewards a settled cell is tied with its untried
//    candidates and would otherwise wander off).
//  - the base algorithm is eq. 8-9 with lr = lp = 1; "lp/lr = 20" uses lp = 1, lr = 0.05 (the paper ran its ratio
//    sweeps "at slow speeds" without naming lp); "lp/lr = 15, sr = 50/65" likewise uses lp = 1.
//  - Algorithm 3 runs instead of Algorithm 1 at steps sr, 2sr, ... ("with the exception that every sr time-steps,
//    Algorithm 3 is activated").
//  - updates are synchronous (P^{t+1} from the states c^t of every cell, then every cell selects).
//  - time-steps: the initial random choice is step 1 (Fig. 3b), so a grid whose first choice is conflict-free took
//    1 step.
//  - puzzles: the paper's "publicly available Sudoku generator ... compatible with MATLAB" with difficulty d in
//    0.1~0.9 and Easy < 0.4 <= Medium < 0.55 <= Hard < 0.7 <= Evil is MATLAB Central 13846 (Ps.m/Cs.m): a complete
//    grid with each cell blanked with probability d. `paperPuzzle` draws the same way (Table 1's d values), so Easy
//    has ~57 givens and Evil ~20, most of them with many solutions.
import type { GpuContext } from '../../gpu/context.ts';
import { emptyPuzzle, randomPuzzle } from './generate.ts';
import { caRun, bitValue, fullMask, popcount, topology, type SudokuPuzzle } from './reference.ts';

export interface IlcaParams {
  lr: number;
  lp: number;
  /** selective probability reset every sr steps (0 = never) */
  sr: number;
  /** time-step cap (the paper: 250) */
  steps: number;
  /** improvement: start from the elimination automaton's fixpoint (its solved cells become givens) */
  eliminate?: boolean;
  /** the other reading of eq. 7: weights are probabilities capped at 1 (rewards saturate), not normalised */
  capped?: boolean;
}

export const ILCA_PRESETS: Record<string, IlcaParams> = {
  base: { lr: 1, lp: 1, sr: 0, steps: 250 },
  'lp/lr=20': { lr: 0.05, lp: 1, sr: 0, steps: 250 },
  'lp=3.5': { lr: 0.175, lp: 3.5, sr: 0, steps: 250 },
  'sr=40': { lr: 1, lp: 1, sr: 40, steps: 250 },
  'lp/lr=15,sr=50': { lr: 1 / 15, lp: 1, sr: 50, steps: 250 },
  'lp/lr=15,sr=65': { lr: 1 / 15, lp: 1, sr: 65, steps: 250 },
  // the capped reading of eq. 7 (weights never above 1), which resolves more than the normalised one
  'capped,sr=40': { lr: 1, lp: 1, sr: 40, steps: 250, capped: true },
  // ours: capped weights, started from the elimination automaton's candidates, reset every 20 steps
  improved: { lr: 1, lp: 1, sr: 20, steps: 250, eliminate: true, capped: true },
};

/** The paper's Table 1: difficulty levels and their d values (33/34/33 puzzles each of 100). */
export const PAPER_LEVELS: [string, number[]][] = [
  ['Easy', [0.25, 0.3, 0.35]],
  ['Medium', [0.4, 0.45, 0.5]],
  ['Hard', [0.55, 0.6, 0.65]],
  ['Evil', [0.7, 0.75, 0.8]],
];

/** d for puzzle i of `count` at a level: the first third at d[0], the middle (34 of 100) at d[1], the rest d[2] */
export function paperD(ds: number[], i: number, count: number): number {
  return ds[i < Math.round(count / 3) ? 0 : i < count - Math.round(count / 3) ? 1 : 2];
}

/** As MATLAB Central 13846 Cs.m draws a puzzle of difficulty d: a complete grid, each cell blanked with probability d. */
export function paperPuzzle(d: number, random: () => number): SudokuPuzzle {
  return randomPuzzle(emptyPuzzle(9), 1 - d, random);
}

/** log of a dead (zero) probability: far below anything rewards and penalties reach in f32 */
export const DEAD = -1e30;
const DEAD_BELOW = -1e29;
const GIVEN = 0x80000000;
/** param1 bit: capped weights (log P never above 0) */
const CAPPED = 1 << 16;

export function peerCount(p: SudokuPuzzle): number {
  return 2 * (p.n - 1) + (p.boxW - 1) * (p.boxH - 1);
}

/** log r(d) for d = 0..|N|, then log p(d) (DEAD where p(d) <= 0), as f32 */
export function factorTable(p: SudokuPuzzle, params: IlcaParams): Float32Array {
  const N = peerCount(p);
  const t = new Float32Array(2 * (N + 1));
  for (let d = 0; d <= N; d++) {
    t[d] = Math.log(1 + (d / N) * params.lr);
    const pen = 1 - (1 - d / N) * params.lp;
    t[N + 1 + d] = pen > 0 ? Math.log(pen) : DEAD;
  }
  return t;
}

/** lowbias32 (C. Wellons): the tie-break hash, identical in WGSL */
export function hash32(x: number): number {
  x >>>= 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b) >>> 0;
  x ^= x >>> 16;
  return x >>> 0;
}

export function tieHash(seed: number, cell: number, step: number): number {
  return hash32((seed + hash32((Math.imul(cell, 0x10001) + Math.imul(step, 0x9e3779b9)) >>> 0)) >>> 0);
}

/** argmax of log P: the current action when it is among the best, else a tie broken by the hash (1-based) */
export function chooseAction(logP: Float32Array, at: number, n: number, h: number, current = 0): number {
  let best = -Infinity;
  let count = 0;
  for (let v = 0; v < n; v++) {
    const x = logP[at + v];
    if (x > best) {
      best = x;
      count = 1;
    } else if (x === best) count++;
  }
  if (current && logP[at + current - 1] === best) return current;
  let k = h % count;
  for (let v = 0; v < n; v++) {
    if (logP[at + v] === best) {
      if (k === 0) return v + 1;
      k--;
    }
  }
  return 1;
}

/** State per cell: n floats (log P) then one word: action | step << 8 | given << 31. */
export interface IlcaState {
  words: Uint32Array;
  floats: Float32Array;
}

export function cellWords(p: SudokuPuzzle): number {
  return p.n + 1;
}

function checkShape(p: SudokuPuzzle): void {
  if (p.regions || p.diagonal) throw new Error('the ILCA runs on rectangular-box sudoku only');
}

/**
 * The start of a run, per cell: `fixed` is its value when it is a given (improved: or a cell the elimination
 * automaton solved), else 0 and `mask` holds its live candidates (values no given peer holds, or the automaton's).
 */
export function initialCells(p: SudokuPuzzle, params: IlcaParams): { fixed: Uint8Array; mask: Uint32Array } {
  checkShape(p);
  const t = topology(p);
  const cells = p.n * p.n;
  if (params.eliminate) {
    const cand = caRun(p).masks;
    const fixed = Uint8Array.from(cand, (m) => (popcount(m) === 1 ? bitValue(m) : 0));
    return { fixed, mask: Uint32Array.from(cand, (m, i) => (fixed[i] ? 0 : m)) };
  }
  const fixed = Uint8Array.from(p.givens);
  const mask = new Uint32Array(cells);
  for (let i = 0; i < cells; i++) {
    if (fixed[i]) continue;
    let m = fullMask(p.n);
    for (const j of t.peers[i]) if (p.givens[j]) m &= ~(1 << (p.givens[j] - 1));
    mask[i] = m >>> 0;
  }
  return { fixed, mask };
}

export function ilcaInitial(p: SudokuPuzzle, seed: number, params: IlcaParams): IlcaState {
  const n = p.n;
  const W = cellWords(p);
  const cells = n * n;
  const buf = new ArrayBuffer(cells * W * 4);
  const words = new Uint32Array(buf);
  const floats = new Float32Array(buf);
  const { fixed, mask } = initialCells(p, params);
  for (let i = 0; i < cells; i++) {
    const at = i * W;
    if (fixed[i]) {
      for (let v = 0; v < n; v++) floats[at + v] = v + 1 === fixed[i] ? 0 : DEAD;
      words[at + n] = (fixed[i] | GIVEN) >>> 0;
      continue;
    }
    // each live candidate at weight 1
    for (let v = 0; v < n; v++) floats[at + v] = mask[i] & (1 << v) ? 0 : DEAD;
    words[at + n] = chooseAction(floats, at, n, tieHash(seed, i, 0));
  }
  return { words, floats };
}

/** One time-step for all cells (CPU twin of ilca_step). Returns the next state and the cells not finalized. */
export function ilcaStep(p: SudokuPuzzle, s: IlcaState, table: Float32Array, seed: number, sr: number, capped = false): { next: IlcaState; unfinished: number } {
  const n = p.n;
  const W = n + 1;
  const cells = n * n;
  const N = peerCount(p);
  const t = topology(p);
  const buf = new ArrayBuffer(cells * W * 4);
  const words = new Uint32Array(buf);
  const floats = new Float32Array(buf);
  words.set(s.words);
  const act = new Uint8Array(cells);
  for (let i = 0; i < cells; i++) act[i] = s.words[i * W + n] & 0xff;
  // degrees (eq. 5) of every cell, from the states of step t
  const deg = new Int32Array(cells);
  let unfinished = 0;
  for (let i = 0; i < cells; i++) {
    let d = 0;
    for (const k of t.peers[i]) if (act[k] !== act[i]) d++;
    deg[i] = d;
    if (d !== N) unfinished++;
  }
  const SN = (n * (n + 1)) / 2;
  const unitSum = (u: number) => {
    let sum = 0;
    for (const k of t.units[u]) sum += act[k];
    return sum;
  };
  for (let x = 0; x < cells; x++) {
    const at = x * W;
    const word = s.words[at + n];
    if (word & GIVEN) continue;
    const c = act[x];
    const step = ((word >>> 8) & 0x7fffff) + 1;
    const d = deg[x];
    if (sr > 0 && step % sr === 0) {
      // Algorithm 3: a row, column or box off n(n+1)/2 (eq. 10) -> the cell's initial vector again
      const r = Math.floor(x / n);
      if (unitSum(r) !== SN || unitSum(n + (x % n)) !== SN || unitSum(2 * n + t.region[x]) !== SN) {
        for (let v = 0; v < n; v++) floats[at + v] = floats[at + v] > DEAD_BELOW ? 0 : DEAD;
      }
    } else {
      // Algorithm 1
      let reward = d === N;
      if (!reward) {
        let maxD = -1;
        for (const k of t.peers[x]) if (act[k] === c && deg[k] > maxD) maxD = deg[k];
        reward = d > maxD;
      }
      const f = table[reward ? d : N + 1 + d];
      const cur = floats[at + c - 1];
      let live = 0;
      for (let v = 0; v < n; v++) if (floats[at + v] > DEAD_BELOW) live++;
      let next: number;
      if (cur <= DEAD_BELOW) next = DEAD;
      else if (f <= DEAD_BELOW) next = live > 1 ? DEAD : cur; // a lone live action stays at 100%
      else next = capped ? Math.min(0, Math.fround(cur + f)) : Math.fround(cur + f);
      floats[at + c - 1] = next;
    }
    words[at + n] = (chooseAction(floats, at, n, tieHash(seed, x, step), c) | (step << 8)) >>> 0;
  }
  return { next: { words, floats }, unfinished };
}

export function ilcaValues(p: SudokuPuzzle, s: IlcaState | Uint32Array): Uint8Array {
  const words = s instanceof Uint32Array ? s : s.words;
  const W = p.n + 1;
  return Uint8Array.from({ length: p.n * p.n }, (_, i) => words[i * W + p.n] & 0xff);
}

/** CPU run: steps until every cell is finalized (solved) or the cap. Steps count the initial choice as step 1. */
export function ilcaRunCpu(p: SudokuPuzzle, seed: number, params: IlcaParams): { solved: boolean; steps: number; values: Uint8Array } {
  const table = factorTable(p, params);
  let s = ilcaInitial(p, seed, params);
  for (let step = 1; step <= params.steps; step++) {
    const r = ilcaStep(p, s, table, seed, params.sr, params.capped);
    if (r.unfinished === 0) return { solved: true, steps: step, values: ilcaValues(p, s) };
    s = r.next;
  }
  return { solved: false, steps: params.steps, values: ilcaValues(p, s) };
}

// ---- GPU ----------------------------------------------------------------------------------------------------------
// One run (puzzle x seed) per invocation, every time-step inside it (shaders/sudoku/ilca.wgsl): one dispatch and
// one readback per chunk of runs. SwiftShader runs 4 lanes per core at a time.
const WORKGROUP = 4;
const RESOLVED = 0x80000000;
const ENDED = 0x40000000;
/** a cell's deferred-reward step is 15 bits in ilca.wgsl */
export const ILCA_GPU_MAX_STEPS = 32_000;

export interface IlcaResult {
  solved: boolean;
  /** time-steps to the solution (the initial choice is step 1), or the cap */
  steps: number;
  values: Uint8Array;
  /** from the start of the call to the readback that brought it */
  ms: number;
  /** with `withState`: the run's last state as the CPU twin holds it (IlcaState.words) */
  state?: Uint32Array;
  /** never run: the deadline or an abort came first (`values` empty) */
  stopped?: true;
}

export interface IlcaGpuOptions {
  /** invocations per dispatch (each takes runs until none is left) */
  lanes?: number;
  /** runs per dispatch and readback */
  chunk?: number;
  /** read the weights back too (tests: word for word against the CPU twin) */
  withState?: boolean;
  /** no chunk starts past it (performance.now() time) or once `signal` aborts; the runs not started come back
   * `stopped`. With either, chunks start small and grow to ~STOP_CHUNK_MS each, so a stop waits at most about that
   * (a chunk is one dispatch: 500 runs of 32,000 steps were 92 s in one, which Ctrl-C and --timeout waited out) */
  deadline?: number;
  signal?: AbortSignal;
}

/** what a chunk may take when a run can be stopped (IlcaGpuOptions.deadline, signal) */
const STOP_CHUNK_MS = 2500;

export interface IlcaStats {
  dispatches: number;
  readbacks: number;
}

/** Runs every (puzzle, seed) pair; results in job order. */
export async function runIlca(
  ctx: GpuContext,
  jobs: { puzzle: SudokuPuzzle; seed: number }[],
  params: IlcaParams,
  progress?: (done: number, total: number) => void,
  opts: IlcaGpuOptions = {},
  stats: IlcaStats = { dispatches: 0, readbacks: 0 },
): Promise<IlcaResult[]> {
  const results: IlcaResult[] = new Array(jobs.length);
  const t0 = performance.now();
  let done = 0;
  // one pipeline per grid shape
  const groups = new Map<string, number[]>();
  jobs.forEach((j, k) => {
    checkShape(j.puzzle);
    const key = `${j.puzzle.n}:${j.puzzle.boxW}x${j.puzzle.boxH}`;
    const g = groups.get(key);
    if (g) g.push(k);
    else groups.set(key, [k]);
  });
  for (const indices of groups.values()) {
    await runShape(ctx, indices.map((k) => jobs[k]), params, opts, stats, t0, (k, r) => {
      results[indices[k]] = r;
    }, (count) => {
      done += count;
      progress?.(done, jobs.length);
    });
  }
  return results;
}

/** The kernel for one grid shape (compiled once per device and shape, then cached). */
function ilcaPipeline(ctx: GpuContext, p: SudokuPuzzle): Promise<GPUComputePipeline> {
  const n = p.n;
  return ctx.computePipeline({
    files: ['sudoku/ilca.wgsl'],
    entryPoint: 'ilca_runs',
    constants: { WORKGROUP_SIZE: WORKGROUP, N_SIDE: n, PLANE_WORDS: Math.ceil((n * n) / 32), PEERS: peerCount(p) },
  });
}

/** Compiles the kernels these puzzles' shapes need, so that a timed run counts solving, not compiling. */
export async function compileIlca(ctx: GpuContext, puzzles: SudokuPuzzle[]): Promise<void> {
  // shapes the ILCA refuses are left to runIlca's error
  const shapes = new Map(puzzles.filter((p) => !p.regions && !p.diagonal).map((p) => [`${p.n}:${p.boxW}x${p.boxH}`, p]));
  for (const p of shapes.values()) await ilcaPipeline(ctx, p);
}

async function runShape(
  ctx: GpuContext,
  jobs: { puzzle: SudokuPuzzle; seed: number }[],
  params: IlcaParams,
  opts: IlcaGpuOptions,
  stats: IlcaStats,
  t0: number,
  put: (k: number, r: IlcaResult) => void,
  onChunk: (count: number) => void,
): Promise<void> {
  const device = ctx.device;
  const p0 = jobs[0].puzzle;
  const n = p0.n;
  const cells = n * n;
  const planeWords = Math.ceil(cells / 32);
  const N = peerCount(p0);
  const t = topology(p0);
  const table = factorTable(p0, params);
  // the shader defers a finalized cell's rewards (ilca.wgsl `since`): they must never lower a weight
  if (N > 0 && !(table[N] >= 0)) throw new Error(`ilca: the reward r(|N|) = 1 + lr must be at least 1 (lr = ${params.lr})`);
  if (params.steps > ILCA_GPU_MAX_STEPS) throw new Error(`ilca: the GPU runs at most ${ILCA_GPU_MAX_STEPS} time-steps (ilcaRunCpu has no cap)`);
  // input: factor table, peer masks, cell info, puzzles, jobs (ilca.wgsl)
  const words: number[] = Array.from(new Uint32Array(table.buffer));
  const peersAt = words.length;
  for (let x = 0; x < cells; x++) {
    const m = new Array(planeWords).fill(0);
    for (const k of t.peers[x]) m[k >> 5] |= 1 << (k & 31);
    for (const w of m) words.push(w >>> 0);
  }
  const infoAt = words.length;
  for (let x = 0; x < cells; x++) words.push((Math.floor(x / n) | (x % n) << 8 | t.region[x] << 16) >>> 0);
  const puzzleAt = new Map<SudokuPuzzle, number>();
  for (const { puzzle } of jobs) {
    if (puzzleAt.has(puzzle)) continue;
    puzzleAt.set(puzzle, words.length);
    const { fixed, mask } = initialCells(puzzle, params);
    for (let x = 0; x < cells; x++) words.push(fixed[x], mask[x]);
  }
  const jobsAt = words.length;
  for (const j of jobs) words.push(puzzleAt.get(j.puzzle)!, j.seed >>> 0);

  const weightBytes = 4 * cells * n;
  const maxChunk = Math.max(1, Math.floor(Math.min(ctx.limits.maxStorageBufferBindingSize, 256 << 20) / weightBytes));
  const chunk = Math.min(jobs.length, opts.chunk ?? 8192, maxChunk);
  const stoppable = opts.deadline !== undefined || opts.signal !== undefined;
  const lanesWanted = opts.lanes ?? 64;
  const stride = 1 + cells;
  const pipeline = await ilcaPipeline(ctx, p0);
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
  const buffers: GPUBuffer[] = [];
  const make = (label: string, size: number, u: number) => {
    const b = device.createBuffer({ label: `sudoku.ilca.${label}`, size, usage: u });
    buffers.push(b);
    return b;
  };
  try {
    const input = make('input', 4 * words.length, usage);
    device.queue.writeBuffer(input, 0, Uint32Array.from(words));
    const uniform = make('params', 48, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
    const work = make('work', 16, usage);
    const weights = make('weights', weightBytes * chunk, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC);
    const out = make('results', 4 * stride * chunk, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC);
    const readOut = make('read', 4 * stride * chunk, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST);
    const readWeights = opts.withState ? make('read.weights', weightBytes * chunk, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST) : null;
    const bind = device.createBindGroup({
      label: 'sudoku.ilca.bind',
      layout: pipeline.getBindGroupLayout(0),
      entries: [uniform, input, weights, out, work].map((buffer, binding) => ({ binding, resource: { buffer } })),
    });
    // a stoppable call's chunks: two workgroups' runs first (both of SwiftShader's cores on a 2-core machine), then
    // sized by the last one's time, never below that
    const smallest = Math.min(chunk, 2 * WORKGROUP);
    let size = stoppable ? smallest : chunk;
    for (let first = 0, count = 0; first < jobs.length; first += count) {
      if (opts.signal?.aborted || (opts.deadline !== undefined && performance.now() >= opts.deadline)) {
        const ms = performance.now() - t0;
        for (let k = first; k < jobs.length; k++) put(k, { solved: false, steps: 0, values: new Uint8Array(0), ms, stopped: true });
        onChunk(jobs.length - first);
        return;
      }
      const started = performance.now();
      count = Math.min(size, jobs.length - first);
      device.queue.writeBuffer(uniform, 0, Uint32Array.from([count, first, params.steps, params.sr, params.capped ? 1 : 0, opts.withState ? 1 : 0, peersAt, infoAt, jobsAt, 0, 0, 0]));
      device.queue.writeBuffer(work, 0, new Uint32Array(4));
      const enc = device.createCommandEncoder({ label: 'sudoku.ilca' });
      const pass = enc.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, bind);
      pass.dispatchWorkgroups(Math.ceil(Math.min(lanesWanted, count) / WORKGROUP));
      pass.end();
      enc.copyBufferToBuffer(out, 0, readOut, 0, 4 * stride * count);
      if (readWeights) enc.copyBufferToBuffer(weights, 0, readWeights, 0, weightBytes * count);
      device.queue.submit([enc.finish()]);
      stats.dispatches++;
      await Promise.all([readOut.mapAsync(GPUMapMode.READ, 0, 4 * stride * count), readWeights?.mapAsync(GPUMapMode.READ, 0, weightBytes * count)]);
      stats.readbacks++;
      const r = new Uint32Array(readOut.getMappedRange(0, 4 * stride * count).slice(0));
      readOut.unmap();
      let w: Float32Array | null = null;
      if (readWeights) {
        w = new Float32Array(readWeights.getMappedRange(0, weightBytes * count).slice(0));
        readWeights.unmap();
      }
      const ms = performance.now() - t0;
      for (let k = 0; k < count; k++) {
        const at = k * stride;
        if (!(r[at] & ENDED)) throw new Error(`sudoku ilca: run ${first + k} came back without a result`);
        const solved = (r[at] & RESOLVED) !== 0;
        const steps = r[at] & 0x3fffffff;
        const values = Uint8Array.from(r.subarray(at + 1, at + stride));
        const result: IlcaResult = { solved, steps, values, ms };
        if (w) result.state = stateWords(jobs[first + k].puzzle, params, values, w.subarray(k * cells * n, (k + 1) * cells * n), solved ? steps - 1 : steps);
        put(first + k, result);
      }
      onChunk(count);
      if (stoppable) {
        const took = Math.max(1, performance.now() - started);
        size = Math.max(smallest, Math.min(chunk, Math.floor(count * Math.min(8, STOP_CHUNK_MS / took))));
      }
    }
  } finally {
    for (const b of buffers) b.destroy();
  }
}

/** A GPU run's weights and actions as the CPU twin's state words (givens flagged, others with the steps done). */
function stateWords(p: SudokuPuzzle, params: IlcaParams, values: Uint8Array, weights: Float32Array, stepsDone: number): Uint32Array {
  const n = p.n;
  const W = n + 1;
  const { fixed } = initialCells(p, params);
  const buf = new ArrayBuffer(n * n * W * 4);
  const floats = new Float32Array(buf);
  const words = new Uint32Array(buf);
  for (let x = 0; x < n * n; x++) {
    floats.set(weights.subarray(x * n, x * n + n), x * W);
    words[x * W + n] = fixed[x] ? (fixed[x] | GIVEN) >>> 0 : (values[x] | (stepsDone << 8)) >>> 0;
  }
  return words;
}
