// Binary puzzle grids as GPU state words.
// Our automaton (shaders/binary/ca.wgsl): two bit planes per row, `known` and `value`, in words of 32 cells: row y,
// word k is the pair [known, value] at words 2 * (y * wordsPerRow + k); bit i is cell x = 32k + i. Bits past the
// width are 0 in both planes, and `value` is 0 wherever `known` is.
// The thesis automaton (shaders/binary/thesis.wgsl) keeps two words per cell: see thesisInit in reference.ts.
import { UNKNOWN } from './codec.ts';

export const wordsPerRow = (width: number) => Math.ceil(width / 32);

export function packCa(width: number, height: number, cells: ArrayLike<number>): Uint32Array {
  const words = new Uint32Array(height * wordsPerRow(width) * 2);
  packCaInto(width, height, cells, words, 0);
  return words;
}

/** packCa into `out` from word `at` (zeros are not written: `out` starts cleared) */
export function packCaInto(width: number, height: number, cells: ArrayLike<number>, out: Uint32Array, at: number): void {
  const wpr = wordsPerRow(width);
  if (wpr === 1) {
    // one word per row (the packs of small grids: the host packs every probe copy, keep it tight)
    for (let y = 0, i = 0; y < height; y++) {
      let known = 0;
      let value = 0;
      for (let x = 0; x < width; x++, i++) {
        const v = cells[i];
        known |= (v === UNKNOWN ? 0 : 1) << x;
        value |= (v === 1 ? 1 : 0) << x;
      }
      out[at + 2 * y] = known;
      out[at + 2 * y + 1] = value;
    }
    return;
  }
  for (let y = 0, i = 0; y < height; y++) {
    for (let x = 0; x < width; x++, i++) {
      const v = cells[i];
      if (v === UNKNOWN) continue;
      const w = at + 2 * (y * wpr + (x >>> 5));
      const bit = 1 << (x & 31);
      out[w] |= bit;
      if (v === 1) out[w + 1] |= bit;
    }
  }
}

export function unpackCa(width: number, height: number, words: Uint32Array): Uint8Array {
  const wpr = wordsPerRow(width);
  const cells = new Uint8Array(width * height);
  for (let y = 0, i = 0; y < height; y++) {
    for (let k = 0; k < wpr; k++) {
      const known = words[2 * (y * wpr + k)];
      const value = words[2 * (y * wpr + k) + 1];
      const end = Math.min(32, width - 32 * k);
      for (let b = 0; b < end; b++, i++) cells[i] = (known >>> b) & 1 ? (value >>> b) & 1 : UNKNOWN;
    }
  }
  return cells;
}
