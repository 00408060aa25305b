// Sudoku on the CPU: the puzzle model, its topology (units and peers), the elimination automaton's CPU twin
// (shaders/sudoku/ca.wgsl, one generation as a pure function of a cell's units), a complete solver that counts
// solutions up to a limit, and the verifier. These are the oracles the GPU is tested against.
import { FLAG_CHANGED, FLAG_CONTRADICTION, FLAG_PENDING, RULE_FLAG_BASE } from '../../engine/constants.ts';
import { popcount } from '../../engine/bits.ts';

/** One sudoku: an n x n grid (n <= 32: a cell's candidates are one u32), boxes boxW wide and boxH tall. */
export interface SudokuPuzzle {
  n: number;
  boxW: number;
  boxH: number;
  /** jigsaw: region index per cell (row-major); absent = rectangular boxes */
  regions?: Uint8Array;
  /** X-sudoku: both main diagonals are units too */
  diagonal: boolean;
  /** 0 = blank, 1..n = given value, row-major */
  givens: Uint8Array;
  /** how the puzzle was written, so the answer can be written the same way (codec.ts) */
  io?: SudokuIo;
}

export interface SudokuIo {
  form: 'line' | 'grid' | 'gameid' | 'tsv' | 'url';
  /** line and grid forms: the blank character used ('.' or '0'); lower-case letters for values past 9; a 16x16 in
   * hexadoku's 0-F (HEX_SYMBOLS) */
  blank?: string;
  lower?: boolean;
  hex?: boolean;
  /** grid form: its title line, cells apart, bars between boxes, rule lines between bands, cells as numbers, bars at
   * both ends of a row, rule lines above and below the grid */
  title?: string;
  spaced?: boolean;
  bars?: boolean;
  rules?: boolean;
  numeric?: boolean;
  edges?: boolean;
  frame?: boolean;
  /** grid form: boxes as groups of cells apart by spaces, no bars (`003 020 600`) */
  grouped?: boolean;
  /** gameid/tsv: the jigsaw block spec suffix (",..." ) kept verbatim */
  blockSpec?: string;
  /** tsv: the row's fields, and which one holds the solution */
  fields?: string[];
  solutionColumn?: number;
  gameIdColumn?: number;
  /** url: everything before the board body */
  urlPrefix?: string;
}

// ---- rules ---------------------------------------------------------------------------------------------------
/** rule selection bits (grid param): which deductions the automaton may use */
export const RULE_NAKED = 1;
export const RULE_HIDDEN = 2;
export const RULE_LOCKED = 4;
export const RULES_ALL = RULE_NAKED | RULE_HIDDEN | RULE_LOCKED;
/** flag bits raised when a rule changed a cell (RULE_FLAG_BASE and up) */
export const FLAG_NAKED = RULE_FLAG_BASE;
export const FLAG_HIDDEN = RULE_FLAG_BASE << 1;
export const FLAG_LOCKED = RULE_FLAG_BASE << 2;
/** the one-generation kernel's counter: cells where each rule fired, 10 bits each */
export const COUNT_NAKED = 1;
export const COUNT_HIDDEN = 1 << 10;
export const COUNT_LOCKED = 1 << 20;
export const RULE_NAMES: [number, string][] = [
  [FLAG_NAKED, 'naked-single'],
  [FLAG_HIDDEN, 'hidden-single'],
  [FLAG_LOCKED, 'locked-candidates'],
];

export function ruleNames(flags: number): string[] {
  return RULE_NAMES.filter(([bit]) => flags & bit).map(([, name]) => name);
}

export function fullMask(n: number): number {
  return n >= 32 ? 0xffffffff : ((1 << n) - 1) >>> 0;
}

export { popcount };

/** value (1-based) of a one-bit mask */
export function bitValue(m: number): number {
  return 32 - Math.clz32(m);
}

// ---- topology ------------------------------------------------------------------------------------------------
export interface Topology {
  n: number;
  cells: number;
  full: number;
  /** every unit's cells: rows 0..n-1, columns n..2n-1, regions 2n..3n-1, then the diagonals */
  units: Int32Array[];
  /** units containing each cell */
  unitsOf: number[][];
  /** each cell's peers (cells sharing a unit, itself excluded) */
  peers: Int32Array[];
  region: Int32Array;
  diagonal: boolean;
}

const topoCache = new Map<string, Topology>();

export function topologyKey(p: SudokuPuzzle): string {
  return `${p.n}:${p.boxW}x${p.boxH}:${p.diagonal ? 'x' : ''}:${p.regions ? Array.from(p.regions).join(',') : ''}`;
}

export function topology(p: SudokuPuzzle): Topology {
  const key = topologyKey(p);
  let t = topoCache.get(key);
  if (t) return t;
  const n = p.n;
  const cells = n * n;
  const region = new Int32Array(cells);
  for (let i = 0; i < cells; i++) {
    const r = Math.floor(i / n);
    const c = i % n;
    region[i] = p.regions ? p.regions[i] : Math.floor(r / p.boxH) * (n / p.boxW) + Math.floor(c / p.boxW);
  }
  const units: Int32Array[] = [];
  for (let r = 0; r < n; r++) units.push(Int32Array.from({ length: n }, (_, k) => r * n + k));
  for (let c = 0; c < n; c++) units.push(Int32Array.from({ length: n }, (_, k) => k * n + c));
  const regionCells: number[][] = Array.from({ length: n }, () => []);
  for (let i = 0; i < cells; i++) regionCells[region[i]].push(i);
  for (const rc of regionCells) units.push(Int32Array.from(rc));
  if (p.diagonal) {
    units.push(Int32Array.from({ length: n }, (_, k) => k * n + k));
    units.push(Int32Array.from({ length: n }, (_, k) => k * n + (n - 1 - k)));
  }
  const unitsOf: number[][] = Array.from({ length: cells }, () => []);
  units.forEach((u, ui) => u.forEach((c) => unitsOf[c].push(ui)));
  const peers = unitsOf.map((us, i) => {
    const set = new Set<number>();
    for (const u of us) for (const c of units[u]) if (c !== i) set.add(c);
    return Int32Array.from([...set].sort((a, b) => a - b));
  });
  t = { n, cells, full: fullMask(n), units, unitsOf, peers, region, diagonal: p.diagonal };
  topoCache.set(key, t);
  return t;
}

/** Does this grid shape make a valid sudoku (n = boxW * boxH, every region n cells)? Returns an error or null. */
export function shapeError(p: { n: number; boxW: number; boxH: number; regions?: Uint8Array }): string | null {
  if (p.n < 1 || p.n > 32) return `a ${p.n}x${p.n} sudoku is not supported: candidates are one u32 per cell (n <= 32)`;
  if (p.regions) {
    const count = new Array(p.n).fill(0);
    for (const r of p.regions) {
      if (r >= p.n) return `jigsaw region ${r} out of range`;
      count[r]++;
    }
    if (count.some((c) => c !== p.n)) return `jigsaw regions must have ${p.n} cells each`;
    return null;
  }
  if (p.boxW * p.boxH !== p.n) return `boxes ${p.boxW}x${p.boxH} do not tile a ${p.n}x${p.n} grid`;
  return null;
}

/** The usual box shape for an n x n grid: as square as possible, wider than tall (6 -> 3x2, 12 -> 4x3). */
export function defaultBox(n: number): { boxW: number; boxH: number } | null {
  for (let h = Math.floor(Math.sqrt(n)); h >= 2; h--) if (n % h === 0) return { boxW: n / h, boxH: h };
  return n === 1 ? { boxW: 1, boxH: 1 } : null;
}

export function initialMasks(p: SudokuPuzzle): Uint32Array {
  const full = fullMask(p.n);
  return Uint32Array.from(p.givens, (v) => (v ? 1 << (v - 1) : full) >>> 0);
}

// ---- the elimination automaton, one generation (CPU twin of shaders/sudoku/ca.wgsl) ---------------------------
export interface CaStep {
  next: Uint32Array;
  /** OR of every cell's flags (FLAG_CHANGED, FLAG_CONTRADICTION, FLAG_PENDING, FLAG_NAKED/HIDDEN/LOCKED) */
  flags: number;
  /** cells where each rule fired, packed as the GPU counter (COUNT_NAKED/HIDDEN/LOCKED) */
  counter: number;
}

/**
 * One synchronous generation: every cell's next candidates from the current candidates of its units only.
 * Deductions, all from the same generation's masks:
 *  - naked single: a peer holding a single value removes it;
 *  - hidden single: a value no other cell of a unit can take is placed here (two such values, or one the cell
 *    cannot take, is a contradiction);
 *  - locked candidates (box/line interaction): a value confined to the cells of a region that lie in this
 *    cell's line (pointing), or to the cells of a line that lie in this cell's region (claiming), leaves this cell.
 * A cell with no candidate left is a contradiction.
 */
export function caCell(t: Topology, src: Uint32Array, x: number, rules: number): { m: number; flags: number; counter: number } {
  let m = src[x];
  let flags = 0;
  let counter = 0;
  if (rules & RULE_NAKED) {
    const before = m;
    for (const p of t.peers[x]) {
      const v = src[p];
      if ((v & (v - 1)) === 0) m &= ~v;
    }
    m >>>= 0;
    if (m !== before) {
      flags |= FLAG_NAKED;
      counter += COUNT_NAKED;
    }
  }
  if (rules & RULE_HIDDEN) {
    for (const u of t.unitsOf[x]) {
      let others = 0;
      for (const c of t.units[u]) if (c !== x) others |= src[c];
      const need = (t.full & ~others) >>> 0;
      if (need === 0) continue;
      if ((need & (need - 1)) !== 0 || (need & m) === 0) {
        flags |= FLAG_CONTRADICTION;
        m = 0;
      } else if (m !== need) {
        m = need;
        flags |= FLAG_HIDDEN;
        counter += COUNT_HIDDEN;
      }
    }
  }
  if (rules & RULE_LOCKED && m !== 0) {
    const lock = lockedFor(t, src, x);
    if (m & lock) {
      m = (m & ~lock) >>> 0;
      flags |= FLAG_LOCKED;
      counter += COUNT_LOCKED;
    }
  }
  if (m === 0) flags |= FLAG_CONTRADICTION;
  if (m !== src[x]) flags |= FLAG_CHANGED;
  if (m & (m - 1)) flags |= FLAG_PENDING;
  return { m, flags, counter };
}

/** Values locked out of cell x by box/line interactions (pointing and claiming), rows and columns. */
export function lockedFor(t: Topology, src: Uint32Array, x: number): number {
  const n = t.n;
  const r = Math.floor(x / n);
  const c = x % n;
  const R = t.region[x];
  let lock = 0;
  for (let line = 0; line < 2; line++) {
    const L = line === 0 ? r : n + c; // this cell's row, then its column
    // pointing: a region R' != R whose candidates for a value all lie in line L
    for (let R2 = 0; R2 < n; R2++) {
      if (R2 === R) continue;
      let inLine = 0;
      let rest = 0;
      for (const cell of t.units[2 * n + R2]) {
        const onLine = line === 0 ? Math.floor(cell / n) === r : cell % n === c;
        if (onLine) inLine |= src[cell];
        else rest |= src[cell];
      }
      lock |= inLine & ~rest;
    }
    // claiming: another line L' parallel to L whose candidates for a value all lie in region R
    for (let k = 0; k < n; k++) {
      const L2 = line === 0 ? k : n + k;
      if (L2 === L) continue;
      let inRegion = 0;
      let rest = 0;
      for (const cell of t.units[L2]) {
        if (t.region[cell] === R) inRegion |= src[cell];
        else rest |= src[cell];
      }
      lock |= inRegion & ~rest;
    }
  }
  return lock >>> 0;
}

export function caStep(t: Topology, src: Uint32Array, rules = RULES_ALL): CaStep {
  const next = new Uint32Array(t.cells);
  let flags = 0;
  let counter = 0;
  for (let x = 0; x < t.cells; x++) {
    const r = caCell(t, src, x, rules);
    next[x] = r.m;
    flags |= r.flags;
    counter += r.counter;
  }
  return { next, flags, counter };
}

export type CaStatus = 'solved' | 'stalled' | 'contradiction' | 'capped';

export interface CaRun {
  status: CaStatus;
  masks: Uint32Array;
  /** generations that changed something (the engine's count) */
  generations: number;
  /** per generation: flags and packed rule counts */
  log: { flags: number; counter: number }[];
}

/** Runs the automaton to its fixpoint, a contradiction or the cap (the engine's semantics). */
export function caRun(p: SudokuPuzzle, rules = RULES_ALL, cap = 10_000, start?: Uint32Array): CaRun {
  const t = topology(p);
  let masks = start ?? initialMasks(p);
  const log: CaRun['log'] = [];
  for (let g = 0; g < cap; g++) {
    const s = caStep(t, masks, rules);
    if (s.flags & FLAG_CONTRADICTION) {
      log.push({ flags: s.flags, counter: s.counter });
      return { status: 'contradiction', masks: s.next, generations: g + 1, log };
    }
    if (!(s.flags & FLAG_CHANGED)) {
      return { status: s.flags & FLAG_PENDING ? 'stalled' : 'solved', masks, generations: g, log };
    }
    log.push({ flags: s.flags, counter: s.counter });
    masks = s.next;
  }
  return { status: 'capped', masks, generations: cap, log };
}

// ---- complete solver ---------------------------------------------------------------------------------------------
export interface CpuSolve {
  /** solutions found, at most `limit` */
  solutions: Uint8Array[];
  /** search nodes (guesses) */
  nodes: number;
  /** the search stopped at `maxNodes` before it found `limit` solutions or ran out of them */
  capped?: boolean;
  /** `stopped()` ended it (the caller's deadline or Ctrl-C): `solutions` are what it had found */
  stopped?: boolean;
}

/** search nodes between looks at solveCpu's `stopped()` (a node of a 25x25 is ~20 us) */
const NODES_PER_LOOK = 256;

/**
 * Depth-first search over candidate masks with naked and hidden singles propagated to a fixpoint at every node,
 * branching on a cell with the fewest candidates. Stops after `limit` solutions (2 decides uniqueness).
 */
export function solveCpu(p: SudokuPuzzle, limit = 2, order?: (n: number) => number, maxNodes = Infinity, stopped?: () => boolean): CpuSolve {
  const t = topology(p);
  const out: CpuSolve = { solutions: [], nodes: 0 };
  const masks = initialMasks(p);
  const queue: number[] = [];
  for (let i = 0; i < t.cells; i++) if (p.givens[i]) queue.push(i);
  if (!propagate(t, masks, queue)) return out;
  search(t, masks, limit, out, order, maxNodes, stopped);
  return out;
}

function propagate(t: Topology, m: Uint32Array, queue: number[]): boolean {
  for (;;) {
    while (queue.length) {
      const c = queue.pop()!;
      const v = m[c];
      for (const p of t.peers[c]) {
        const q = m[p];
        if (q & v) {
          const r = q & ~v;
          if (r === 0) return false;
          m[p] = r;
          if ((r & (r - 1)) === 0) queue.push(p);
        }
      }
    }
    // hidden singles, unit by unit
    for (const unit of t.units) {
      let once = 0;
      let twice = 0;
      for (const c of unit) {
        twice |= once & m[c];
        once |= m[c];
      }
      if ((once >>> 0) !== t.full) return false;
      const uniq = once & ~twice;
      if (!uniq) continue;
      for (const c of unit) {
        const k = m[c] & uniq;
        if (k && m[c] !== k) {
          if (k & (k - 1)) return false;
          m[c] = k;
          queue.push(c);
        }
      }
    }
    if (!queue.length) return true;
  }
}

function search(t: Topology, m: Uint32Array, limit: number, out: CpuSolve, order: ((n: number) => number) | undefined, maxNodes: number, stopped?: () => boolean): void {
  let best = -1;
  let bestCount = 99;
  for (let i = 0; i < t.cells; i++) {
    const k = popcount(m[i]);
    if (k > 1 && k < bestCount) {
      bestCount = k;
      best = i;
      if (k === 2) break;
    }
  }
  if (best < 0) {
    out.solutions.push(Uint8Array.from(m, bitValue));
    return;
  }
  let cand = m[best];
  const bits: number[] = [];
  while (cand) {
    const b = cand & -cand;
    bits.push(b >>> 0);
    cand &= cand - 1;
  }
  if (order) for (let i = bits.length - 1; i > 0; i--) {
    const j = order(i + 1);
    [bits[i], bits[j]] = [bits[j], bits[i]];
  }
  for (const b of bits) {
    if (out.nodes >= maxNodes) {
      out.capped = true;
      return;
    }
    if (stopped && out.nodes % NODES_PER_LOOK === 0 && stopped()) {
      out.stopped = true;
      return;
    }
    out.nodes++;
    const copy = m.slice();
    copy[best] = b;
    if (propagate(t, copy, [best])) search(t, copy, limit, out, order, maxNodes, stopped);
    if (out.solutions.length >= limit || out.capped || out.stopped) return;
  }
}

// ---- verifier ------------------------------------------------------------------------------------------------
/** Symbols for values 1..n: 1-9 then A-Z then a-z (values past 9 are letters). */
export const SYMBOLS = '123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Hexadoku's symbols: a 16x16 written 0-F for the values 1-16 (as Elektor prints it; `.` is its blank) */
export const HEX_SYMBOLS = '0123456789ABCDEF';

export function valueOf(ch: string, hex = false): number {
  if (hex) return HEX_SYMBOLS.indexOf(ch.toUpperCase()) + 1;
  if (ch >= '1' && ch <= '9') return ch.charCodeAt(0) - 48;
  const u = ch.toUpperCase();
  if (u >= 'A' && u <= 'Z') return u.charCodeAt(0) - 55;
  return 0;
}

export function symbolOf(v: number, lower = false): string {
  const s = SYMBOLS[v - 1] ?? '?';
  return lower ? s.toLowerCase() : s;
}

export function gridString(values: ArrayLike<number>, blank = '.', lower = false, hex = false): string {
  const codes = new Array<number>(values.length);
  const alphabet = hex ? HEX_SYMBOLS : SYMBOLS;
  const symbols = lower ? alphabet.toLowerCase() : alphabet;
  const blankCode = blank.charCodeAt(0);
  for (let i = 0; i < values.length; i++) codes[i] = values[i] ? (symbols.charCodeAt(values[i] - 1) || 63) : blankCode;
  return String.fromCharCode(...codes);
}

export function masksToValues(masks: Uint32Array): Uint8Array {
  return Uint8Array.from(masks, (m) => (m && (m & (m - 1)) === 0 ? bitValue(m) : 0));
}

/** Is `solution` (n*n symbols) a complete grid that keeps the givens and has every value once per unit? */
export function verify(p: SudokuPuzzle, solution: string): boolean {
  const t = topology(p);
  if (solution.length !== t.cells) return false;
  const v = new Uint8Array(t.cells);
  for (let i = 0; i < t.cells; i++) {
    v[i] = valueOf(solution[i], p.io?.hex);
    if (v[i] < 1 || v[i] > p.n) return false;
    if (p.givens[i] && p.givens[i] !== v[i]) return false;
  }
  for (const unit of t.units) {
    let seen = 0;
    for (const c of unit) seen |= 1 << (v[c] - 1);
    if (seen >>> 0 !== t.full) return false;
  }
  return true;
}
