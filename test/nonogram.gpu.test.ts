// The GPU line automaton against its CPU twin, generation by generation: same cells, same status, same generation
// count, in both ways of running it (one generation per dispatch pair, one invocation per line; and one invocation
// per copy running several generations per dispatch), on mixed sizes in one batch.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseNonograms, pictureToPuzzle, type Nonogram } from '../src/puzzles/nonogram/codec.ts';
import { lineSolve } from '../src/puzzles/nonogram/reference.ts';
import { gpuLineSolve } from '../src/puzzles/nonogram/solver.ts';
import { skipGpu, withDevice } from './gpu.ts';
import { randomPicture, rng } from './nonogram.helpers.ts';

const sizes: [number, number][] = [
  [1, 1],
  [5, 3],
  [31, 31], // the longest one-word line
  [32, 5], // 33 positions: two words
  [33, 40],
  [64, 10],
  [100, 7],
  [127, 3], // the longest line the GPU takes: four words
  [1, 20],
];

/** A random picture's puzzle, sometimes with one clue nudged so that there is no solution. */
function mixed(seed: number): Nonogram[] {
  const out: Nonogram[] = [];
  sizes.forEach(([w, h], i) => {
    for (const density of [30, 55, 80]) out.push(randomPicture(w, h, seed * 100 + i * 7 + density, density));
  });
  const r = rng(seed);
  for (let i = 0; i < 6; i++) {
    const p = randomPicture(12, 9, seed + i, 60);
    const row = p.rows[r(p.height)];
    if (row.length) row[r(row.length)] = Math.max(1, row[0] - 1); // a contradiction, usually
    out.push(p);
  }
  return out;
}

function expectTwin(ps: Nonogram[], got: { cells: Uint8Array; status: string; generations: number }[], what: string) {
  ps.forEach((p, i) => {
    const want = lineSolve(p);
    const where = `${what} #${i} ${p.width}x${p.height}`;
    expect(got[i].status, where).toBe(want.status);
    if (want.status === 'contradiction') return; // the state at a contradiction is not specified
    expect(got[i].generations, where).toBe(want.generations);
    expect(Array.from(got[i].cells).join(''), where).toBe(Array.from(want.cells).join(''));
  });
}

describe.skipIf(skipGpu)('nonogram line automaton: GPU = CPU twin', () => {
  for (const mode of ['one-gen', 'multi-gen'] as const) {
    it(`${mode}: random pictures of mixed sizes (1x1 .. 127x3) in one batch, and contradictions`, async () => {
      await withDevice(async (ctx) => {
        const ps = mixed(mode === 'one-gen' ? 1 : 2);
        expectTwin(ps, await gpuLineSolve(ctx, ps, { mode }), mode);
      });
    });
  }

  it('puzzles with givens and an all-empty puzzle', async () => {
    await withDevice(async (ctx) => {
      const diag: Nonogram = { width: 2, height: 2, rows: [[1], [1]], columns: [[1], [1]], givens: Uint8Array.from([0, 1, 0, 0]) };
      const empty = pictureToPuzzle(new Array(35).fill(0), 7, 5);
      const out = await gpuLineSolve(ctx, [diag, empty]);
      expect(out[0].status).toBe('solved');
      expect(Array.from(out[0].cells)).toEqual([2, 1, 1, 2]);
      expect(out[1].status).toBe('solved');
      expect(out[1].generations).toBe(1);
    });
  });

  const sgt = new URL('../../shared/data/nonogram/sgt/pattern_10x10.tsv', import.meta.url).pathname;
  it.runIf(existsSync(sgt))('line-solvable 10x10s settle in a few generations (the thesis CA: 4,489)', async () => {
    await withDevice(async (ctx) => {
      const ps = parseNonograms(readFileSync(sgt), sgt).map((r) => r.puzzle!);
      const out = await gpuLineSolve(ctx, ps);
      expect(out.every((o) => o.status === 'solved')).toBe(true);
      const most = Math.max(...out.map((o) => o.generations));
      expect(most).toBeLessThanOrEqual(24);
      expectTwin(ps, out, 'sgt 10x10');
    });
  });
});
