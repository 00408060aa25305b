// The CPU complete solver: line-by-line propagation of Methods 1-4 (thesis 3.3.1) with a queue of changed lines,
// optionally probing (Method 5: set an unknown cell each way; a way that propagates to a contradiction fixes the
// cell the other way, and cells both ways agree on are fixed too), then depth-first branching on a cell of the
// line with the fewest unknowns, in runs that restart (see `solve`). Counts solutions up to a limit (2 answers "is it
// unique?"). It is the baseline the GPU is measured against (bench/binary.ts), the generator's uniqueness test, and
// a second opinion in the tests; it shares no code with the automata.
import { UNKNOWN, type BinaryPuzzle } from './codec.ts';
import { LEVEL_METHODS, METHODS_ALL, M_COUNT, M_PAIRS, M_TRIOS, M_UNIQUE } from './reference.ts';
import { rng } from '../random.ts';

/** branch points of a search's first run; each restart doubles it (BinarySearch.solve) */
export const RESTART_BRANCHES = 64;

/**
 * The way to try first at a branch point: the value the cell's row and column together still need more of (each
 * line holds as many 0s as 1s), undefined on a tie (the run's order decides). The lanes (lane.wgsl first_way), the
 * batch path (solver.ts) and this search all branch so. Why: a way taken against the lines' counts dooms a column
 * far below, found only near the bottom. Empty 28x28 grids took over 300,000 fixpoint runs in the lanes at half of
 * eight job positions (the later runs' hashed ways), 115,000-122,000 at all eight with this order; this search took
 * 14,080 branch points and 22.9 s on one, 868 and 3.6 s with it (2026-11-29).
 */
export function firstWay(width: number, height: number, cells: Uint8Array, cell: number): number | undefined {
  const x = cell % width;
  const y = (cell - x) / width;
  let ones = 0;
  let zeros = 0;
  const count = (v: number) => {
    if (v === 1) ones++;
    else if (v === 0) zeros++;
  };
  for (let i = 0; i < width; i++) count(cells[y * width + i]);
  for (let j = 0; j < height; j++) count(cells[j * width + x]);
  return ones === zeros ? undefined : ones < zeros ? 1 : 0;
}

/** thrown (one preallocated object: no stack walk) when propagation meets a broken rule */
const CONTRADICTION = new Error('contradiction');
/** thrown when opts.stopped() says stop */
const STOPPED = new Error('stopped');
/** probes between looks at opts.stopped() (a probe of a 64x64 grid is ~10 us) */
const PROBES_PER_LOOK = 64;

/** A search node: cells and line counts, copied on branching (a 14x14 grid is 196 bytes: copying beats undo). */
class State {
  constructor(
    readonly cells: Uint8Array,
    /** per line: rows 0..h-1, then columns h..h+w-1 */
    readonly ones: Int32Array,
    readonly zeros: Int32Array,
  ) {}
  clone(): State {
    return new State(this.cells.slice(), this.ones.slice(), this.zeros.slice());
  }
}

export interface SearchResult {
  /** solutions found, at most `limit` */
  count: number;
  solutions: Uint8Array[];
  /** branch points visited */
  branches: number;
  /** probes made (one cell set one way and propagated) */
  probes: number;
  /** opts.stopped() ended it: `solutions` are what it had found, not all there are */
  stopped?: boolean;
}

export interface SearchOptions {
  /** Methods used by propagation (M_* bits); default all */
  methods?: number;
  /** probe before branching (Method 5); default true */
  probe?: boolean;
  /** looked at every few probes: true stops the search (solve() then says `stopped`, with what it found) */
  stopped?: () => boolean;
  /** value order at branch points: random when given (the generator), 0 before 1 otherwise */
  random?: () => number;
}

export class BinarySearch {
  readonly w: number;
  readonly h: number;
  readonly lines: number;
  readonly methods: number;
  private readonly probing: boolean;
  private readonly random?: () => number;
  private readonly stopped?: () => boolean;
  private readonly queue: Int32Array;
  private readonly queued: Uint8Array;
  private head = 0;
  private tail = 0;
  private budget = Infinity;
  /** the value order of this run's branch points (undefined: 0 first) */
  private order?: () => number;
  branches = 0;
  probes = 0;

  constructor(
    readonly puzzle: BinaryPuzzle,
    opts: SearchOptions = {},
  ) {
    this.w = puzzle.width;
    this.h = puzzle.height;
    this.lines = this.w + this.h;
    this.methods = opts.methods ?? METHODS_ALL;
    this.probing = opts.probe ?? true;
    this.random = opts.random;
    this.stopped = opts.stopped;
    this.queue = new Int32Array(this.lines + 1);
    this.queued = new Uint8Array(this.lines);
  }

  /** line l: first cell, step between cells, length */
  private base(l: number) {
    return l < this.h ? l * this.w : l - this.h;
  }
  private step(l: number) {
    return l < this.h ? 1 : this.w;
  }
  private len(l: number) {
    return l < this.h ? this.w : this.h;
  }

  private enqueue(l: number) {
    if (this.queued[l]) return;
    this.queued[l] = 1;
    this.queue[this.tail] = l;
    this.tail = this.tail + 1 === this.queue.length ? 0 : this.tail + 1;
  }

  private clearQueue() {
    this.head = this.tail = 0;
    this.queued.fill(0);
  }

  private set(s: State, i: number, v: number) {
    const c = s.cells[i];
    if (c !== UNKNOWN) {
      if (c !== v) throw CONTRADICTION;
      return;
    }
    s.cells[i] = v;
    const y = (i / this.w) | 0;
    const col = this.h + i - y * this.w;
    if (v) (s.ones[y]++, s.ones[col]++);
    else (s.zeros[y]++, s.zeros[col]++);
    this.enqueue(y);
    this.enqueue(col);
    if (this.puzzle.distinct) {
      if (s.ones[y] + s.zeros[y] === this.w) this.completed(s, y);
      if (s.ones[col] + s.zeros[col] === this.h) this.completed(s, col);
    }
  }

  /** Rule 3 for a line that just became complete; Method 4 may now apply to the lines of its direction */
  private completed(s: State, l: number) {
    const n = this.len(l);
    const st = this.step(l);
    const b = this.base(l);
    const first = l < this.h ? 0 : this.h;
    const last = l < this.h ? this.h : this.lines;
    for (let o = first; o < last; o++) {
      if (o === l) continue;
      const known = s.ones[o] + s.zeros[o];
      if (known === n) {
        const ob = this.base(o);
        let same = true;
        for (let i = 0; i < n && same; i++) same = s.cells[b + i * st] === s.cells[ob + i * st];
        if (same) throw CONTRADICTION;
      } else if (known === n - 2) this.enqueue(o);
    }
  }

  /** the state of the puzzle's givens, propagated; null when they already break a rule */
  initial(): State | null {
    const p = this.puzzle;
    const s = new State(new Uint8Array(p.width * p.height).fill(UNKNOWN), new Int32Array(this.lines), new Int32Array(this.lines));
    try {
      for (let i = 0; i < p.cells.length; i++) if (p.cells[i] !== UNKNOWN) this.set(s, i, p.cells[i]);
    } catch (e) {
      if (e !== CONTRADICTION) throw e;
      this.clearQueue();
      return null;
    }
    return this.propagate(s) ? s : null;
  }

  /** Propagates to the fixpoint; false on a contradiction. */
  private propagate(s: State): boolean {
    try {
      while (this.head !== this.tail) {
        const l = this.queue[this.head];
        this.head = this.head + 1 === this.queue.length ? 0 : this.head + 1;
        this.queued[l] = 0;
        this.line(s, l);
      }
      return true;
    } catch (e) {
      if (e !== CONTRADICTION) throw e;
      this.clearQueue();
      return false;
    }
  }

  /** s with cell i set to v, propagated; null on a contradiction */
  private assume(s: State, i: number, v: number): State | null {
    const c = s.clone();
    try {
      this.set(c, i, v);
    } catch (e) {
      if (e !== CONTRADICTION) throw e;
      this.clearQueue();
      return null;
    }
    return this.propagate(c) ? c : null;
  }

  private line(s: State, l: number) {
    const b = this.base(l);
    const st = this.step(l);
    const n = this.len(l);
    const cells = s.cells;
    const half = n / 2;
    if (s.ones[l] > half || s.zeros[l] > half) throw CONTRADICTION;
    const m = this.methods;
    // Methods 1-2 (and three equal known cells, a contradiction whatever the methods)
    for (let i = 0; i < n; i++) {
      const c = cells[b + i * st];
      const a1 = i > 0 ? cells[b + (i - 1) * st] : UNKNOWN;
      const a2 = i > 1 ? cells[b + (i - 2) * st] : UNKNOWN;
      if (c !== UNKNOWN) {
        if (c === a1 && c === a2) throw CONTRADICTION;
        continue;
      }
      const b1 = i + 1 < n ? cells[b + (i + 1) * st] : UNKNOWN;
      const b2 = i + 2 < n ? cells[b + (i + 2) * st] : UNKNOWN;
      if (m & M_PAIRS) {
        if (a1 !== UNKNOWN && a1 === a2) this.set(s, b + i * st, 1 - a1);
        if (b1 !== UNKNOWN && b1 === b2) this.set(s, b + i * st, 1 - b1);
      }
      if (m & M_TRIOS && a1 !== UNKNOWN && a1 === b1) this.set(s, b + i * st, 1 - a1);
    }
    // Method 3
    if (m & M_COUNT && s.ones[l] + s.zeros[l] < n && (s.ones[l] === half || s.zeros[l] === half)) {
      const fill = s.ones[l] === half ? 0 : 1;
      for (let i = 0; i < n; i++) if (cells[b + i * st] === UNKNOWN) this.set(s, b + i * st, fill);
    }
    // Method 4: two unknowns, and completing them like a complete line would repeat it
    if (!(m & M_UNIQUE) || !this.puzzle.distinct || n - s.ones[l] - s.zeros[l] !== 2) return;
    const first = l < this.h ? 0 : this.h;
    const last = l < this.h ? this.h : this.lines;
    for (let o = first; o < last; o++) {
      if (o === l || s.ones[o] + s.zeros[o] !== n) continue;
      const ob = this.base(o);
      let agree = true;
      for (let i = 0; i < n && agree; i++) {
        const c = cells[b + i * st];
        agree = c === UNKNOWN || c === cells[ob + i * st];
      }
      if (!agree) continue;
      for (let i = 0; i < n; i++) if (cells[b + i * st] === UNKNOWN) this.set(s, b + i * st, 1 - cells[ob + i * st]);
      return;
    }
  }

  /**
   * Method 5 on the CPU: probes every unknown cell both ways until a whole sweep fixes nothing. Returns the
   * stronger state, or null when the node has no solution.
   */
  private probeAll(s: State): State | null {
    for (let fixedSome = true; fixedSome; ) {
      fixedSome = false;
      for (let i = 0; i < s.cells.length; i++) {
        if (s.cells[i] !== UNKNOWN) continue;
        this.probes += 2;
        if (this.stopped && this.probes % PROBES_PER_LOOK === 0 && this.stopped()) throw STOPPED;
        const c0 = this.assume(s, i, 0);
        const c1 = this.assume(s, i, 1);
        if (!c0 && !c1) return null;
        if (!c0 || !c1) {
          s = (c0 ?? c1)!;
          fixedSome = true;
          continue;
        }
        // cells both ways agree on
        let agreed = false;
        try {
          for (let k = 0; k < s.cells.length; k++) {
            if (s.cells[k] === UNKNOWN && c0.cells[k] !== UNKNOWN && c0.cells[k] === c1.cells[k]) {
              this.set(s, k, c0.cells[k]);
              agreed = true;
            }
          }
        } catch (e) {
          if (e !== CONTRADICTION) throw e;
          this.clearQueue();
          return null;
        }
        if (agreed) {
          if (!this.propagate(s)) return null;
          fixedSome = true;
        }
      }
    }
    return s;
  }

  /** the unknown cell to branch on: in the line with the fewest unknowns; -1 when there is none */
  private pick(s: State): number {
    let best = -1;
    let fewest = Infinity;
    for (let l = 0; l < this.lines; l++) {
      const u = this.len(l) - s.ones[l] - s.zeros[l];
      if (u > 0 && u < fewest) {
        fewest = u;
        best = l;
      }
    }
    if (best < 0) return -1;
    const b = this.base(best);
    const st = this.step(best);
    for (let i = 0; i < this.len(best); i++) if (s.cells[b + i * st] === UNKNOWN) return b + i * st;
    return -1;
  }

  /**
   * Depth-first search; stops when `limit` solutions are found, or (returning null) after `maxBranches` branch
   * points. The search runs in restarts: run k may take RESTART_BRANCHES * 2^k branch points, run 0 with 0 before
   * 1 (or the caller's random order), each later run with a value order of its own. Why: on a grid with few givens
   * (an empty 16x16) one early choice can doom a column far below, and the tree under it took minutes; other
   * orders find the solutions in hundreds of branch points. Solutions found in any run count (distinct ones); the
   * first run that ends within its budget searched the whole tree, so its end is the answer. A puzzle done within
   * the first run's budget (every STPPC puzzle we have) searches exactly as without restarts.
   */
  solve(limit = 2, maxBranches = Infinity): SearchResult | null {
    const root = this.initial();
    const found = new Map<string, Uint8Array>();
    let complete = !root;
    let stopped = false;
    for (let run = 0; root && !complete && found.size < limit && this.branches < maxBranches; run++) {
      const cut = RESTART_BRANCHES * 2 ** run;
      this.budget = Math.min(cut, maxBranches - this.branches);
      this.order = run === 0 || this.random ? this.random : rng(run);
      const out: SearchResult = { count: 0, solutions: [], branches: 0, probes: 0 };
      try {
        this.dfs(root, limit, out);
      } catch (e) {
        if (e !== STOPPED) throw e;
        this.clearQueue();
        stopped = true;
      }
      for (const cells of out.solutions) found.set(cells.join(''), cells);
      if (stopped) break;
      complete = this.budget >= 0;
    }
    const solutions = [...found.values()].slice(0, limit);
    if (stopped) return { count: solutions.length, solutions, branches: this.branches, probes: this.probes, stopped };
    if (!complete && solutions.length < limit) return null;
    return { count: solutions.length, solutions, branches: this.branches, probes: this.probes };
  }

  private dfs(s: State, limit: number, out: SearchResult) {
    if (this.probing) {
      const p = this.probeAll(s);
      if (!p) return;
      s = p;
    }
    const cell = this.pick(s);
    if (cell < 0) {
      out.count++;
      out.solutions.push(s.cells);
      return;
    }
    if (--this.budget < 0) return;
    this.branches++;
    // a caller's random order (the generator's random grids) is kept whole
    const firstValue = (this.random ? undefined : firstWay(this.w, this.h, s.cells, cell)) ?? (this.order ? (this.order() < 0.5 ? 0 : 1) : 0);
    for (const v of [firstValue, 1 - firstValue]) {
      const child = this.assume(s, cell, v);
      if (child) this.dfs(child, limit, out);
      if (out.count >= limit || this.budget < 0) return;
    }
  }

  /** Propagation only: the fixpoint, or null on a contradiction. */
  closure(): Uint8Array | null {
    return this.initial()?.cells ?? null;
  }

  /** Propagation and probing, no branching: what Methods 1-5 deduce, or null on a contradiction. */
  deduce(): Uint8Array | null {
    const s = this.initial();
    return s ? (this.probeAll(s)?.cells ?? null) : null;
  }
}

/** Solutions of a puzzle, counted up to `limit`. */
export function countSolutions(p: BinaryPuzzle, limit: number, opts: SearchOptions, maxBranches: number): SearchResult | null;
export function countSolutions(p: BinaryPuzzle, limit?: number, opts?: SearchOptions): SearchResult;
export function countSolutions(p: BinaryPuzzle, limit = 2, opts: SearchOptions = {}, maxBranches = Infinity): SearchResult | null {
  return new BinarySearch(p, opts).solve(limit, maxBranches);
}

/**
 * The thesis' level (4.3) by propagation with each level's methods: 1-3 when that level's closure completes the
 * grid, 4 when none does (Method 5 needed), 0 when the givens lead to a contradiction.
 */
export function gradeCpu(p: BinaryPuzzle): number {
  for (let level = 1; level <= 3; level++) {
    if (level === 3 && !p.distinct) break;
    const cells = new BinarySearch(p, { methods: LEVEL_METHODS[level] }).closure();
    if (!cells) return 0;
    if (!cells.includes(UNKNOWN)) return level;
  }
  return 4;
}
