// The GPU line automaton against its CPU twin, generation by generation: same cells, same status, same generation
// count, in both ways of running it (one generation per dispatch pair, one invocation per line; and one invocation
// per copy running several generations per dispatch), on mixed sizes in one batch.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseNonograms, pictureToPuzzle, type Nonogram } from '../src/puzzles/nonogram/codec.ts';
import { lineSolve, solveCpu, verify, type BranchScore, type CpuSolveOptions } from '../src/puzzles/nonogram/reference.ts';
import { compileNonogramRules, gpuLineSolve, solveNonograms } from '../src/puzzles/nonogram/solver.ts';
import { LANE_MAX_LINE, solveNonogramLanes } from '../src/puzzles/nonogram/lane.ts';
import type { RoundStats } from '../src/puzzles/nonogram/rounds.ts';
import { garbageSpare, skipGpu, withDevice } from './gpu.ts';
import { randomPicture, rng } from './nonogram.helpers.ts';
import { generateRandom } from '../src/puzzles/nonogram/generate.ts';
import { nonogram } from '../src/puzzles/nonogram/index.ts';
import type { SolveOptions } from '../src/puzzles/types.ts';

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

describe.skipIf(skipGpu)('nonogram full method (probing + search on the GPU) = CPU solver', () => {
  it('random pictures 3x3 .. 14x14: same status; unique puzzles the same solution; multiple ones two verified solutions', async () => {
    await withDevice(async (ctx) => {
      const ps: Nonogram[] = [];
      for (let seed = 1; seed <= 60; seed++) ps.push(randomPicture(3 + (seed % 12), 3 + ((seed * 7) % 12), seed * 13, 45 + (seed % 3) * 10));
      // and two with no solution at all
      ps.push({ width: 3, height: 2, rows: [[3], []], columns: [[1], [], [1]] });
      ps.push({ width: 2, height: 2, rows: [[1], [1]], columns: [[2], []], givens: Uint8Array.from([0, 0, 0, 1]) });
      const got = await solveNonograms(ctx, ps);
      const seen = new Set<string>();
      ps.forEach((p, i) => {
        const want = solveCpu(p);
        const where = `#${i} ${p.width}x${p.height}`;
        expect(got[i].status, where).toBe(want.status);
        seen.add(`${got[i].status}/${got[i].level}`);
        if (want.status === 'solved') expect(got[i].solution, where).toBe(want.solution);
        if (want.status === 'multiple') {
          expect(verify(p, got[i].solution!), where).toBe(true);
          expect(verify(p, got[i].solution2!), where).toBe(true);
          expect(got[i].solution).not.toBe(got[i].solution2);
        }
        if (got[i].level === 'line') expect(got[i].probes, where).toBe(0);
        if (got[i].level === 'search') expect(got[i].branches, where).toBeGreaterThan(0);
      });
      // the set exercises every outcome
      for (const k of ['solved/line', 'multiple/search', 'contradiction/line']) expect([...seen], k).toContain(k);
    });
  });

  it('the rounds solver (lanes off): same statuses on the same puzzles', async () => {
    await withDevice(async (ctx) => {
      const ps: Nonogram[] = [];
      for (let seed = 1; seed <= 30; seed++) ps.push(randomPicture(3 + (seed % 12), 3 + ((seed * 5) % 12), seed * 17, 45 + (seed % 3) * 10));
      const got = await solveNonograms(ctx, ps, { lanes: false });
      ps.forEach((p, i) => expect(got[i].status, `#${i}`).toBe(solveCpu(p).status));
    });
  });

  it('the rounds solver branches early below the root, at the default threshold and at another', async () => {
    await withDevice(async (ctx) => {
      // 25x25 random pictures that search a few levels deep: off (Infinity), every node below the root probes to
      // its fixpoint before it branches. Few puzzles make wide probe windows (a round's copies are shared among
      // them), and a node whose window spans its cells has nothing left to skip: a small batch's narrow windows
      const ps = [7004, 7031, 7052].map((seed) => randomPicture(25, 25, seed, 50));
      const probes = async (earlyBranchScore?: number) => {
        const got = await solveNonograms(ctx, ps, { lanes: false, earlyBranchScore, targetCopies: 64 });
        got.forEach((r, i) => {
          expect(r.status, `#${i}`).toBe('multiple');
          expect(verify(ps[i], r.solution!) && verify(ps[i], r.solution2!), `#${i}`).toBe(true);
        });
        return got.map((r) => r.probes);
      };
      const off = await probes(Infinity);
      for (const on of [await probes(), await probes(5)]) expect(on, `${on} against ${off}`).not.toEqual(off);
    });
  });

  it('one large puzzle: the rounds solver sizes its probe windows by the puzzle\'s cells', async () => {
    // gen nonogram --size 50x50 --seed 1 (needs probing): windows sized for ~1,000 copies of a 25x25 took 9,216
    // probes and 16 s here; the CPU solver takes 1,094
    const { puzzle, solution } = generateRandom(50, 50, 1);
    await withDevice(async (ctx) => {
      const [got] = await solveNonograms(ctx, [puzzle]);
      expect(got.status).toBe('solved');
      expect(got.solution).toBe(solution);
      expect(got.probes).toBeLessThan(3000);
    });
  });

  it('a timeout ends the puzzles still open as unsolved (timeout)', async () => {
    await withDevice(async (ctx) => {
      const hard = Array.from({ length: 4 }, (_, i) => randomPicture(25, 25, 1000 + i, 50));
      const got = await solveNonograms(ctx, hard, { timeoutMs: 1, lanes: false });
      expect(got.every((r) => r.status === 'unsolved' && r.reason === 'timeout')).toBe(true);
    });
  });

  it('the rounds solver: puzzles of several line widths share one deadline, and answers stream as they come', async () => {
    // a 33x20 (2-word lines) and a 100x8 (4 words) that take the rounds solver many seconds, and a 100x8 found contradictory at once
    const [hardNarrow, hardWide, easyWide] = parseNonograms(readFileSync(new URL('fixtures/nonogram-mixed-widths.jsonl', import.meta.url)), 'm.jsonl').map((r) => r.puzzle!);
    await withDevice(async (ctx) => {
      await compileNonogramRules(ctx, [hardNarrow, hardWide], { lanes: false });
      const streamed: [number, number][] = [];
      const t0 = performance.now();
      const got = await solveNonograms(ctx, [hardNarrow, hardWide, easyWide], { timeoutMs: 3000, lanes: false, onResult: (i) => streamed.push([i, performance.now() - t0]) });
      const took = performance.now() - t0;
      expect(got.map((r) => r.reason)).toEqual(['timeout', 'timeout', undefined]);
      // one after another, each width had the whole 3 s (6 s in all), and the easy one waited for the first's
      expect(took, 'the call keeps its deadline (a round or two past it at most)').toBeLessThan(5000);
      expect(streamed.map(([i]) => i)).toEqual([2]);
      expect(streamed[0][1], 'the easy puzzle is answered while the hard ones run').toBeLessThan(3000);
      expect(got[2].status).toBe('contradiction');
    });
  });

  it('lanes: a timeout ends the puzzles still open after the round it falls in as unsolved (timeout)', async () => {
    await withDevice(async (ctx) => {
      const hard = Array.from({ length: 8 }, (_, i) => randomPicture(31, 31, 2000 + i, 50));
      await compileNonogramRules(ctx, hard); // so that the first round starts before the deadline
      const got = await solveNonograms(ctx, hard, { timeoutMs: 200 });
      expect(got.some((r) => r.status === 'unsolved' && r.reason === 'timeout')).toBe(true);
      got.forEach((r, i) => {
        if (r.status === 'unsolved') {
          expect(r.reason).toBe('timeout');
          expect(r.probes, 'the probes its search ran before the deadline').toBeGreaterThan(0);
        } else {
          expect(verify(hard[i], r.solution!)).toBe(true);
        }
      });
    });
  });

  const jwilk = new URL('../../shared/data/nonogram/jwilk-nonogram/data/', import.meta.url).pathname;
  it.runIf(existsSync(jwilk))('jwilk (151 puzzles, 10x10 to 40x20, two line-word classes): same statuses as the CPU solver', async () => {
    await withDevice(async (ctx) => {
      const files = readdirSync(jwilk).filter((f) => f.endsWith('.nin')).sort();
      const ps = files.flatMap((f) => parseNonograms(readFileSync(jwilk + f), f)).map((r) => r.puzzle!);
      const got = await solveNonograms(ctx, ps);
      const levels: Record<string, number> = {};
      ps.forEach((p, i) => {
        expect(got[i].status, files[i]).toBe(solveCpu(p).status);
        levels[`${got[i].status}/${got[i].level}`] = (levels[`${got[i].status}/${got[i].level}`] ?? 0) + 1;
      });
      expect(levels['solved/line']).toBe(139);
      expect(got.filter((r) => r.status === 'multiple').length).toBe(4);
    });
  });
});

// The lanes kernel is solveCpu step for step: the same probes, branches, line settles, generations, level and
// solutions in the same order, whatever its neighbours in the SIMD lanes do.
describe.skipIf(skipGpu)('nonogram lanes kernel (one puzzle per invocation) = solveCpu, step for step', () => {
  function expectSteps(ps: Nonogram[], got: Awaited<ReturnType<typeof solveNonogramLanes>>, maxSolutions: number, twin: Pick<CpuSolveOptions, 'restartAfter' | 'earlyBranchScore'> = {}) {
    const seen = new Set<string>();
    ps.forEach((p, i) => {
      const o = got[i]!;
      // the twin of the search that answered (a hard puzzle may get a second one, with the other branch score)
      const want = solveCpu(p, { ...twin, maxSolutions, branchScore: o.branchScore });
      const where = `#${i} ${p.width}x${p.height} ${o.branchScore}`;
      expect({ status: o.status, probes: o.probes, branches: o.branches, settles: o.settles, generations: o.generations, level: o.level }, where).toEqual({
        status: want.status,
        probes: want.probes,
        branches: want.branches,
        settles: want.settles,
        generations: want.generations,
        level: want.level,
      });
      expect(o.solutions, where).toEqual([want.solution, want.solution2].filter((s) => s !== undefined));
      for (const s of o.solutions) expect(verify(p, s), where).toBe(true);
      seen.add(`${o.status}/${o.level}`);
    });
    return seen;
  }

  it('random pictures 1x1 .. 31x31 (odd sizes, densities 40-70%), contradictions, givens, empty clues; both modes', async () => {
    await withDevice(async (ctx) => {
      const ps: Nonogram[] = [{ width: 1, height: 1, rows: [[1]], columns: [[1]] }, pictureToPuzzle(new Array(31 * 3).fill(0), 31, 3)];
      for (let seed = 1; seed <= 70; seed++) ps.push(randomPicture(1 + ((seed * 7) % 18), 1 + ((seed * 11) % 17), seed * 31, 40 + (seed % 4) * 10));
      for (const [w, h] of [[LANE_MAX_LINE, LANE_MAX_LINE], [LANE_MAX_LINE, 9], [13, LANE_MAX_LINE]]) ps.push(randomPicture(w, h, w * h, 55));
      ps.push({ width: 3, height: 2, rows: [[3], []], columns: [[1], [], [1]] });
      ps.push({ width: 2, height: 2, rows: [[1], [1]], columns: [[2], []], givens: Uint8Array.from([0, 0, 0, 1]) });
      ps.push({ width: 2, height: 2, rows: [[1], [1]], columns: [[1], [1]], givens: Uint8Array.from([0, 1, 0, 0]) });
      for (const maxSolutions of [2, 1]) {
        const seen = expectSteps(ps, await solveNonogramLanes(ctx, ps, { maxSolutions }), maxSolutions);
        for (const k of ['solved/line', 'contradiction/line']) expect([...seen], k).toContain(k);
        expect([...seen].some((k) => k.endsWith('/search')), [...seen].join()).toBe(true);
      }
    });
  });

  it('the early-branch threshold: never (every node probed to its fixpoint) and at 5 cells, as the CPU twin', async () => {
    await withDevice(async (ctx) => {
      // 25x25 random pictures whose searches go a few levels deep (10k-16k probes), and two shallow ones
      const ps = [7004, 7031, 7051, 7052, 7038, 7049].map((seed) => randomPicture(25, 25, seed, 50));
      for (const [earlyBranchScore, maxSolutions] of [[Infinity, 2], [5, 1]]) {
        const got = await solveNonogramLanes(ctx, ps, { maxSolutions, earlyBranchScore, scores: ['weaker'] });
        expectSteps(ps, got, maxSolutions, { earlyBranchScore });
        // the trees differ from the default threshold's (else the test could not tell the two apart)
        expect(got.some((o, i) => o!.probes !== solveCpu(ps[i], { maxSolutions }).probes), `${earlyBranchScore}`).toBe(true);
      }
      // a fraction is the next whole cell, as solveCpu compares; a threshold that is not a number is refused
      expectSteps(ps.slice(0, 2), await solveNonogramLanes(ctx, ps.slice(0, 2), { earlyBranchScore: 4.5, scores: ['weaker'] }), 2, { earlyBranchScore: 4.5 });
      await expect(solveNonogramLanes(ctx, ps, { earlyBranchScore: NaN })).rejects.toThrow(/early-branch score of NaN/);
    });
  });

  const taai = new URL('../../shared/data/nonogram/tournament/question/taai2011.txt', import.meta.url).pathname;
  it.runIf(existsSync(taai))('TAAI 2011 #1-24 and #201-208 (25x25, searches with several solutions): 8 lanes, 12 slots, searches suspended every 300 probes and resumed, two rounds in flight', async () => {
    await withDevice(async (ctx) => {
      const all = parseNonograms(readFileSync(taai), taai).map((r) => r.puzzle!);
      const ps = [...all.slice(0, 24), ...all.slice(200, 208)];
      const stats = { dispatches: 0, readbacks: 0, gone: 0 };
      const seen = expectSteps(ps, await solveNonogramLanes(ctx, ps, { lanes: 8, slots: 12, budget: 300, scores: ['weaker'] }, stats), 2);
      expect(stats.dispatches).toBeGreaterThan(Math.ceil(ps.length / 12)); // searches waited in their slots
      // the round queued behind the one a job ended in skipped it, and its slot took a new job a round later
      expect(stats.gone).toBeGreaterThan(0);
      expect(seen).toContain('multiple/search');
    });
  });

  it.runIf(existsSync(taai))('stacks of 2 copies at first: searches that need more wait at the branch while every slot gets a deeper stack, and run as the CPU twin', async () => {
    await withDevice(async (ctx) => {
      const all = parseNonograms(readFileSync(taai), taai).map((r) => r.puzzle!);
      const ps = [...all.slice(0, 8), ...all.slice(200, 208)];
      const stats: RoundStats = { dispatches: 0, readbacks: 0 };
      const got = await solveNonogramLanes(ctx, ps, { lanes: 8, slots: 12, budget: 300, scores: ['weaker'], firstDepth: 2 }, stats);
      expectSteps(ps, got, 2);
      // stacks went 2, 4, 8, ... as deep as the deepest search (each deepening at most once per depth reached)
      const deepest = Math.max(...got.map((o) => o!.depth));
      expect(deepest).toBeGreaterThan(8);
      expect(stats.deepened).toBe(Math.ceil(Math.log2(deepest / 2)));
    });
  });

  it.runIf(existsSync(taai))('slots are written before they are read: searches in a reused buffer full of garbage run as the CPU twin', async () => {
    await withDevice(async (ctx) => {
      // the spare the next run takes (the largest one kept), its first 8 MB garbage: the run's 12 slots need 4.8 MB
      garbageSpare(ctx, 8 << 20);
      const all = parseNonograms(readFileSync(taai), taai).map((r) => r.puzzle!);
      const ps = [...all.slice(0, 8), ...all.slice(200, 204)];
      expectSteps(ps, await solveNonogramLanes(ctx, ps, { lanes: 8, slots: 12, budget: 300, scores: ['weaker'] }), 2);
    });
  });

  it.runIf(existsSync(taai))('TAAI 2011 #201-216, runs of 1,500 probes: searches start again with the other child order, both modes', async () => {
    await withDevice(async (ctx) => {
      const ps = parseNonograms(readFileSync(taai), taai).slice(200, 216).map((r) => r.puzzle!);
      const restartAfter = 1500;
      for (const maxSolutions of [1, 2]) {
        const got = await solveNonogramLanes(ctx, ps, { maxSolutions, restartAfter, lanes: 4, slots: 8, budget: 400, scores: ['weaker'] });
        expectSteps(ps, got, maxSolutions, { restartAfter });
        // some searches ran past two runs (1,500 + 3,000 probes), some ended in the first
        expect(got.some((o) => o!.probes > 3 * restartAfter)).toBe(true);
        expect(got.some((o) => o!.probes < restartAfter)).toBe(true);
      }
    });
  });

  it.runIf(existsSync(taai))('TAAI 2011 #201-224 with the other branch score (both copies\' cells) alone, both modes', async () => {
    await withDevice(async (ctx) => {
      const ps = parseNonograms(readFileSync(taai), taai).slice(200, 224).map((r) => r.puzzle!);
      for (const maxSolutions of [1, 2]) {
        const got = await solveNonogramLanes(ctx, ps, { maxSolutions, lanes: 8, slots: 16, scores: ['sum'] });
        expectSteps(ps, got, maxSolutions);
        expect(got.every((o) => o!.branchScore === 'sum')).toBe(true);
        // the trees differ from the default score's (else the test could not tell the two apart)
        expect(got.some((o, i) => o!.probes !== solveCpu(ps[i], { maxSolutions }).probes)).toBe(true);
      }
    });
  });

  it.runIf(existsSync(taai))('TAAI 2011 #201-224, a second search joining after 2 rounds: each answer is its own search\'s twin, the first to answer wins', async () => {
    await withDevice(async (ctx) => {
      const ps = parseNonograms(readFileSync(taai), taai).slice(200, 224).map((r) => r.puzzle!);
      const budget = 200;
      const stats: RoundStats = { dispatches: 0, readbacks: 0, joined: 0 };
      const got = await solveNonogramLanes(ctx, ps, { maxSolutions: 1, lanes: 8, slots: 32, budget, joinAfter: 2 }, stats);
      expectSteps(ps, got, 1);
      // the kernel's work counts the losing searches too, each round once: above the answers' probes, and at most
      // twice them and the rounds in flight (the two searches of a puzzle run alike, the loser at most 2 rounds more)
      const answers = got.reduce((s, o) => s + o!.probes, 0);
      expect(stats.work!.probes).toBeGreaterThan(answers);
      expect(stats.work!.probes).toBeLessThanOrEqual(2 * answers + ps.length * 4 * budget);
      const by = (score: string) => got.filter((o) => o!.branchScore === score);
      // puzzles done within two rounds never got a second search; of the others, each search answered some
      for (const o of got) if (o!.probes <= budget) expect(o!.branchScore).toBe('weaker');
      expect(by('sum').length).toBeGreaterThan(0);
      expect(by('weaker').some((o) => o!.probes > 3 * budget)).toBe(true);
      expect(stats.joined).toBeGreaterThan(by('sum').length);
      // the answer came from the search that needed fewer probes, give or take the rounds the second joined after
      // (2, and up to 2 more in flight) and the round they both ended in
      ps.forEach((p, i) => {
        const o = got[i]!;
        const other = solveCpu(p, { maxSolutions: 1, branchScore: o.branchScore === 'sum' ? 'weaker' : 'sum' }).probes;
        if (o.branchScore === 'sum') expect(o.probes, `#${201 + i}`).toBeLessThan(other);
        else expect(o.probes, `#${201 + i}`).toBeLessThanOrEqual(other + 5 * budget);
      });
    });
  });

  it.runIf(existsSync(taai))('TAAI 2011 #209: a puzzle\'s two searches split its share of each round', async () => {
    await withDevice(async (ctx) => {
      const p = parseNonograms(readFileSync(taai), taai)[208].puzzle!;
      const rounds = async (scores: BranchScore[]) => {
        const stats = { dispatches: 0, readbacks: 0 };
        const [o] = await solveNonogramLanes(ctx, [p], { maxSolutions: 1, lanes: 4, slots: 4, budget: 200, joinAfter: 2, scores }, stats);
        return { o: o!, rounds: stats.dispatches };
      };
      const alone = await rounds(['weaker']);
      const two = await rounds(['weaker', 'sum']);
      // the first search answers (6,440 probes against the second's 6,976), at half its pace once the second joined
      expect(two.o.branchScore).toBe('weaker');
      expect(two.o.probes).toBe(alone.o.probes);
      expect(alone.rounds).toBeLessThan(alone.o.probes / 200 + 4);
      expect(two.rounds).toBeGreaterThan(1.7 * alone.rounds);
    });
  });

  it.runIf(existsSync(taai))('TAAI 2011 #201-216 with a probe cap of 2,000: searches past it end capped at it, the others as the CPU twin', async () => {
    await withDevice(async (ctx) => {
      const ps = parseNonograms(readFileSync(taai), taai).slice(200, 216).map((r) => r.puzzle!);
      const cap = 2000;
      const got = await solveNonogramLanes(ctx, ps, { maxSolutions: 1, probeCap: cap, lanes: 4, slots: 8, budget: 150 });
      let capped = 0;
      ps.forEach((p, i) => {
        const want = solveCpu(p, { maxSolutions: 1 });
        const o = got[i]!;
        if (want.probes <= cap) {
          expect({ status: o.status, probes: o.probes, settles: o.settles }, `#${201 + i}`).toEqual({ status: want.status, probes: want.probes, settles: want.settles });
        } else {
          expect({ status: o.status, probes: o.probes }, `#${201 + i}`).toEqual({ status: 'capped', probes: cap });
          capped++;
        }
      });
      expect(capped).toBeGreaterThan(0);
      expect(capped).toBeLessThan(ps.length);
    });
  });

  it('prepare() compiles every pipeline a solve runs: with --max-generations (a multi-gen run ends with single generations) and --mode one-gen, none is compiled inside the solve, so `ms` leaves compilation out', async () => {
    const ps = Array.from({ length: 3 }, (_, i) => randomPicture(32, 32, 300 + i, 60));
    const cases: SolveOptions[] = [{ method: 'full', maxGenerations: 3, options: {} }, { method: 'line', maxGenerations: 50, options: {} }, { method: 'line', options: { mode: 'one-gen' } }];
    for (const opts of cases) {
      await withDevice(async (ctx) => {
        const solveOpts = { ...opts };
        await nonogram.prepare!(ctx, ps, solveOpts);
        let compiled = 0;
        const create = ctx.device.createComputePipelineAsync.bind(ctx.device);
        ctx.device.createComputePipelineAsync = (d) => (compiled++, create(d));
        const got = await nonogram.solve(ctx, ps, solveOpts);
        expect(got.length).toBe(3);
        expect(compiled, JSON.stringify(opts)).toBe(0);
      });
    }
  });
});

