// The paper's ILCA: GPU against its CPU twin, bit for bit (f32 log-probabilities, actions, steps), and seeded:
// the same seed gives the same result.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseSudoku } from '../src/puzzles/sudoku/codec.ts';
import { rng } from '../src/puzzles/random.ts';
import { emptyPuzzle, randomPuzzle } from '../src/puzzles/sudoku/generate.ts';
import { factorTable, ILCA_PRESETS, ilcaInitial, ilcaRunCpu, ilcaStep, ilcaValues, paperD, paperPuzzle, runIlca, type IlcaParams } from '../src/puzzles/sudoku/ilca.ts';
import { gridString, verify, type SudokuPuzzle } from '../src/puzzles/sudoku/reference.ts';
import { skipGpu, withDevice } from './gpu.ts';

const DATA = new URL('../../shared/data/sudoku/sgt/', import.meta.url).pathname;

function puzzles(): SudokuPuzzle[] {
  const random = rng(9);
  // the paper's kind of puzzle (Cs.m: each cell blanked with probability d; several solutions at d = 0.8), others
  const out = [paperPuzzle(0.3, random), paperPuzzle(0.8, random), randomPuzzle(emptyPuzzle(9), 0.55, random), randomPuzzle(emptyPuzzle(6), 0.4, random), randomPuzzle(emptyPuzzle(4), 0.3, random)];
  if (existsSync(DATA)) out.push(...parseSudoku(readFileSync(`${DATA}solo_3x3di.tsv`), 'di').slice(0, 3).map((r) => r.puzzle!));
  return out;
}

/** The CPU twin's state after at most k time-steps (stopping, as a run does, at the step that finds it resolved). */
function cpuState(p: SudokuPuzzle, seed: number, params: IlcaParams, k: number): Uint32Array {
  const table = factorTable(p, params);
  let s = ilcaInitial(p, seed, params);
  for (let step = 0; step < k; step++) {
    const r = ilcaStep(p, s, table, seed, params.sr, params.capped);
    if (r.unfinished === 0) break;
    s = r.next;
  }
  return s.words;
}

describe.skipIf(skipGpu)('ILCA: GPU against the CPU twin', () => {
  // lp = 5 kills actions (eq. 9 < 0 below d = 16): the lone-live-action rule; sr = 7 brings resets into 20 steps
  const cases: [string, IlcaParams][] = [
    ['base', ILCA_PRESETS.base],
    ['lp=5', { ...ILCA_PRESETS['lp=3.5'], lp: 5 }],
    ['sr=7', { ...ILCA_PRESETS['sr=40'], sr: 7 }],
    ['capped, sr=7', { ...ILCA_PRESETS['lp/lr=20'], sr: 7, capped: true }],
    ['improved', ILCA_PRESETS.improved],
  ];
  for (const [name, params] of cases) {
    it(`every word after k steps, ${name}`, async () => {
      await withDevice(async (ctx) => {
        const ps = puzzles();
        const jobs = ps.map((puzzle, i) => ({ puzzle, seed: 100 + i }));
        for (const k of [1, 3, 20]) {
          const got = await runIlca(ctx, jobs, { ...params, steps: k }, undefined, { withState: true });
          ps.forEach((p, i) => expect(Array.from(got[i].state!), `puzzle ${i} after ${k} steps`).toEqual(Array.from(cpuState(p, 100 + i, params, k))));
        }
      });
    });
  }

  it('edge grids (no givens, all givens, 1x1, 16x16, a contradiction), few lanes and small chunks', async () => {
    await withDevice(async (ctx) => {
      const random = rng(4);
      const full = randomPuzzle(emptyPuzzle(9), 1, random);
      const clash = { ...emptyPuzzle(4), givens: Uint8Array.from([1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]) };
      const ps = [emptyPuzzle(9), full, emptyPuzzle(1), randomPuzzle(emptyPuzzle(16), 0.6, random), clash, ...puzzles().slice(0, 2)];
      // several runs of each puzzle, shapes interleaved, more runs than lanes, chunks that end mid-shape
      const jobs = [0, 1, 2].flatMap((r) => ps.map((puzzle, i) => ({ puzzle, seed: 31 * i + r })));
      const params = { ...ILCA_PRESETS['sr=40'], sr: 9, steps: 30 };
      const stats = { dispatches: 0, readbacks: 0 };
      const got = await runIlca(ctx, jobs, params, undefined, { withState: true, lanes: 4, chunk: 5 }, stats);
      jobs.forEach((j, i) => {
        const cpu = ilcaRunCpu(j.puzzle, j.seed, params);
        expect([got[i].solved, got[i].steps, gridString(got[i].values)], `job ${i}`).toEqual([cpu.solved, cpu.steps, gridString(cpu.values)]);
        expect(Array.from(got[i].state!), `job ${i}`).toEqual(Array.from(cpuState(j.puzzle, j.seed, params, params.steps)));
      });
      expect(got[1].solved && got[1].steps === 1 && got[7 + 1].steps === 1).toBe(true);
      expect(got[2].solved).toBe(true);
      // per shape: 9x9 12 runs in 3 chunks, 1x1, 16x16, 4x4 one each
      expect(stats.readbacks).toBe(6);
    });
  });

  it('runIlca: same steps and grids as the CPU run, and the same seed gives the same result', async () => {
    await withDevice(async (ctx) => {
      const ps = puzzles();
      const params = { ...ILCA_PRESETS['sr=40'], steps: 120 };
      const jobs = ps.map((puzzle, i) => ({ puzzle, seed: 7 + i }));
      const a = await runIlca(ctx, jobs, params);
      const b = await runIlca(ctx, jobs, params);
      ps.forEach((p, i) => {
        const cpu = ilcaRunCpu(p, 7 + i, params);
        expect(a[i].solved).toBe(cpu.solved);
        expect(a[i].steps).toBe(cpu.steps);
        expect(gridString(a[i].values)).toBe(gridString(cpu.values));
        expect(gridString(b[i].values)).toBe(gridString(a[i].values));
        if (a[i].solved) expect(verify(p, gridString(a[i].values))).toBe(true);
      });
    });
  });
});

describe('ILCA: the reading of the paper (CPU twin)', () => {
  const p = paperPuzzle(0.5, rng(3));
  const W = p.n + 1;

  it('starts every live candidate at weight 1 (log 0), dead ones at 0; givens hold their value', () => {
    const s = ilcaInitial(p, 1, ILCA_PRESETS.base);
    for (let i = 0; i < 81; i++) {
      const live = Array.from(s.floats.subarray(i * W, i * W + 9)).filter((x) => x === 0).length;
      if (p.givens[i]) expect([live, s.words[i * W + 9] & 0xff]).toEqual([1, p.givens[i]]);
      else expect(live).toBeGreaterThan(0);
    }
  });

  it('Algorithm 3 puts a cell of a wrong unit back to its initial vector; Algorithm 1 moves one weight', () => {
    const params = { ...ILCA_PRESETS.base, sr: 2 };
    const table = factorTable(p, params);
    const s0 = ilcaInitial(p, 5, params);
    const s1 = ilcaStep(p, s0, table, 5, params.sr).next; // step 1: Algorithm 1
    let moved = 0;
    for (let i = 0; i < 81; i++) for (let v = 0; v < 9; v++) if (s1.floats[i * W + v] !== s0.floats[i * W + v]) moved++;
    expect(moved).toBeGreaterThan(0);
    expect(moved).toBeLessThanOrEqual(81 - p.givens.filter((g) => g).length);
    const s2 = ilcaStep(p, s1, table, 5, params.sr).next; // step 2: Algorithm 3 (the grid is not solved yet)
    const sums = ilcaValues(p, s1);
    for (let i = 0; i < 81; i++) {
      if (p.givens[i]) continue;
      const r = Math.floor(i / 9);
      const c = i % 9;
      const b = Math.floor(r / 3) * 3 * 9 + Math.floor(c / 3) * 3;
      const sum = (cells: number[]) => cells.reduce((a, k) => a + sums[k], 0);
      const ok = sum([0, 1, 2, 3, 4, 5, 6, 7, 8].map((k) => r * 9 + k)) === 45 && sum([0, 1, 2, 3, 4, 5, 6, 7, 8].map((k) => k * 9 + c)) === 45 && sum([0, 1, 2, 9, 10, 11, 18, 19, 20].map((k) => b + k)) === 45;
      const want = ok ? s1.floats.subarray(i * W, i * W + 9) : s0.floats.subarray(i * W, i * W + 9);
      expect(Array.from(s2.floats.subarray(i * W, i * W + 9)), `cell ${i}`).toEqual(Array.from(want));
    }
  });

  it('a cell never loses its last live action (eq. 9 below 0 with a large lp)', () => {
    const params = { ...ILCA_PRESETS['lp=3.5'], lp: 20 };
    const table = factorTable(p, params);
    let s = ilcaInitial(p, 9, params);
    for (let t = 0; t < 30; t++) s = ilcaStep(p, s, table, 9, 0).next;
    for (let i = 0; i < 81; i++) expect(Array.from(s.floats.subarray(i * W, i * W + 9)).some((x) => x > -1e29), `cell ${i}`).toBe(true);
  });

  it('draws the paper-like levels as Table 1 does: 33/34/33 at three d values', () => {
    const ds = [0.25, 0.3, 0.35];
    const counts = [0, 0, 0];
    for (let i = 0; i < 100; i++) counts[ds.indexOf(paperD(ds, i, 100))]++;
    expect(counts).toEqual([33, 34, 33]);
  });
});
