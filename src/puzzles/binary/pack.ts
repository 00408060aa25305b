// Binary puzzle grids as GPU state words.
// Our automaton (shaders/binary/ca.wgsl): two bit planes per row, `known` and `value`, in words of 32 cells: row y,
// word k is the pair [known, value] at words 2 * (y * wordsPerRow + k); bit i is cell x = 32k + i. Bits past the
// width are 0 in both planes, and `value` is 0 wherever `known` is.
// The thesis automaton (shaders/binary/thesis.wgsl) keeps two words per cell: see thesisInit in reference.ts.
import { UNKNOWN } from './codec.ts';

export const wordsPerRow = (width: number) => Math.ceil(width / 32);

export function packCa(width: number, height: number, cells: ArrayLike<number>): Uint32Array {
  const wpr = wordsPerRow(width);
  const words = new Uint32Array(height * wpr * 2);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = cells[y * width + x];
      if (v === UNKNOWN) continue;
      const at = 2 * (y * wpr + (x >>> 5));
      const bit = 1 << (x & 31);
      words[at] |= bit;
      if (v === 1) words[at + 1] |= bit;
    }
  }
  return words;
}

export function unpackCa(width: number, height: number, words: Uint32Array): Uint8Array {
  const wpr = wordsPerRow(width);
  const cells = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = 2 * (y * wpr + (x >>> 5));
      const b = x & 31;
      cells[y * width + x] = (words[at] >>> b) & 1 ? (words[at + 1] >>> b) & 1 : UNKNOWN;
    }
  }
  return cells;
}
