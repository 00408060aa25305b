// Seeded randomness for generators: the same seed gives the same puzzle on every platform (`--seed S`).

/** The largest seed: rng() reads a seed modulo 2^32, so a larger one would give a smaller one's puzzles. */
export const MAX_SEED = 2 ** 32 - 1;

/** mulberry32: small, fast, seedable; uniform in [0, 1) */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Attempts a generator makes before it gives up: 200 on grids of up to `fullAt` cells, proportionally fewer on
 * larger ones (each attempt costs more there), never fewer than `least`.
 */
export function attemptsFor(cells: number, fullAt: number, least: number): number {
  return Math.max(least, Math.min(200, Math.round((200 * fullAt) / cells)));
}
