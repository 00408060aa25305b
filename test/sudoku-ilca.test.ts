// The paper's ILCA: GPU against its CPU twin, bit for bit (f32 log-probabilities, actions, steps), and seeded:
// the same seed gives the same result.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Batch } from '../src/engine/batch.ts';
import { parseSudoku } from '../src/puzzles/sudoku/codec.ts';
import { emptyPuzzle, randomPuzzle, rng } from '../src/puzzles/sudoku/generate.ts';
import { factorTable, ILCA_PRESETS, ilcaInitial, ilcaInput, ilcaRule, ilcaRunCpu, ilcaStep, paperPuzzle, runIlca, type IlcaParams } from '../src/puzzles/sudoku/ilca.ts';
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
        for (const k of [1, 3, 20]) {
          const batch = await Batch.create(ctx, ilcaRule);
          const ids = ps.map((p, i) => batch.add({ ...ilcaInput(p, 100 + i, params), maxGenerations: k }));
          await batch.run({ maxGenerations: k, readbackEvery: 1 });
          const states = await batch.readStates(ids);
          batch.destroy();
          ps.forEach((p, i) => {
            const table = factorTable(p, params);
            let s = ilcaInitial(p, 100 + i, params);
            for (let step = 0; step < k; step++) {
              const r = ilcaStep(p, s, table, 100 + i, params.sr, params.capped);
              s = r.next;
              if (r.unfinished === 0) break; // the engine stops a solved grid there too
            }
            expect(Array.from(states[i]), `puzzle ${i} after ${k} steps`).toEqual(Array.from(s.words));
          });
        }
      });
    });
  }

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
