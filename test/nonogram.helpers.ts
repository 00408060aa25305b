// Shared by the nonogram tests: a small deterministic generator and random pictures as puzzles.
import { pictureToPuzzle, type Nonogram } from '../src/puzzles/nonogram/codec.ts';

/** xorshift32: n -> a whole number in [0, n) */
export function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return (n: number) => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) % n;
  };
}

/** The puzzle of a random picture (`density` percent filled); `picture` is its row-major 0/1. */
export function randomPicture(w: number, h: number, seed: number, density = 50): Nonogram & { picture: string } {
  const r = rng(seed);
  const cells = Array.from({ length: w * h }, () => (r(100) < density ? 1 : 0));
  return { ...pictureToPuzzle(cells, w, h), picture: cells.join('') };
}

/** A random picture's clues as one JSON line (a puzzle of a .jsonl input). */
export const pictureJson = (w: number, h: number, seed: number, density = 50) => {
  const p = randomPicture(w, h, seed, density);
  return JSON.stringify({ rows: p.rows, columns: p.columns });
};
