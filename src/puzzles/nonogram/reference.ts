// The CPU reference for nonograms: the exact line "settle", the line automaton generation by generation (the twin
// of shaders/nonogram/line.wgsl), a complete solver (probing + backtracking, counting solutions up to 2) and the
// verifier. It is the test oracle, and the CPU solver the benchmarks put beside the GPU.
//
// Cells: 0 unknown, 1 filled, 2 empty (the GPU keeps the same two bits as two bit-planes).
//
// Settle (RL paper `003`, "Optimal solver for lines"; thesis 3.2.2, Algorithm 1): a cell of a line is decided when
// it has the same value in every placement of the clue's blocks that agrees with the line's known cells. Instead of
// enumerating placements (the thesis' CA walks through them one generation at a time, hence its 4,489 generations
// for a 10x10) we count them implicitly: F[j][i] = "blocks 0..j-1 fit in cells [0,i)", B[j][i] = "blocks j..k-1
// fit in [i,L)", each cell agreeing with the known cells. A cell can be empty iff some j has F[j][c] and
// B[j][c+1]; it can be filled iff some block j has a start s covering it with F on its left and B on its right.
// O(k*L) per line.
import type { Nonogram } from './codec.ts';

export const UNKNOWN = 0;
export const FILLED = 1;
export const EMPTY = 2;

/** Scratch arrays for settle(), grown as needed (one per solver; settle itself allocates nothing). */
export class LineScratch {
  f = new Uint8Array(64);
  b = new Uint8Array(64);
  emptyBefore = new Int32Array(64);
  cover = new Int32Array(64);
  canEmpty = new Uint8Array(64);

  ensure(k: number, len: number): void {
    const fb = (k + 1) * (len + 2);
    if (this.f.length < fb) {
      this.f = new Uint8Array(fb * 2);
      this.b = new Uint8Array(fb * 2);
    }
    if (this.emptyBefore.length < len + 2) {
      this.emptyBefore = new Int32Array((len + 2) * 2);
      this.cover = new Int32Array((len + 2) * 2);
      this.canEmpty = new Uint8Array((len + 2) * 2);
    }
  }
}

const defaultScratch = new LineScratch();

/**
 * Settles one line in place: `line[0..len)` holds 0/1/2 (read through `get`), `out` receives the settled line.
 * Returns false when no placement agrees with the known cells (a contradiction); `out` is then undefined.
 */
export function settle(clue: ArrayLike<number>, line: ArrayLike<number>, out: Uint8Array | number[], s: LineScratch = defaultScratch): boolean {
  const len = line.length;
  const k = clue.length;
  s.ensure(k, len);
  const W = len + 1; // row stride of F and B (i = 0..len)
  const { f, b, emptyBefore, cover, canEmpty } = s;
  emptyBefore[0] = 0;
  // no empty cell in [from, to) iff emptyBefore[to] === emptyBefore[from] (compared in place: a closure here was
  // made, and named under tsx, on every settle)
  for (let i = 0; i < len; i++) emptyBefore[i + 1] = emptyBefore[i] + (line[i] === EMPTY ? 1 : 0);

  // forward: F[j][i], blocks 0..j-1 placed in [0,i), every cell there not covered by a block is not filled
  f[0] = 1;
  for (let i = 1; i <= len; i++) f[i] = f[i - 1] && line[i - 1] !== FILLED ? 1 : 0;
  for (let j = 1; j <= k; j++) {
    const n = clue[j - 1];
    const row = j * W;
    const prev = (j - 1) * W;
    for (let i = 0; i <= len; i++) {
      let v = i >= 1 && line[i - 1] !== FILLED && f[row + i - 1] === 1;
      if (!v && i >= n && emptyBefore[i] === emptyBefore[i - n]) {
        const st = i - n; // block j-1 occupies [st, i)
        v = j === 1 ? f[st] === 1 : st >= 1 && line[st - 1] !== FILLED && f[prev + st - 1] === 1;
      }
      f[row + i] = v ? 1 : 0;
    }
  }
  if (!f[k * W + len]) return false;

  // backward: B[j][i], blocks j..k-1 placed in [i,len)
  b[k * W + len] = 1;
  for (let i = len - 1; i >= 0; i--) b[k * W + i] = b[k * W + i + 1] && line[i] !== FILLED ? 1 : 0;
  for (let j = k - 1; j >= 0; j--) {
    const n = clue[j];
    const row = j * W;
    const next = (j + 1) * W;
    b[row + len] = 0;
    for (let i = len - 1; i >= 0; i--) {
      let v = line[i] !== FILLED && b[row + i + 1] === 1;
      if (!v && i + n <= len && emptyBefore[i + n] === emptyBefore[i]) {
        const end = i + n; // block j occupies [i, end)
        v = j === k - 1 ? b[next + end] === 1 : end < len && line[end] !== FILLED && b[next + end + 1] === 1;
      }
      b[row + i] = v ? 1 : 0;
    }
  }

  // a cell can be empty when it sits in a gap j: blocks 0..j-1 on its left, j..k-1 on its right
  for (let c = 0; c < len; c++) {
    let e = 0;
    if (line[c] !== FILLED) {
      for (let j = 0; j <= k; j++) {
        if (f[j * W + c] && b[j * W + c + 1]) {
          e = 1;
          break;
        }
      }
    }
    canEmpty[c] = e;
    cover[c] = 0;
  }
  cover[len] = 0;
  // a cell can be filled when some block j can start at s <= c < s + n in a full placement
  for (let j = 0; j < k; j++) {
    const n = clue[j];
    for (let st = 0; st + n <= len; st++) {
      if (emptyBefore[st + n] !== emptyBefore[st]) continue;
      const left = j === 0 ? f[st] === 1 : st >= 1 && line[st - 1] !== FILLED && f[j * W + st - 1] === 1;
      if (!left) continue;
      const end = st + n;
      const right = j === k - 1 ? b[k * W + end] === 1 : end < len && line[end] !== FILLED && b[(j + 1) * W + end + 1] === 1;
      if (!right) continue;
      cover[st]++;
      cover[end]--;
    }
  }
  let covered = 0;
  for (let c = 0; c < len; c++) {
    covered += cover[c];
    const canFill = covered > 0;
    if (line[c] !== UNKNOWN) out[c] = line[c];
    else if (!canEmpty[c]) out[c] = FILLED;
    else if (!canFill) out[c] = EMPTY;
    else out[c] = UNKNOWN;
  }
  return true;
}

/** Settle by enumerating every placement: exponential, for tests of settle() only. */
export function settleBrute(clue: number[], line: ArrayLike<number>): Uint8Array | null {
  const len = line.length;
  const seenFilled = new Uint8Array(len);
  const seenEmpty = new Uint8Array(len);
  let any = false;
  const cur = new Uint8Array(len);
  const place = (j: number, from: number) => {
    if (j === clue.length) {
      for (let c = 0; c < len; c++) if (line[c] !== UNKNOWN && line[c] !== (cur[c] ? FILLED : EMPTY)) return;
      any = true;
      for (let c = 0; c < len; c++) (cur[c] ? seenFilled : seenEmpty)[c] = 1;
      return;
    }
    for (let st = from; st + clue[j] <= len; st++) {
      for (let c = st; c < st + clue[j]; c++) cur[c] = 1;
      place(j + 1, st + clue[j] + 1);
      for (let c = st; c < st + clue[j]; c++) cur[c] = 0;
    }
  };
  place(0, 0);
  if (!any) return null;
  const out = new Uint8Array(len);
  for (let c = 0; c < len; c++) out[c] = seenFilled[c] && seenEmpty[c] ? UNKNOWN : seenFilled[c] ? FILLED : EMPTY;
  return out;
}

/**
 * Placements of the clue's blocks that agree with the line's known cells (0/1/2), by a suffix DP: after block j,
 * `next[i]` = placements of blocks j..k-1 in cells [i, len). Exact in a u32 for lines up to 31 cells (at most
 * C(32, 16) < 2^30), as shaders/nonogram/count.wgsl computes it.
 */
export function countPlacements(clue: ArrayLike<number>, line: ArrayLike<number>): number {
  const len = line.length;
  let next = new Array<number>(len + 1).fill(0);
  let cur = new Array<number>(len + 1).fill(0);
  next[len] = 1;
  for (let i = len - 1; i >= 0; i--) next[i] = line[i] !== FILLED ? next[i + 1] : 0;
  for (let j = clue.length - 1; j >= 0; j--) {
    const n = clue[j];
    cur[len] = 0;
    for (let i = len - 1; i >= 0; i--) {
      let v = line[i] !== FILLED ? cur[i + 1] : 0;
      let fits = i + n <= len;
      for (let c = i; fits && c < i + n; c++) fits = line[c] !== EMPTY;
      if (fits) v += i + n === len ? next[len] : line[i + n] !== FILLED ? next[i + n + 1] : 0;
      cur[i] = v;
    }
    [next, cur] = [cur, next];
  }
  return next[0];
}

/** log2(x) in fixed point with 8 fraction bits, Mitchell's approximation (the bits after the leading one as the
 * fraction): integers, so the kernel (count.wgsl) and this twin compare the same numbers; 0 for 0. Counts past a
 * u32 (lines over 31 cells, the rounds solver's) take the float log2. */
export function log2Fixed(x: number): number {
  if (x === 0) return 0;
  if (x >= 2 ** 32) return Math.floor(Math.log2(x) * 256);
  const lead = 31 - Math.clz32(x);
  return lead * 256 + ((((x << (31 - lead)) >>> 0) >>> 23) & 0xff);
}

/**
 * How likely a branch's child is to hold a solution: the placements left to the row and the column through cell i
 * (log2Fixed of each count, summed). `cellAt(j)` reads cell j of the child.
 */
export function placementsAt(p: Nonogram, cellAt: (j: number) => number, i: number): number {
  const w = p.width;
  const r = Math.floor(i / w);
  const c = i % w;
  const row = Array.from({ length: w }, (_, x) => cellAt(r * w + x));
  const column = Array.from({ length: p.height }, (_, y) => cellAt(y * w + c));
  return log2Fixed(countPlacements(p.rows[r], row)) + log2Fixed(countPlacements(p.columns[c], column));
}

/** A branch's two children on cell i: their cells (`cellAt`) and how many they know. */
export interface BranchChild {
  cellAt: (j: number) => number;
  known: number;
}

/**
 * Does the branch on cell i search its empty child first? The likelier child first (more placements on the cell's
 * row and column, placementsAt); on a tie, or with `byPlacements` false (solveCpu's odd runs), the one that decided
 * fewer cells; then the filled one. lane.wgsl orders its children the same way.
 */
export function emptyFirst(p: Nonogram, i: number, filled: BranchChild, empty: BranchChild, byPlacements = true): boolean {
  const likelier = byPlacements ? placementsAt(p, empty.cellAt, i) - placementsAt(p, filled.cellAt, i) : 0;
  return likelier > 0 || (likelier === 0 && empty.known < filled.known);
}

// ---------------------------------------------------------------------------------------------------------------
// The line automaton, generation by generation (twin of shaders/nonogram/line.wgsl).
//
// A generation is a rows pass then a columns pass. In each pass every line whose cells changed since it was last
// settled is settled again; a line that did not change would settle to itself, so skipping it changes no result.
// A pass reads only what the previous pass wrote: a row pass writes cells that only columns read next, and the
// reverse, so the outcome does not depend on the order lines are visited in (on the GPU: in parallel).

export type LineStatus = 'solved' | 'stalled' | 'contradiction';

export interface LineRun {
  status: LineStatus;
  /** generations that changed at least one cell (the engine's count for a grid that reaches a fixpoint) */
  generations: number;
  /** line settles performed (lines visited because they were dirty) */
  settles: number;
}

export class LineSolver {
  readonly w: number;
  readonly h: number;
  private readonly scratch = new LineScratch();
  private readonly lineIn: Uint8Array;
  private readonly lineOut: Uint8Array;
  readonly rowDirty: Uint8Array;
  readonly colDirty: Uint8Array;

  constructor(readonly puzzle: Nonogram) {
    this.w = puzzle.width;
    this.h = puzzle.height;
    const m = Math.max(this.w, this.h);
    this.lineIn = new Uint8Array(m);
    this.lineOut = new Uint8Array(m);
    this.rowDirty = new Uint8Array(this.h);
    this.colDirty = new Uint8Array(this.w);
  }

  /** Marks every line dirty (a fresh puzzle). */
  allDirty(): void {
    this.rowDirty.fill(1);
    this.colDirty.fill(1);
  }

  /** Marks the row and column of cell i dirty (a probe or branch set it). */
  touch(i: number): void {
    this.rowDirty[Math.floor(i / this.w)] = 1;
    this.colDirty[i % this.w] = 1;
  }

  /**
   * Runs generations on `cells` (in place) until a fixpoint, a contradiction or `maxGenerations`. Past `deadline`
   * (performance.now()), or once `stopped()`, it throws a Timeout: one run on a 700x700 takes ~30 s here.
   */
  run(cells: Uint8Array, maxGenerations = Infinity, deadline = Infinity, stopped?: () => boolean): LineRun {
    let generations = 0;
    let settles = 0;
    const { w, h } = this;
    for (;;) {
      let changed = false;
      for (let pass = 0; pass < 2; pass++) {
        const rows = pass === 0;
        const count = rows ? h : w;
        const len = rows ? w : h;
        const dirty = rows ? this.rowDirty : this.colDirty;
        const other = rows ? this.colDirty : this.rowDirty;
        const clues = rows ? this.puzzle.rows : this.puzzle.columns;
        const lineIn = this.lineIn.subarray(0, len);
        const lineOut = this.lineOut.subarray(0, len);
        for (let l = 0; l < count; l++) {
          if (!dirty[l]) continue;
          dirty[l] = 0;
          settles++;
          if ((settles & 63) === 0) late(deadline, stopped);
          const base = rows ? l * w : l;
          const step = rows ? 1 : w;
          for (let c = 0; c < len; c++) lineIn[c] = cells[base + c * step];
          if (!settle(clues[l], lineIn, lineOut, this.scratch)) {
            this.rowDirty.fill(0);
            this.colDirty.fill(0);
            return { status: 'contradiction', generations: generations + 1, settles };
          }
          for (let c = 0; c < len; c++) {
            if (lineOut[c] !== lineIn[c]) {
              cells[base + c * step] = lineOut[c];
              other[c] = 1;
              changed = true;
            }
          }
        }
      }
      if (!changed) break;
      generations++;
      if (generations >= maxGenerations) return { status: 'stalled', generations, settles };
    }
    return { status: cells.includes(UNKNOWN) ? 'stalled' : 'solved', generations, settles };
  }
}

/** The puzzle's starting cells: its givens, or all unknown. */
export function initialCells(p: Nonogram): Uint8Array {
  return p.givens ? Uint8Array.from(p.givens) : new Uint8Array(p.width * p.height);
}

/** Line logic alone from the starting cells. */
export function lineSolve(p: Nonogram, maxGenerations = Infinity): LineRun & { cells: Uint8Array } {
  const cells = initialCells(p);
  const solver = new LineSolver(p);
  solver.allDirty();
  return { ...solver.run(cells, maxGenerations), cells };
}

// ---------------------------------------------------------------------------------------------------------------
// The complete CPU solver: line logic, then probing (set an unknown cell each way and run line logic: a
// contradiction fixes the cell the other way; cells both outcomes agree on are fixed too), then search (branch on
// the probed cell whose weaker outcome decides the most cells), until the puzzle is solved and uniqueness is proven
// (the whole tree is searched unless a second solution turns up).

export type Level = 'line' | 'probe' | 'search';

export interface CpuSolveResult {
  status: 'solved' | 'multiple' | 'contradiction' | 'unsolved';
  solution?: string;
  solution2?: string;
  /** the weakest means that sufficed: line logic alone, probing (no guess), or search */
  level?: Level;
  probes: number;
  branches: number;
  settles: number;
  /** generations of line logic on the puzzle itself before probing */
  generations: number;
  reason?: string;
}

export interface CpuSolveOptions {
  /** stop after this many solutions (2 proves uniqueness or its absence) */
  maxSolutions?: number;
  /** search nodes cap */
  maxNodes?: number;
  /** probes a search runs before it starts again from the puzzle with the other child order, twice as long each time
   * (default RESTART_AFTER; 0: never) */
  restartAfter?: number;
  timeoutMs?: number;
  /** checked where the deadline is: true stops the search as a timeout does, with reason 'interrupted' (a worker
   * thread's view of Ctrl-C: cpu-worker.ts) */
  stopped?: () => boolean;
  /** how a probed cell is scored as the branch (default 'weaker') */
  branchScore?: BranchScore;
  /** below a run's root, the `weaker` search branches at once on a cell scoring this (default EARLY_BRANCH_SCORE;
   * Infinity: never, every node probes to its fixpoint) */
  earlyBranchScore?: number;
}

/**
 * How the search scores a probed cell as the branch, from the cells its two copies decide beyond the node's:
 * `weaker` the fewer of the two (fail first), `sum` both together. On the same TAAI puzzles the two make trees of very
 * different sizes (either is 10-25x cheaper on some), which is what a second search joining a hard puzzle relies on
 * (rounds.ts, the portfolio). The kernel takes a job's score as its index here (lane.wgsl, job.wgsl `variant`).
 */
export const BRANCH_SCORES = ['weaker', 'sum'] as const;
export type BranchScore = (typeof BRANCH_SCORES)[number];

const toSolution = (cells: Uint8Array) => Array.from(cells, (c) => (c === FILLED ? '1' : '0')).join('');

/**
 * Probes a search runs before it starts again from the puzzle with the other child order (fewer decided cells first,
 * then placements again, ...), each run twice as long as the one before. Either order alone leaves a few TAAI puzzles
 * 10-100x dearer than the other does (#908: 29,360 probes with fewer-decided-cells first, 2,703,078 with placements
 * first); alternating bounds that at a few times the cheaper. Runs after the 16th never end.
 */
export const RESTART_AFTER = 100_000;

/**
 * Below a run's root, the first search (`weaker`) branches as soon as a probed cell's weaker copy decides this many
 * cells, leaving the rest of the node's probe set unprobed: most scores are a few cells, and the probes after such a
 * cell mostly serve the choice. The root still probes to its fixpoint (its facts serve the whole tree). CPU twin, TAAI
 * first solutions, 400k cap: #305-995 by 10 4.59M probes against 4.67M, #300-990 by 10 4.59M against 4.83M, each
 * puzzle ~0.92x (geometric mean; about 50 better, 13 worse). The second search's sum keeps its full choice: with it
 * the pair's cost model lost puzzles at the cap (EXPERIMENTS.md).
 */
export const EARLY_BRANCH_SCORE = 15;

/** The probe limit of run `restarts` (0 = the first), as the kernel computes it; Infinity: none. */
export function runLimit(restartAfter: number, restarts: number): number {
  return restartAfter === 0 || restarts >= 15 ? Infinity : restartAfter * 2 ** restarts;
}

export function solveCpu(p: Nonogram, opts: CpuSolveOptions = {}): CpuSolveResult {
  const maxSolutions = opts.maxSolutions ?? 2;
  const maxNodes = opts.maxNodes ?? Infinity;
  const scoreBoth = opts.branchScore === 'sum';
  const earlyBranchScore = opts.earlyBranchScore ?? EARLY_BRANCH_SCORE;
  const deadline = opts.timeoutMs !== undefined ? performance.now() + opts.timeoutMs : Infinity;
  const solver = new LineSolver(p);
  const n = p.width * p.height;
  const res: CpuSolveResult = { status: 'unsolved', probes: 0, branches: 0, settles: 0, generations: 0 };
  const solutions: string[] = [];
  const addSolution = (cells: Uint8Array) => {
    if (solutions.length >= maxSolutions) return; // both probe copies of a cell may be complete
    const s = toSolution(cells);
    if (!solutions.includes(s)) solutions.push(s);
  };

  const run = (cells: Uint8Array) => {
    const r = solver.run(cells, Infinity, deadline, opts.stopped);
    res.settles += r.settles;
    return r;
  };

  const restartAfter = opts.restartAfter ?? RESTART_AFTER;
  // the run: how many restarts came before it (its child order and probe limit) and the probes before it
  let restarts = 0;
  let runStart = 0;
  // the puzzle's own cells through line logic: the root of every run
  const startRoot = () => {
    const cells = initialCells(p);
    solver.allDirty();
    return { cells, line: run(cells) };
  };
  let start: ReturnType<typeof startRoot>;
  try {
    start = startRoot();
  } catch (e) {
    if (!(e instanceof Timeout)) throw e;
    return { ...res, status: 'unsolved', reason: e.message, level: 'line' };
  }
  let root = start.cells;
  const first = start.line;
  res.generations = first.generations;
  if (first.status === 'contradiction') return { ...res, status: 'contradiction', level: 'line' };
  if (first.status === 'solved') {
    addSolution(root);
    return finish('line');
  }

  const w = p.width;
  const probe = (cells: Uint8Array, i: number, v: number): { cells: Uint8Array; ok: boolean } => {
    const c = Uint8Array.from(cells);
    c[i] = v;
    solver.rowDirty.fill(0);
    solver.colDirty.fill(0);
    solver.rowDirty[Math.floor(i / w)] = 1;
    solver.colDirty[i % w] = 1;
    res.probes++;
    return { cells: c, ok: run(c).status !== 'contradiction' };
  };
  const known = (c: Uint8Array) => {
    let k = 0;
    for (let i = 0; i < n; i++) if (c[i]) k++;
    return k;
  };

  // Probing (a node's probe set `open`, 1 = probe that cell): cells are probed in index order, in passes, until the
  // set is empty. A cell a probe changes puts the unknown cells of its row and column in the set (their outcomes may
  // have changed: Wu et al.'s fully probing only revisits cells near news); a new node's set is the cells of the
  // lines its branch changed (the root's: every cell). When the set is empty, branch on the best cell probed since
  // the last change (the outcomes of those still hold); with none, probe every unknown cell again. Below the root,
  // the `weaker` search branches at once on a cell scoring earlyBranchScore.
  // Returns false on a contradiction; leaves the best branching cell's outcomes in `best`.
  let searched = false;
  let nodes = 0;
  const h = p.height;
  const markLines = (open: Uint8Array, cells: Uint8Array, before: Uint8Array) => {
    const rows = new Uint8Array(h);
    const cols = new Uint8Array(w);
    for (let c = 0; c < n; c++) {
      if (before[c] === UNKNOWN && cells[c] !== UNKNOWN) {
        rows[Math.floor(c / w)] = 1;
        cols[c % w] = 1;
      }
    }
    for (let c = 0; c < n; c++) if (cells[c] === UNKNOWN && (rows[Math.floor(c / w)] || cols[c % w])) open[c] = 1;
  };
  const probeAll = (cells: Uint8Array, open: Uint8Array, isRoot: boolean): { ok: boolean; best?: { a: Uint8Array; b: Uint8Array; cell: number } } => {
    let best: { a: Uint8Array; b: Uint8Array; score: number; cell: number } | undefined;
    let base = known(cells);
    for (;;) {
      for (let any = true; any; ) {
        any = false;
        for (let i = 0; i < n; i++) {
          if (!open[i]) continue;
          open[i] = 0;
          if (cells[i] !== UNKNOWN) continue;
          any = true;
          late(deadline, opts.stopped);
          if (res.probes - runStart >= runLimit(restartAfter, restarts)) throw new Restart();
          const a = probe(cells, i, FILLED);
          const b = probe(cells, i, EMPTY);
          if (!a.ok && !b.ok) return { ok: false };
          // the node's cells before news (markLines compares with them), taken only when there is news
          let before: Uint8Array;
          if (!a.ok || !b.ok) {
            before = Uint8Array.from(cells);
            cells.set((a.ok ? a : b).cells); // the surviving outcome holds: everything it decided is forced
          } else {
            if (!a.cells.includes(UNKNOWN)) addSolution(a.cells);
            if (!b.cells.includes(UNKNOWN)) addSolution(b.cells);
            if (solutions.length >= maxSolutions) return { ok: true };
            let agreed: Uint8Array | undefined;
            solver.rowDirty.fill(0);
            solver.colDirty.fill(0);
            for (let c = 0; c < n; c++) {
              if (cells[c] === UNKNOWN && a.cells[c] !== UNKNOWN && a.cells[c] === b.cells[c]) {
                agreed ??= Uint8Array.from(cells);
                cells[c] = a.cells[c];
                solver.touch(c);
              }
            }
            if (!agreed) {
              const score = scoreBoth ? known(a.cells) + known(b.cells) - 2 * base : Math.min(known(a.cells), known(b.cells)) - base;
              if (!best || score > best.score) best = { a: a.cells, b: b.cells, score, cell: i };
              if (!isRoot && !scoreBoth && best.score >= earlyBranchScore) return { ok: true, best };
              continue;
            }
            // cells both outcomes agree on are forced; let line logic spread them from their lines before the next
            // probe (the fixpoint is the same from any dirty set that covers the news)
            if (run(cells).status === 'contradiction') return { ok: false };
            before = agreed;
          }
          // news: earlier outcomes no longer hold; the cells near it are probed (again)
          best = undefined;
          base = known(cells);
          markLines(open, cells, before);
        }
      }
      if (!cells.includes(UNKNOWN)) {
        addSolution(cells);
        return { ok: true };
      }
      if (best) return { ok: true, best };
      for (let c = 0; c < n; c++) if (cells[c] === UNKNOWN) open[c] = 1;
    }
  };

  const dfs = (cells: Uint8Array, open: Uint8Array, isRoot = false): void => {
    if (solutions.length >= maxSolutions) return;
    if (++nodes > maxNodes) throw new Timeout('capped');
    const r = probeAll(cells, open, isRoot);
    if (!r.ok || !r.best || solutions.length >= maxSolutions) return;
    searched = true;
    res.branches += 2;
    // each child probes the cells on the lines its branch changed
    const openA = new Uint8Array(n);
    markLines(openA, r.best.a, cells);
    const openB = new Uint8Array(n);
    markLines(openB, r.best.b, cells);
    // the likelier child first (emptyFirst; every other run, fewer decided cells first). TAAI 2011, first solutions,
    // 140 puzzles (#300-995, every 5th; CPU twin, 400k probe cap): 9.50M probes against 11.68M with fewer decided
    // cells first alone (which was 10% better than filled first).
    const { a, b, cell } = r.best;
    if (emptyFirst(p, cell, { cellAt: (j) => a[j], known: known(a) }, { cellAt: (j) => b[j], known: known(b) }, restarts % 2 === 0)) {
      dfs(r.best.b, openB);
      dfs(r.best.a, openA);
    } else {
      dfs(r.best.a, openA);
      dfs(r.best.b, openB);
    }
  };

  try {
    for (;;) {
      try {
        dfs(root, root.map((c) => (c === UNKNOWN ? 1 : 0)), true);
        break;
      } catch (e) {
        if (!(e instanceof Restart)) throw e;
        // again from the puzzle (its line logic counted again), the other order, twice the probes; solutions found
        // so far stay found
        restarts++;
        runStart = res.probes;
        root = startRoot().cells;
      }
    }
  } catch (e) {
    if (!(e instanceof Timeout)) throw e;
    // the level reached so far, as the lanes kernel reports a suspended search's
    return { ...res, status: solutions.length >= 2 ? 'multiple' : 'unsolved', reason: e.message, level: searched ? 'search' : 'probe', solution: solutions[0], solution2: solutions[1] };
  }
  return finish(searched ? 'search' : 'probe');

  function finish(level: Level): CpuSolveResult {
    if (solutions.length === 0) return { ...res, status: 'contradiction', level };
    if (solutions.length === 1) return { ...res, status: 'solved', level, solution: solutions[0] };
    return { ...res, status: 'multiple', level, solution: solutions[0], solution2: solutions[1] };
  }
}

/** A run's probe limit is reached: the search starts again (solveCpu's restarts). */
class Restart extends Error {}

class Timeout extends Error {
  constructor(reason = 'timeout') {
    super(reason);
  }
}

/** Throws a Timeout past `deadline`, or an 'interrupted' one once `stopped()`. */
function late(deadline: number, stopped?: () => boolean): void {
  if (stopped?.()) throw new Timeout('interrupted');
  if (performance.now() > deadline) throw new Timeout();
}

// ---------------------------------------------------------------------------------------------------------------
// Verifier

/** Does `solution` (row-major 0/1) satisfy every clue (and the givens)? */
export function verify(p: Nonogram, solution: string): boolean {
  const { width: w, height: h } = p;
  if (solution.length !== w * h || /[^01]/.test(solution)) return false;
  const runs = (get: (i: number) => boolean, len: number) => {
    const out: number[] = [];
    let run = 0;
    for (let i = 0; i < len; i++) {
      if (get(i)) run++;
      else if (run) out.push(run), (run = 0);
    }
    if (run) out.push(run);
    return out;
  };
  const same = (a: number[], b: number[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  for (let r = 0; r < h; r++) if (!same(runs((i) => solution[r * w + i] === '1', w), p.rows[r])) return false;
  for (let c = 0; c < w; c++) if (!same(runs((i) => solution[i * w + c] === '1', h), p.columns[c])) return false;
  if (p.givens) {
    for (let i = 0; i < w * h; i++) {
      if (p.givens[i] === FILLED && solution[i] !== '1') return false;
      if (p.givens[i] === EMPTY && solution[i] !== '0') return false;
    }
  }
  return true;
}
