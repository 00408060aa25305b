// Maze grids as the shaders hold them: bit planes, 32 cells per u32, rows of ceil(width / 32) words; cell x of a
// row is bit x % 32 of word x / 32. A 2-bit state is two planes one after the other (plane-major), so the rules
// work on 32 cells per word operation (shaders/maze/common.wgsl).
import type { Maze } from './codec.ts';
import { OPEN, TERMINAL, FAKE, WALL } from './reference.ts';

export const wordsPerRow = (width: number) => Math.ceil(width / 32);

/** region of one invocation of the in-place dead-end kernel: one word (32 cells) by DEADEND_REGION_ROWS rows */
export const DEADEND_REGION_ROWS = 64;
/** per-region words after the two planes: dispatch stamp, cells filled (shaders/maze/deadend_chains.wgsl) */
export const DEADEND_REGION_META = 2;
export const deadendRegions = (width: number, height: number) => wordsPerRow(width) * Math.ceil(height / DEADEND_REGION_ROWS);

/** One bit plane from a 0/1 cell array (each word assembled in a register: this runs over 36 M cells). */
export function packPlane(cells: ArrayLike<number>, width: number, height: number, out?: Uint32Array, at = 0): Uint32Array {
  const wpr = wordsPerRow(width);
  const words = out ?? new Uint32Array(wpr * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const base = at + y * wpr;
    for (let k = 0; k < wpr; k++) {
      const x0 = row + 32 * k;
      const n = Math.min(32, width - 32 * k);
      let v = 0;
      for (let b = 0; b < n; b++) v |= (cells[x0 + b] & 1) << b;
      words[base + k] = v;
    }
  }
  return words;
}

export function planeBit(words: Uint32Array, width: number, x: number, y: number, at = 0): number {
  return (words[at + y * wordsPerRow(width) + (x >> 5)] >>> (x & 31)) & 1;
}

/**
 * Dead-end state: plane A (open: path or terminal) then plane B (fake or terminal), so a cell's 2-bit code is
 * wall 00, open A, fake B, terminal AB (reference.ts WALL/OPEN/FAKE/TERMINAL); then `metaWords` per tile.
 */
export function packDeadend(maze: Maze, open: Uint8Array = maze.open, metaWords = 0): Uint32Array {
  const { width: w, height: h } = maze;
  const plane = wordsPerRow(w) * h;
  const words = new Uint32Array(2 * plane + metaWords);
  packPlane(open, w, h, words, 0);
  for (const t of [maze.start, maze.end]) {
    const x = t % w;
    const y = Math.floor(t / w);
    const k = y * wordsPerRow(w) + (x >> 5);
    words[k] |= 1 << (x & 31);
    words[plane + k] |= 1 << (x & 31);
  }
  return words;
}

export function unpackDeadend(words: Uint32Array, width: number, height: number): Uint8Array {
  const wpr = wordsPerRow(width);
  const plane = wpr * height;
  const s = new Uint8Array(width * height);
  const codes = [WALL, OPEN, FAKE, TERMINAL];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const k = y * wpr + (x >> 5);
      const a = (words[k] >>> (x & 31)) & 1;
      const b = (words[plane + k] >>> (x & 31)) & 1;
      s[y * width + x] = codes[a | (b << 1)];
    }
  }
  return s;
}

/** Wavefront state: plane L0 then plane L1, the 2-bit label 0 (not reached) or 1 + distance mod 3; the start is 1. */
export function packWavefront(maze: Maze, metaWords = 0): Uint32Array {
  const plane = wordsPerRow(maze.width) * maze.height;
  const words = new Uint32Array(2 * plane + metaWords);
  const x = maze.start % maze.width;
  words[Math.floor(maze.start / maze.width) * wordsPerRow(maze.width) + (x >> 5)] |= 1 << (x & 31);
  return words;
}

export function unpackWavefront(words: Uint32Array, width: number, height: number): Uint8Array {
  const wpr = wordsPerRow(width);
  const plane = wpr * height;
  const labels = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let k = 0; k < wpr; k++) {
      const lo = words[y * wpr + k];
      const hi = words[plane + y * wpr + k];
      if ((lo | hi) === 0) continue;
      for (let b = 0; b < 32 && 32 * k + b < width; b++) labels[y * width + 32 * k + b] = ((lo >>> b) & 1) | (((hi >>> b) & 1) << 1);
    }
  }
  return labels;
}

/** Walker state: 4 bits per cell (3 used: reference.ts W), 8 cells per word, rows of ceil(width / 8) words. */
export const walkerWordsPerRow = (width: number) => Math.ceil(width / 8);

export function packWalker(state: Uint8Array, width: number, height: number, metaWords = 0): Uint32Array {
  const wpr = walkerWordsPerRow(width);
  const words = new Uint32Array(wpr * height + metaWords);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) words[y * wpr + (x >> 3)] |= state[y * width + x] << (4 * (x & 7));
  }
  return words;
}

export function unpackWalker(words: Uint32Array, width: number, height: number): Uint8Array {
  const wpr = walkerWordsPerRow(width);
  const s = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) s[y * width + x] = (words[y * wpr + (x >> 3)] >>> (4 * (x & 7))) & 15;
  }
  return s;
}

/** bit i (cell y * width + x) of a plane starting at word `at` */
export function planeReader(words: Uint32Array, width: number, at = 0): (i: number) => number {
  const wpr = wordsPerRow(width);
  return (i) => {
    const y = Math.floor(i / width);
    const x = i - y * width;
    return (words[at + y * wpr + (x >> 5)] >>> (x & 31)) & 1;
  };
}

/** the wavefront label (0, or 1 + distance mod 3) of cell i, read from the packed planes */
export function labelReader(words: Uint32Array, width: number, height: number): (i: number) => number {
  const lo = planeReader(words, width, 0);
  const hi = planeReader(words, width, wordsPerRow(width) * height);
  return (i) => lo(i) | (hi(i) << 1);
}
