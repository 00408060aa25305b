// The CPU reference for binary puzzles: the verifier, the rule set (thesis 3.3.1 Methods 1-4) as one synchronous
// generation of our automaton, and the thesis automaton of 3.3.2 cell by cell. Both automata are the test oracles
// of their shaders (shaders/binary/ca.wgsl, shaders/binary/thesis.wgsl): same state words, same flags, bit for bit.
// They are written cell by cell on purpose, so they share no code (and no bit tricks) with the shaders.
import { FLAG_CHANGED, FLAG_CONTRADICTION, FLAG_PENDING, RULE_FLAG_BASE } from '../../engine/constants.ts';
import { UNKNOWN, type BinaryPuzzle } from './codec.ts';

// ---------------------------------------------------------------------------------------------------------------
// Methods (thesis 3.3.1) as bits of a mask; the same bits are the rule flags the shaders raise (from
// RULE_FLAG_BASE up) for "this method set a cell in this generation".

export const M_PAIRS = 1; // Method 1: two equal neighbours in a line -> the cells beside them differ
export const M_TRIOS = 2; // Method 2: equal cells on both sides -> the middle differs
export const M_COUNT = 4; // Method 3: a line with half its cells 0 (or 1) -> the rest are 1 (or 0)
export const M_UNIQUE = 8; // Method 4: a line with two unknowns that could equal a complete line takes the other completion
export const METHODS_ALL = M_PAIRS | M_TRIOS | M_COUNT | M_UNIQUE;

/** the methods of each level of the thesis' difficulty model (4.3); level 4 adds Method 5 (contradiction) */
export const LEVEL_METHODS = [0, M_PAIRS | M_TRIOS, M_PAIRS | M_TRIOS | M_COUNT, METHODS_ALL] as const;

export const methodFlag = (m: number) => m * RULE_FLAG_BASE;

// ---------------------------------------------------------------------------------------------------------------
// Verifier

/** Why `solution` (row-major 0/1) does not solve `puzzle`, or null when it does. */
export function checkSolution(p: BinaryPuzzle, solution: string): string | null {
  const { width: w, height: h } = p;
  if (solution.length !== w * h) return `${solution.length} cells, the grid has ${w * h}`;
  if (/[^01]/.test(solution)) return 'a solution holds only 0 and 1';
  const s = Array.from(solution, Number);
  for (let i = 0; i < w * h; i++) if (p.cells[i] !== UNKNOWN && p.cells[i] !== s[i]) return `cell ${i % w},${Math.floor(i / w)} is given as ${p.cells[i]}`;
  const lines: number[][] = [];
  for (let y = 0; y < h; y++) lines.push(s.slice(y * w, y * w + w));
  for (let x = 0; x < w; x++) lines.push(Array.from({ length: h }, (_, y) => s[y * w + x]));
  for (let l = 0; l < lines.length; l++) {
    const line = lines[l];
    const what = l < h ? `row ${l}` : `column ${l - h}`;
    for (let i = 2; i < line.length; i++) if (line[i] === line[i - 1] && line[i] === line[i - 2]) return `${what} has three ${line[i]}s in a row`;
    const ones = line.reduce((a, b) => a + b, 0);
    if (ones * 2 !== line.length) return `${what} has ${ones} ones in ${line.length} cells`;
  }
  if (p.distinct) {
    const seen = new Map<string, number>();
    for (let l = 0; l < lines.length; l++) {
      const key = (l < h ? 'r' : 'c') + lines[l].join('');
      if (seen.has(key)) return `${l < h ? 'rows' : 'columns'} ${seen.get(key)! - (l < h ? 0 : h)} and ${l - (l < h ? 0 : h)} are equal`;
      seen.set(key, l);
    }
  }
  return null;
}

export const verifySolution = (p: BinaryPuzzle, solution: string) => checkSolution(p, solution) === null;

// ---------------------------------------------------------------------------------------------------------------
// Our automaton, one generation (twin of shaders/binary/ca.wgsl). Every cell looks at its radius-2 neighbourhood
// for Methods 1-2 and at the counts of its row and column for Method 3, all from the previous generation; Method 4
// compares its lines with the complete lines. Rule violations are contradictions whatever methods are enabled:
// three equal known cells in a line, a line with more than half its cells 0 (or 1), two equal complete lines
// (when rows/columns must differ), and a cell that the enabled methods want both ways.

export interface Grid {
  width: number;
  height: number;
  /** row-major 0, 1, UNKNOWN */
  cells: Uint8Array;
}

export interface StepResult {
  cells: Uint8Array;
  /** FLAG_CHANGED | FLAG_CONTRADICTION | FLAG_PENDING | methodFlag(m) for each method that set a cell */
  flags: number;
}

export function caStep(g: Grid, methods: number, distinct: boolean): StepResult {
  const { width: w, height: h, cells } = g;
  const at = (x: number, y: number) => (x < 0 || y < 0 || x >= w || y >= h ? UNKNOWN : cells[y * w + x]);
  const rowOnes = new Int32Array(h);
  const rowZeros = new Int32Array(h);
  const colOnes = new Int32Array(w);
  const colZeros = new Int32Array(w);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const v = cells[y * w + x];
      if (v === 1) (rowOnes[y]++, colOnes[x]++);
      else if (v === 0) (rowZeros[y]++, colZeros[x]++);
    }
  }
  const rowComplete = (y: number) => rowOnes[y] + rowZeros[y] === w;
  const colComplete = (x: number) => colOnes[x] + colZeros[x] === h;
  let flags = 0;
  // line rule violations
  for (let y = 0; y < h; y++) if (rowOnes[y] * 2 > w || rowZeros[y] * 2 > w) flags |= FLAG_CONTRADICTION;
  for (let x = 0; x < w; x++) if (colOnes[x] * 2 > h || colZeros[x] * 2 > h) flags |= FLAG_CONTRADICTION;
  const rowEq = (a: number, b: number, knownOfA: boolean) => {
    for (let x = 0; x < w; x++) {
      const va = cells[a * w + x];
      if ((knownOfA ? va !== UNKNOWN : true) && va !== cells[b * w + x]) return false;
    }
    return true;
  };
  const colEq = (a: number, b: number, knownOfA: boolean) => {
    for (let y = 0; y < h; y++) {
      const va = cells[y * w + a];
      if ((knownOfA ? va !== UNKNOWN : true) && va !== cells[y * w + b]) return false;
    }
    return true;
  };
  if (distinct) {
    for (let a = 0; a < h; a++) for (let b = a + 1; b < h; b++) if (rowComplete(a) && rowComplete(b) && rowEq(a, b, false)) flags |= FLAG_CONTRADICTION;
    for (let a = 0; a < w; a++) for (let b = a + 1; b < w; b++) if (colComplete(a) && colComplete(b) && colEq(a, b, false)) flags |= FLAG_CONTRADICTION;
  }

  const next = cells.slice();
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const v = cells[y * w + x];
      // need[m][value]: method m wants this cell to be `value`
      const need = [
        [false, false],
        [false, false],
        [false, false],
        [false, false],
      ];
      // Method 1 (pairs): two equal known cells on one side
      for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const a = at(x + dx, y + dy);
        if (a !== UNKNOWN && a === at(x + 2 * dx, y + 2 * dy)) need[0][1 - a] = true;
      }
      // Method 2 (trios): equal known cells on both sides
      for (const [dx, dy] of [[1, 0], [0, 1]]) {
        const a = at(x + dx, y + dy);
        if (a !== UNKNOWN && a === at(x - dx, y - dy)) need[1][1 - a] = true;
      }
      if (v !== UNKNOWN) {
        // a known cell that Methods 1-2 want the other way sits in three equal cells
        if (need[0][1 - v] || need[1][1 - v]) flags |= FLAG_CONTRADICTION;
        continue;
      }
      // Method 3 (counts)
      if (rowOnes[y] * 2 === w || colOnes[x] * 2 === h) need[2][0] = true;
      if (rowZeros[y] * 2 === w || colZeros[x] * 2 === h) need[2][1] = true;
      // Method 4 (uniqueness, thesis Figure 3.20): this line has two unknowns and agrees with a complete line on
      // all its known cells; completing it like that line would repeat it, so take the other completion. The first
      // such line decides: were there a second, the completion would repeat that one, a contradiction that the
      // next generation reports.
      if (distinct) {
        if (w - rowOnes[y] - rowZeros[y] === 2) {
          const r = [...Array(h).keys()].find((r) => r !== y && rowComplete(r) && rowEq(y, r, true));
          if (r !== undefined) need[3][1 - cells[r * w + x]] = true;
        }
        if (h - colOnes[x] - colZeros[x] === 2) {
          const c = [...Array(w).keys()].find((c) => c !== x && colComplete(c) && colEq(x, c, true));
          if (c !== undefined) need[3][1 - cells[y * w + c]] = true;
        }
      }
      let want0 = false;
      let want1 = false;
      for (let m = 0; m < 4; m++) {
        if (!(methods & (1 << m))) continue;
        want0 ||= need[m][0];
        want1 ||= need[m][1];
      }
      if (want0 && want1) flags |= FLAG_CONTRADICTION;
      else if (want0 || want1) {
        next[y * w + x] = want1 ? 1 : 0;
        flags |= FLAG_CHANGED;
        for (let m = 0; m < 4; m++) if (methods & (1 << m) && (need[m][0] || need[m][1])) flags |= methodFlag(1 << m);
      }
    }
  }
  if (next.includes(UNKNOWN)) flags |= FLAG_PENDING;
  return { cells: next, flags };
}

export interface RunResult {
  cells: Uint8Array;
  /** generations that changed something (the last one is the fixpoint's predecessor) */
  generations: number;
  status: 'done' | 'fixpoint' | 'contradiction' | 'capped';
  /** rule flags raised over the run */
  flags: number;
}

/** Runs our automaton to its fixpoint (or a contradiction), as the engine does on the GPU. */
export function caRun(g: Grid, methods: number, distinct: boolean, maxGenerations = 1_000_000): RunResult {
  let cells = g.cells;
  let all = 0;
  for (let gen = 1; gen <= maxGenerations; gen++) {
    const r = caStep({ ...g, cells }, methods, distinct);
    all |= r.flags;
    if (r.flags & FLAG_CONTRADICTION) return { cells: r.cells, generations: gen, status: 'contradiction', flags: all };
    if (!(r.flags & FLAG_CHANGED)) return { cells, generations: gen - 1, status: r.flags & FLAG_PENDING ? 'fixpoint' : 'done', flags: all };
    cells = r.cells;
  }
  return { cells, generations: maxGenerations, status: 'capped', flags: all };
}

/**
 * The thesis' difficulty level (4.3) of a puzzle, from closures of the automaton: 1 when Methods 1-2 solve it,
 * 2 with Method 3, 3 with Method 4, 4 when they stall (Method 5 needed), 0 when they reach a contradiction.
 */
export function gradeByClosure(p: BinaryPuzzle): number {
  let cells = p.cells;
  for (let level = 1; level <= 3; level++) {
    if (level === 3 && !p.distinct) continue;
    const r = caRun({ width: p.width, height: p.height, cells }, LEVEL_METHODS[level], p.distinct);
    if (r.status === 'contradiction') return 0;
    if (r.status === 'done') return level;
    cells = r.cells;
  }
  return 4;
}

// ---------------------------------------------------------------------------------------------------------------
// The thesis automaton (3.3.2), cell by cell (twin of shaders/binary/thesis.wgsl). Two u32 words per cell:
//   word 0: bits 0-1 sure (0, 1, 2 = unknown) | 2-4 hwalker | 5-7 vwalker | 8 hfired | 9 vfired | 10 hfresh |
//           11 vfresh | 12 hdirty | 13 vdirty | 16-31 age (generations since `sure` last changed, saturating)
//   word 1: the counts a walker carries: bits 0-7 zeros (row walker), 8-15 ones (row), 16-23 zeros (column),
//           24-31 ones (column)
// Methods 1 and 2 are local rules on the radius-2 von Neumann neighbourhood. Method 3 is one walker per line: the
// line's last cell fires it (`fired`), it climbs to the first cell counting zeros and ones (walker 1), decides
// there ("ones - zeros == unknowns": 3 = set the unknowns to 0; the reverse: 4 = set them to 1; else 2), walks
// back down doing so, and the last cell fires it again: a cycle of 2n generations for a line of n cells.
//
// Not in the thesis, and changing none of its generations: `dirty`/`fresh` say when the automaton is finished.
// A cell whose `sure` changes is dirty until a climbing walker counts it; that walker is then fresh until it
// has walked back down. A generation with no change, no dirty cell and no fresh walker is a fixpoint for good:
// every walker would decide what its line's previous walker decided and already applied. `age` gives the
// generation of the last change after the run (the automaton keeps running for up to 4n generations after it).

export const THESIS_AGE_MAX = 0xffff;

export const T = {
  sure: (w0: number) => w0 & 3,
  hw: (w0: number) => (w0 >>> 2) & 7,
  vw: (w0: number) => (w0 >>> 5) & 7,
  age: (w0: number) => w0 >>> 16,
};

interface Walk {
  w: number;
  fired: number;
  fresh: number;
  z: number;
  o: number;
  /** this cell was counted by a climbing walker in this generation */
  counted: boolean;
  /** the walker asks this cell to become 0 or 1 (or -1: nothing) */
  demand: number;
  overflow: boolean;
}

/**
 * One walker step for a cell at index i of a line of n cells (index 0 = the top / left end, where walkers turn;
 * n-1 = the last cell, where they start). `self`, `next` (index i+1) and `prev` (index i-1) are the walker fields.
 */
function walk(i: number, n: number, sure: number, dirty: number, self: Omit<Walk, 'counted' | 'demand' | 'overflow'>, next: Walk | null, prev: Walk | null): Walk {
  const z0 = sure === 0 ? 1 : 0;
  const o0 = sure === 1 ? 1 : 0;
  const half = n / 2;
  if (i === n - 1 && (!self.fired || self.w >= 2)) {
    return { w: 1, fired: 1, fresh: dirty, z: z0, o: o0, counted: true, demand: -1, overflow: false };
  }
  if (i === 0 && self.w === 1) {
    const unknowns = n - self.z - self.o;
    const w = self.o === half && unknowns > 0 ? 3 : self.z === half && unknowns > 0 ? 4 : 2;
    return { w, fired: self.fired, fresh: self.fresh, z: self.z, o: self.o, counted: false, demand: w === 3 ? 0 : w === 4 ? 1 : -1, overflow: self.o > half || self.z > half };
  }
  if (next && next.w === 1) {
    return { w: 1, fired: self.fired, fresh: next.fresh | dirty, z: next.z + z0, o: next.o + o0, counted: true, demand: -1, overflow: false };
  }
  if (prev && prev.w >= 2) {
    return { w: prev.w, fired: self.fired, fresh: prev.fresh, z: 0, o: 0, counted: false, demand: prev.w === 3 ? 0 : prev.w === 4 ? 1 : -1, overflow: false };
  }
  return { w: 0, fired: self.fired, fresh: 0, z: 0, o: 0, counted: false, demand: -1, overflow: false };
}

/** initial thesis state words of a puzzle: every cell dirty, no walker, age saturated */
export function thesisInit(g: Grid): Uint32Array {
  const s = new Uint32Array(g.width * g.height * 2);
  for (let i = 0; i < g.width * g.height; i++) s[2 * i] = g.cells[i] | (1 << 12) | (1 << 13) | (THESIS_AGE_MAX << 16);
  return s;
}

export function thesisStep(width: number, height: number, state: Uint32Array): { state: Uint32Array; flags: number } {
  const w = width;
  const h = height;
  const out = new Uint32Array(state.length);
  let flags = 0;
  const w0 = (x: number, y: number) => state[2 * (y * w + x)];
  const w1 = (x: number, y: number) => state[2 * (y * w + x) + 1];
  const sureAt = (x: number, y: number) => (x < 0 || y < 0 || x >= w || y >= h ? UNKNOWN : T.sure(w0(x, y)));
  const hField = (x: number, y: number): Walk => {
    const a = w0(x, y);
    const b = w1(x, y);
    return { w: T.hw(a), fired: (a >>> 8) & 1, fresh: (a >>> 10) & 1, z: b & 0xff, o: (b >>> 8) & 0xff, counted: false, demand: -1, overflow: false };
  };
  const vField = (x: number, y: number): Walk => {
    const a = w0(x, y);
    const b = w1(x, y);
    return { w: T.vw(a), fired: (a >>> 9) & 1, fresh: (a >>> 11) & 1, z: (b >>> 16) & 0xff, o: b >>> 24, counted: false, demand: -1, overflow: false };
  };
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const a = w0(x, y);
      const sure = T.sure(a);
      const hdirty = (a >>> 12) & 1;
      const vdirty = (a >>> 13) & 1;
      const hw = walk(x, w, sure, hdirty, hField(x, y), x + 1 < w ? hField(x + 1, y) : null, x > 0 ? hField(x - 1, y) : null);
      const vw = walk(y, h, sure, vdirty, vField(x, y), y + 1 < h ? vField(x, y + 1) : null, y > 0 ? vField(x, y - 1) : null);
      // Methods 1 (pairs) and 2 (trios) on the radius-2 von Neumann neighbourhood: want[m][value]
      const want = [
        [false, false],
        [false, false],
        [hw.demand === 0 || vw.demand === 0, hw.demand === 1 || vw.demand === 1],
      ];
      for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const n1 = sureAt(x + dx, y + dy);
        if (n1 !== UNKNOWN && n1 === sureAt(x + 2 * dx, y + 2 * dy)) want[0][1 - n1] = true;
      }
      for (const [dx, dy] of [[1, 0], [0, 1]]) {
        const n1 = sureAt(x + dx, y + dy);
        if (n1 !== UNKNOWN && n1 === sureAt(x - dx, y - dy)) want[1][1 - n1] = true;
      }
      if (hw.overflow || vw.overflow) flags |= FLAG_CONTRADICTION;
      let next = sure;
      if (sure === UNKNOWN) {
        const want0 = want[0][0] || want[1][0] || want[2][0];
        const want1 = want[0][1] || want[1][1] || want[2][1];
        if (want0 && want1) flags |= FLAG_CONTRADICTION;
        else if (want0 || want1) {
          next = want1 ? 1 : 0;
          want.forEach((wm, m) => (wm[0] || wm[1] ? (flags |= methodFlag(1 << m)) : 0));
        }
      } else if (want[0][1 - sure] || want[1][1 - sure]) {
        // Methods 1-2 want a known cell the other way: it sits in three equal cells (walkers touch unknowns only)
        flags |= FLAG_CONTRADICTION;
      }
      const changed = next !== sure;
      const hd = changed || (hdirty && !hw.counted) ? 1 : 0;
      const vd = changed || (vdirty && !vw.counted) ? 1 : 0;
      const age = changed ? 0 : Math.min(T.age(a) + 1, THESIS_AGE_MAX);
      out[2 * (y * w + x)] =
        (next | (hw.w << 2) | (vw.w << 5) | (hw.fired << 8) | (vw.fired << 9) | (hw.fresh << 10) | (vw.fresh << 11) | (hd << 12) | (vd << 13) | (age << 16)) >>> 0;
      out[2 * (y * w + x) + 1] = (hw.z | (hw.o << 8) | (vw.z << 16) | (vw.o << 24)) >>> 0;
      if (changed || hd || vd || (hw.w && hw.fresh) || (vw.w && vw.fresh)) flags |= FLAG_CHANGED;
      if (next === UNKNOWN) flags |= FLAG_PENDING;
    }
  }
  return { state: out, flags };
}

/** the generation of the last change of `sure`, from the ages after `generations` generations (0: none) */
export function thesisLastChange(state: Uint32Array, generations: number): number {
  let minAge = THESIS_AGE_MAX;
  for (let i = 0; i < state.length; i += 2) minAge = Math.min(minAge, T.age(state[i]));
  return minAge >= THESIS_AGE_MAX ? 0 : generations - minAge;
}

export function thesisCells(state: Uint32Array): Uint8Array {
  const cells = new Uint8Array(state.length / 2);
  for (let i = 0; i < cells.length; i++) cells[i] = T.sure(state[2 * i]);
  return cells;
}

/** Runs the thesis automaton until it is finished (see above); generations = the last change of a cell. */
export function thesisRun(g: Grid, maxGenerations = 60_000): RunResult {
  let state = thesisInit(g);
  let all = 0;
  let gen = 0;
  let status: RunResult['status'] = 'capped';
  while (gen < maxGenerations) {
    const r = thesisStep(g.width, g.height, state);
    gen++;
    all |= r.flags;
    state = r.state;
    if (r.flags & FLAG_CONTRADICTION) {
      status = 'contradiction';
      break;
    }
    if (!(r.flags & FLAG_CHANGED)) {
      status = r.flags & FLAG_PENDING ? 'fixpoint' : 'done';
      break;
    }
  }
  return { cells: thesisCells(state), generations: status === 'contradiction' ? gen : thesisLastChange(state, gen), status, flags: all };
}
