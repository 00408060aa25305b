// Sudoku: the elimination automaton on the GPU against its CPU twin (bit for bit per generation), the in-place
// sweeps against the twin's fixpoint, and the complete solver against the CPU solver.
import { existsSync, readFileSync } from 'node:fs';
import { runCli, runCliInterrupted } from './cli.helpers.ts';
import { describe, expect, it } from 'vitest';
import { Batch } from '../src/engine/batch.ts';
import { FLAG_CONTRADICTION } from '../src/engine/constants.ts';
import { parseSudoku } from '../src/puzzles/sudoku/codec.ts';
import { rng } from '../src/puzzles/random.ts';
import { emptyPuzzle, randomPuzzle } from '../src/puzzles/sudoku/generate.ts';
import { caInput } from '../src/puzzles/sudoku/pack.ts';
import {
  caRun,
  caStep,
  gridString,
  initialMasks,
  RULE_HIDDEN,
  RULE_LOCKED,
  RULE_NAKED,
  RULES_ALL,
  solveCpu,
  topology,
  verify,
  type SudokuPuzzle,
} from '../src/puzzles/sudoku/reference.ts';
import { solveLanes } from '../src/puzzles/sudoku/lane.ts';
import { compileFull, runCa, solveFull, solveFullRounds, sudokuRule } from '../src/puzzles/sudoku/solver.ts';
import { garbageSpare, skipGpu, withDevice } from './gpu.ts';

const DATA = new URL('../../shared/data/sudoku/', import.meta.url).pathname;
const haveData = existsSync(DATA);

function dataset(name: string, limit: number, stride = 1): SudokuPuzzle[] {
  const recs = parseSudoku(readFileSync(DATA + name), name);
  return recs.filter((r, i) => r.puzzle && i % stride === 0).slice(0, limit).map((r) => r.puzzle!);
}

/**
 * A 9x9 jigsaw whose regions are not boxes: in each band, region k takes block (k + i) mod 3 of the band's row i.
 * It has solutions: the grid (3(r mod 3) + r/3 + c) mod 9 + 1 puts every value once in each such region.
 */
function jigsaw(): SudokuPuzzle {
  const regions = Uint8Array.from({ length: 81 }, (_, x) => {
    const r = Math.floor(x / 9);
    return Math.floor(r / 3) * 3 + ((Math.floor((x % 9) / 3) - (r % 3) + 3) % 3);
  });
  return { ...emptyPuzzle(9), regions };
}

/** A mixed batch: 4x4, 6x6 (3x2 boxes), 9x9, 16x16, an X-sudoku, a jigsaw, some with wrong clues. */
function mixedPuzzles(seed: number, count = 24): SudokuPuzzle[] {
  const random = rng(seed);
  const shapes = [emptyPuzzle(4), emptyPuzzle(6), emptyPuzzle(9), emptyPuzzle(9, 3, 3, true), emptyPuzzle(16), emptyPuzzle(8, 4, 2), jigsaw()];
  const out: SudokuPuzzle[] = [];
  for (let k = 0; k < count; k++) {
    const shape = shapes[k % shapes.length];
    // sparse 16x16 grids need long searches: keep more of their clues
    const keep = shape.n === 16 ? 0.6 + 0.2 * random() : 0.25 + 0.3 * random();
    out.push(randomPuzzle(shape, keep, random, k % 5 === 4 ? 2 : 0));
  }
  return out;
}

describe.skipIf(skipGpu)('sudoku elimination automaton: GPU against the CPU twin', () => {
  for (const rules of [RULE_NAKED, RULE_NAKED | RULE_HIDDEN, RULES_ALL, RULE_HIDDEN | RULE_LOCKED]) {
    it(`every generation bit for bit, mixed sizes in one batch, rules ${rules}`, async () => {
      await withDevice(async (ctx) => {
        const puzzles = mixedPuzzles(100 + rules);
        for (const gens of [1, 2, 5]) {
          const batch = await Batch.create(ctx, sudokuRule);
          const ids = puzzles.map((p) => batch.add(caInput(p, initialMasks(p), rules, gens)));
          await batch.run({ maxGenerations: gens, readbackEvery: 1 });
          const states = await batch.readStates(ids);
          batch.destroy();
          puzzles.forEach((p, i) => {
            const t = topology(p);
            let m = initialMasks(p);
            let g = 0;
            for (; g < gens; g++) {
              const s = caStep(t, m, rules);
              if (!(s.flags & 1)) break; // a fixpoint: the engine stops the grid too
              m = s.next;
              if (s.flags & FLAG_CONTRADICTION) {
                g++;
                break;
              }
            }
            const got = Array.from(states[i]);
            const want = Array.from(m);
            expect(got, `puzzle ${i} (${p.n}x${p.n}) after ${gens}`).toEqual(want);
          });
        }
      });
    });
  }

  it('runCa: status, generations and per-generation rule log match the twin (sync)', async () => {
    await withDevice(async (ctx) => {
      const puzzles = mixedPuzzles(7);
      const got = await runCa(ctx, puzzles, { mode: 'sync' });
      puzzles.forEach((p, i) => {
        const want = caRun(p);
        expect(got[i].status, `puzzle ${i}`).toBe(want.status);
        expect(got[i].generations).toBe(want.generations);
        expect(Array.from(got[i].masks)).toEqual(Array.from(want.masks));
        expect(got[i].log.map(([a, b, c]) => a + (b << 10) + (c << 20))).toEqual(want.log.map((l) => l.counter));
      });
    });
  });

  it('in-place sweeps reach the same fixpoint as the synchronous twin', async () => {
    await withDevice(async (ctx) => {
      const puzzles = [...mixedPuzzles(11), ...(haveData ? dataset('puzzles2_17_clue', 150, 97) : [])];
      const got = await runCa(ctx, puzzles, { mode: 'rounds' });
      puzzles.forEach((p, i) => {
        const want = caRun(p);
        expect(got[i].status, `puzzle ${i}`).toBe(want.status === 'capped' ? 'stalled' : want.status);
        if (want.status !== 'contradiction') expect(Array.from(got[i].masks), `puzzle ${i}`).toEqual(Array.from(want.masks));
      });
    });
  });
});

describe.skipIf(skipGpu)('sudoku complete solver', () => {
  it('solves random puzzles of every size like the CPU solver, multiples included', async () => {
    await withDevice(async (ctx) => {
      const random = rng(3);
      const puzzles = [
        ...mixedPuzzles(5, 12),
        // few clues: many solutions (a sparse 9x9 takes a dispatch per guess, too slow for a test on SwiftShader)
        randomPuzzle(emptyPuzzle(6), 0.1, random),
        emptyPuzzle(4),
      ];
      const { results } = await solveFull(ctx, puzzles);
      puzzles.forEach((p, i) => {
        const cpu = solveCpu(p, 2).solutions.length;
        const r = results[i];
        const want = cpu === 0 ? 'contradiction' : cpu === 1 ? 'solved' : 'multiple';
        expect(r.status, `puzzle ${i} (${p.n}x${p.n})`).toBe(want);
        if (r.solution) expect(verify(p, r.solution)).toBe(true);
        if (r.solution2) {
          expect(verify(p, r.solution2)).toBe(true);
          expect(r.solution2).not.toBe(r.solution);
        }
      });
    });
  });

  it.skipIf(!haveData)('Norvig samples, a 17-clue sample and a Serg sample (multiples)', async () => {
    await withDevice(async (ctx) => {
      // every Serg puzzle has two or more solutions
      const puzzles = [
        ...dataset('norvig_top95.txt', 20, 5),
        ...dataset('norvig_hardest.txt', 11),
        ...dataset('puzzles2_17_clue', 30, 1637),
        ...dataset('puzzles7_serg_benchmark', 20, 499),
      ];
      const { results } = await solveFull(ctx, puzzles);
      let multiples = 0;
      puzzles.forEach((p, i) => {
        const cpu = solveCpu(p, 2).solutions.length;
        expect(results[i].status, `puzzle ${i}`).toBe(cpu === 1 ? 'solved' : 'multiple');
        expect(verify(p, results[i].solution!)).toBe(true);
        if (cpu > 1) multiples++;
      });
      expect(multiples).toBeGreaterThan(0);
    });
  });

  it('both lane kernels (digit planes, cell by cell) decide like the CPU solver, solutions verified', async () => {
    await withDevice(async (ctx) => {
      const random = rng(17);
      // standard 9x9: unique, multiple (few clues), contradictory (a wrong clue)
      const puzzles = Array.from({ length: 40 }, (_, k) => randomPuzzle(emptyPuzzle(9), k % 4 === 3 ? 0.12 : 0.3 + 0.2 * random(), random, k % 5 === 4 ? 1 : 0));
      const want = puzzles.map((p) => Math.min(2, solveCpu(p, 2).solutions.length));
      for (const planes of [true, false]) {
        // the stacks' buffer is a reused one: garbage in it must change nothing
        garbageSpare(ctx, 8 << 20);
        const got = await solveLanes(ctx, puzzles, { planes });
        puzzles.forEach((p, i) => {
          const o = got[i]!;
          expect(o.status, `puzzle ${i}, planes ${planes}`).toBe(['contradiction', 'solved', 'multiple'][want[i]]);
          for (const values of o.solutions) expect(verify(p, gridString(values))).toBe(true);
        });
      }
      expect(want.filter((w) => w === 2).length).toBeGreaterThan(0);
      expect(want.filter((w) => w === 0).length).toBeGreaterThan(0);
    });
  });

  it('Ctrl-C prints every puzzle, the answered ones as answered and the others unsolved `interrupted` (exit 1); it killed the process with no output', async () => {
    // a 9x9 and an empty 25x25, which runs on (the lanes, then the rounds solver by name: the CPU search, which
    // takes it on SwiftShader by default, answers it in 0.05 s) until stopped
    const input = '6...5748.3...6...........5............41..26...9..37..72.3......4.7..5....5.128..\n' + '.'.repeat(625) + '\n';
    const r = await runCliInterrupted(['solve', 'sudoku', '--json', '--handed-back', 'gpu', '-'], input, 1500);
    expect(r.sentAt, r.stderr).toBeGreaterThan(0);
    expect([r.code, r.signal], r.stderr).toEqual([1, null]);
    expect(r.stderr).toContain('interrupted: stopping after the work in flight');
    const recs = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(recs.map((x) => [x.status, x.reason])).toEqual([['solved', undefined], ['unsolved', 'interrupted']]);
  }, 120_000);

  it('ilca: Ctrl-C and --timeout stop between chunks of runs, the runs not started `interrupted` or `timeout` (a chunk was every run: 500 runs of 32,000 steps held a 5-s timeout 94 s)', async () => {
    // 60 runs of 32,000 steps, ~15 s in one dispatch here; the chunks start with 8 runs (~2 s)
    const input = readFileSync(new URL('../samples/sudoku/generated-9x9-25-clues.txt', import.meta.url), 'utf8');
    const args = ['solve', 'sudoku', '--method', 'ilca', '--runs', '20', '--steps', '32000', '--json', '-'];
    const stopped = (stdout: string) => stdout.trim().split('\n').map((l) => JSON.parse(l)).map((x) => [x.status, x.reason]);
    const r = await runCliInterrupted(args, input, 500);
    expect(r.sentAt, r.stderr).toBeGreaterThan(0);
    expect([r.code, r.signal], r.stderr).toEqual([1, null]);
    expect(stopped(r.stdout)).toContainEqual(['unsolved', 'interrupted']);
    const t0 = performance.now();
    const timed = runCli([...args.slice(0, -1), '--timeout', '2', '-'], input);
    // (loose: the whole run took ~15 s in one dispatch, ~5 s stopped; the reason is what tells them apart)
    expect(performance.now() - t0, timed.stderr).toBeLessThan(20_000);
    expect(stopped(timed.stdout)).toContainEqual(['unsolved', 'timeout']);
    expect(timed.status).toBe(1);
  }, 120_000);

  it('a timeout holds when the lanes hand a puzzle to the rounds solver (an empty 25x25 ran 55 s past a 5-s one)', async () => {
    await withDevice(async (ctx) => {
      await compileFull(ctx, [emptyPuzzle(25)]);
      const t0 = performance.now();
      const { results } = await solveFull(ctx, [emptyPuzzle(25)], { timeoutMs: 2000 });
      expect([results[0].status, results[0].reason]).toEqual(['unsolved', 'timeout']);
      expect(performance.now() - t0, 'the deadline and a round past it').toBeLessThan(6000);
    });
  });

  it('puzzles the lanes hand back (node cap) are finished by the rounds solver', async () => {
    await withDevice(async (ctx) => {
      const puzzles = [...mixedPuzzles(9, 10), randomPuzzle(emptyPuzzle(6), 0.1, rng(4))];
      const capped = await solveFull(ctx, puzzles, { laneNodeCap: 1 });
      const rounds = await solveFullRounds(ctx, puzzles);
      puzzles.forEach((p, i) => {
        const cpu = solveCpu(p, 2).solutions.length;
        const want = cpu === 0 ? 'contradiction' : cpu === 1 ? 'solved' : 'multiple';
        expect(capped.results[i].status, `puzzle ${i}`).toBe(want);
        expect(rounds.results[i].status, `puzzle ${i}`).toBe(want);
        if (capped.results[i].solution) expect(verify(p, capped.results[i].solution!)).toBe(true);
      });
    });
  });

  it('puzzles the lanes hand back go to the CPU search\'s threads with handedBack cpu (an empty 25x25: 40 s on the rounds solver, 0.05 s there)', async () => {
    await withDevice(async (ctx) => {
      const puzzles = [...mixedPuzzles(9, 10), randomPuzzle(emptyPuzzle(6), 0.1, rng(4))];
      const capped = await solveFull(ctx, puzzles, { laneNodeCap: 1, handedBack: 'cpu' });
      const note = "on the CPU search: past the lanes' stack or node cap (--handed-back)";
      const handed = capped.results.filter((r) => r.extra?.note === note).length;
      expect(handed, 'some puzzles need more than one grid').toBeGreaterThan(0);
      puzzles.forEach((p, i) => {
        const cpu = solveCpu(p, 2).solutions;
        const want = cpu.length === 0 ? 'contradiction' : cpu.length === 1 ? 'solved' : 'multiple';
        expect(capped.results[i].status, `puzzle ${i}`).toBe(want);
        for (const s of [capped.results[i].solution, capped.results[i].solution2]) if (s) expect(verify(p, s), `puzzle ${i}`).toBe(true);
      });
      // the CLI: auto takes the threads on a CPU-emulated adapter, the rounds solver on a real GPU
      const r = runCli(['solve', 'sudoku', '--json', '-'], `${'.'.repeat(625)}\n`);
      const empty = JSON.parse(r.stdout);
      expect(empty.status).toBe('multiple');
      expect(empty.note).toBe(ctx.adapter.fallback ? note : undefined);
    });
  }, 120_000);
});
