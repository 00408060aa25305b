// Shared by the nonogram tests: a small deterministic generator and random pictures as puzzles.
import { pictureToPuzzle, type Nonogram } from '../src/puzzles/nonogram/codec.ts';
import { EMPTY, FILLED } from '../src/puzzles/nonogram/reference.ts';

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

/** A linear congruential generator: a number in [0, 1) per call (the line tests' draws). */
export function lcg(seed: number) {
  let s = seed;
  return () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 8) / (1 << 24);
}

/**
 * A random line of 1-31 cells for the line tests: the clue of a random picture (55% filled), and known cells from
 * the picture, each with probability `share()` (drawn after the picture), a `flipped` share of them wrong (so some
 * lines contradict their clue); as cells and as bits.
 */
export function randomKnownLine(rand: () => number, share: () => number, flipped: number) {
  const len = 1 + Math.floor(rand() * 31);
  const picture = Array.from({ length: len }, () => rand() < 0.55);
  const clue: number[] = [];
  for (let i = 0, run = 0; i <= len; i++) {
    if (i < len && picture[i]) run++;
    else if (run) clue.push(run), (run = 0);
  }
  const line = new Uint8Array(len);
  const knownShare = share();
  for (let i = 0; i < len; i++) if (rand() < knownShare) line[i] = picture[i] !== rand() < flipped ? FILLED : EMPTY;
  let fil = 0;
  let emp = 0;
  for (let i = 0; i < len; i++) {
    if (line[i] === FILLED) fil |= 1 << i;
    if (line[i] === EMPTY) emp |= 1 << i;
  }
  return { len, clue, line, fil, emp };
}
