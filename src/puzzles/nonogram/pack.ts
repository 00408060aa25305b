// Bit-fields of the nonogram line automaton (shaders/nonogram/line.wgsl): the clue table in `aux` and the words of
// one copy of a puzzle in the state buffer. Host-side operations on copies (probe copies, merging what probes
// proved) work on these words directly.
import { popcount } from '../../engine/bits.ts';
import type { Nonogram } from './codec.ts';
import { EMPTY, FILLED, UNKNOWN } from './reference.ts';

/** The longest line the GPU settle handles: LINE_WORDS (1..4) words hold positions 0..len (settle.wgsl). */
export const MAX_GPU_LINE = 127;
/** Clue lists longer than this do not fit settle.wgsl's private tables (MAX_BLOCKS). */
export const MAX_GPU_BLOCKS = 64;

export interface CopyLayout {
  width: number;
  height: number;
  /** words per row (of width bits) and per column (of height bits) */
  wr: number;
  wc: number;
  rowF: number;
  rowE: number;
  colF: number;
  colE: number;
  rowDirty: number;
  colDirty: number;
  /** words per copy */
  words: number;
}

export function layoutOf(width: number, height: number): CopyLayout {
  const wr = Math.ceil(width / 32);
  const wc = Math.ceil(height / 32);
  const rowF = 4; // after status, generations, last counted dispatch, clue table offset
  const rowE = rowF + height * wr;
  const colF = rowE + height * wr;
  const colE = colF + width * wc;
  const rowDirty = colE + width * wc;
  const colDirty = rowDirty + wc;
  return { width, height, wr, wc, rowF, rowE, colF, colE, rowDirty, colDirty, words: colDirty + wr };
}

/** Words per bit set in settle.wgsl for this puzzle's longest line (positions 0..len need len + 1 bits). */
export function lineWordsFor(p: Nonogram): number {
  return Math.floor(Math.max(p.width, p.height) / 32) + 1;
}

/** Why the GPU cannot take this puzzle, or null. */
export function gpuLimitError(p: Nonogram): string | null {
  const m = Math.max(p.width, p.height);
  if (m > MAX_GPU_LINE) return `lines of ${m} cells: the GPU line solver takes lines up to ${MAX_GPU_LINE} cells`;
  const k = Math.max(...p.rows.map((c) => c.length), ...p.columns.map((c) => c.length));
  if (k > MAX_GPU_BLOCKS) return `a clue of ${k} blocks: the GPU line solver takes up to ${MAX_GPU_BLOCKS}`;
  return null;
}

/** The clue table: word i (i < h + w) = offset of line i's list (rows, then columns); a list is k, n_0..n_k-1. */
export function packClues(p: Nonogram): Uint32Array {
  const lines = [...p.rows, ...p.columns];
  const out = new Uint32Array(lines.length + lines.reduce((a, c) => a + 1 + c.length, 0));
  let at = lines.length;
  lines.forEach((c, i) => {
    out[i] = at;
    out[at++] = c.length;
    for (const n of c) out[at++] = n;
  });
  return out;
}

/**
 * A copy's words from cells (0 unknown, 1 filled, 2 empty); every line dirty unless `dirty` is false. `clues` is
 * where the puzzle's clue table starts in the clue grid's aux (line.wgsl, header word 3).
 */
export function packCopy(l: CopyLayout, cells: ArrayLike<number>, clues = 0, dirty = true, out = new Uint32Array(l.words)): Uint32Array {
  out.fill(0);
  out[3] = clues;
  const { width: w, height: h } = l;
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const v = cells[r * w + c];
      if (v === UNKNOWN) continue;
      setCell(l, out, r, c, v);
    }
  }
  if (dirty) markAllDirty(l, out);
  return out;
}

export function markAllDirty(l: CopyLayout, words: Uint32Array, at = 0): void {
  for (let i = 0; i < l.wc; i++) words[at + l.rowDirty + i] = lowBits(l.height - 32 * i);
  for (let i = 0; i < l.wr; i++) words[at + l.colDirty + i] = lowBits(l.width - 32 * i);
}

const lowBits = (n: number) => (n >= 32 ? 0xffffffff : n <= 0 ? 0 : (2 ** n - 1) >>> 0);

/** Sets cell (r, c) filled or empty in both orientations (no dirty bits). */
export function setCell(l: CopyLayout, words: Uint32Array, r: number, c: number, v: number, at = 0): void {
  const rowPlane = v === FILLED ? l.rowF : l.rowE;
  const colPlane = v === FILLED ? l.colF : l.colE;
  words[at + rowPlane + r * l.wr + (c >>> 5)] |= 1 << (c & 31);
  words[at + colPlane + c * l.wc + (r >>> 5)] |= 1 << (r & 31);
}

/** Marks row r and column c dirty. */
export function touch(l: CopyLayout, words: Uint32Array, r: number, c: number, at = 0): void {
  words[at + l.rowDirty + (r >>> 5)] |= 1 << (r & 31);
  words[at + l.colDirty + (c >>> 5)] |= 1 << (c & 31);
}

export function cellOf(l: CopyLayout, words: Uint32Array, i: number, at = 0): number {
  const r = Math.floor(i / l.width);
  const c = i - r * l.width;
  const k = at + r * l.wr + (c >>> 5);
  const b = 1 << (c & 31);
  const f = words[k + l.rowF] & b;
  const e = words[k + l.rowE] & b;
  return f && e ? 3 : f ? FILLED : e ? EMPTY : UNKNOWN;
}

export interface CopyState {
  cells: Uint8Array;
  contradiction: boolean;
  generations: number;
}

export function unpackCopy(l: CopyLayout, words: Uint32Array, at = 0): CopyState {
  const n = l.width * l.height;
  const cells = new Uint8Array(n);
  for (let i = 0; i < n; i++) cells[i] = cellOf(l, words, i, at);
  return { cells, contradiction: (words[at] & 1) !== 0, generations: words[at + 1] };
}

/** Known cells of a copy (popcount of the row planes). */
export function knownCount(l: CopyLayout, words: Uint32Array, at = 0): number {
  let n = 0;
  for (let i = l.rowF; i < l.colF; i++) n += popcount(words[at + i]);
  return n;
}

/** Row-major 0/1 of a copy whose cells are all known. */
export function solutionOf(l: CopyLayout, words: Uint32Array, at = 0): string {
  let s = '';
  for (let r = 0; r < l.height; r++) {
    for (let c = 0; c < l.width; c++) s += (words[at + l.rowF + r * l.wr + (c >>> 5)] >>> (c & 31)) & 1 ? '1' : '0';
  }
  return s;
}
