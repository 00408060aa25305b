// Conflict-driven search (cdcl.ts, cdcl.wgsl): the CPU twin gives the same answers as the probing solver (solveCpu),
// and the kernel is the CPU twin step for step: the same conflicts, decisions, line settles, explanation checks,
// learned clauses, restarts and solutions, whatever its neighbours in the SIMD lanes do.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseNonograms, pictureToPuzzle, type Nonogram } from '../src/puzzles/nonogram/codec.ts';
import { CDCL_SEARCHES, CDCL_CLEANUP, CdclPortfolio, CdclPortfolioRace, CdclRoundsTwin, emptyCdclResult, explainLine, lineAutomaton, lubyTerm, settleByLineAutomaton, solveCdclCpu, solveCdclPortfolio, transposedNonogram, untransposedSolution, type PortfolioResult } from '../src/puzzles/nonogram/cdcl.ts';
import { cdclKernel, LANE_MAX_LINE, probingKernel, solveNonogramCdcl, type CdclLaneOptions, type CdclOutcome, type LaneStats } from '../src/puzzles/nonogram/lane.ts';
import type { GpuContext } from '../src/gpu/context.ts';
import { ANSWERS, raceRounds, type RaceHelper } from '../src/puzzles/nonogram/rounds.ts';
import { compileNonogramRules, solveNonograms } from '../src/puzzles/nonogram/solver.ts';
import { EMPTY, FILLED, UNKNOWN, settle, solveCpu, verify } from '../src/puzzles/nonogram/reference.ts';
import { skipGpu, withDevice } from './gpu.ts';
import { lcg, randomKnownLine, randomPicture } from './nonogram.helpers.ts';

/** Random pictures 1x1 .. 31x31, an all-empty one, contradictions and givens. */
function edgeCases(): Nonogram[] {
  const ps: Nonogram[] = [{ width: 1, height: 1, rows: [[1]], columns: [[1]] }, { width: 1, height: 1, rows: [[]], columns: [[]] }, pictureToPuzzle(new Array(31 * 3).fill(0), 31, 3)];
  for (let seed = 1; seed <= 70; seed++) ps.push(randomPicture(1 + ((seed * 7) % 18), 1 + ((seed * 11) % 17), seed * 31, 40 + (seed % 4) * 10));
  for (const [w, h] of [[LANE_MAX_LINE, LANE_MAX_LINE], [LANE_MAX_LINE, 9], [13, LANE_MAX_LINE]]) ps.push(randomPicture(w, h, w * h, 55));
  ps.push({ width: 3, height: 2, rows: [[3], []], columns: [[1], [], [1]] });
  ps.push({ width: 2, height: 2, rows: [[1], [1]], columns: [[2], []], givens: Uint8Array.from([0, 0, 0, 1]) });
  ps.push({ width: 2, height: 2, rows: [[1], [1]], columns: [[1], [1]], givens: Uint8Array.from([0, 1, 0, 0]) });
  return ps;
}

describe('nonogram CDCL (CPU twin) answers as the probing solver does', () => {
  it('the Luby sequence', () => {
    expect(Array.from({ length: 15 }, (_, i) => lubyTerm(i + 1))).toEqual([1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
  });

  it("the search's settle (the clue's automaton, on bits) decides what reference.ts settle does: random lines, every share of known cells, contradictions", () => {
    const rand = lcg(777);
    const seen = { contradictions: 0, decided: 0, allKnown: 0 };
    for (let trial = 0; trial < 4000; trial++) {
      const { len, clue, line, fil, emp } = randomKnownLine(rand, () => (trial % 10 === 0 ? 1 : rand()), 0.05);
      const out = new Uint8Array(len);
      const ok = settle(clue, line, out);
      const got = settleByLineAutomaton(lineAutomaton(clue), len, fil, emp);
      const where = `${clue} / ${line.join('')}`;
      expect(got !== undefined, where).toBe(ok);
      if (!got) {
        seen.contradictions++;
        continue;
      }
      const cells = Array.from({ length: len }, (_, i) => ((got.fil >>> i) & 1 ? FILLED : (got.emp >>> i) & 1 ? EMPTY : UNKNOWN));
      expect(cells.join(''), where).toBe(Array.from(out).join(''));
      if ((fil | emp) === 2 ** len - 1) seen.allKnown++;
      else if (cells.some((v, i) => v !== line[i])) seen.decided++;
    }
    expect(seen.contradictions).toBeGreaterThan(200);
    expect(seen.decided).toBeGreaterThan(1000);
    expect(seen.allKnown).toBeGreaterThan(100);
  });

  it('explainLine reduces as the exact settle does (its automaton checks answer as settles): random lines, known cells, contradictions', () => {
    const rand = lcg(12345);
    const seen = { decided: 0, contradictions: 0, dropped: 0 };
    for (let trial = 0; trial < 3000; trial++) {
      // known cells from the picture, a few flipped (contradictions), in a random trail order
      const { len, clue, line, fil, emp } = randomKnownLine(rand, rand, 0.08);
      const order = Array.from({ length: len }, () => Math.floor(rand() * 1000));
      // the reduction by settles (the twin's before explainLine): latest first, ties to the lower cell
      const bySettles = (t: number, tv: number) => {
        let keep = fil | emp;
        const tried = new Set<number>();
        for (;;) {
          const left = [...Array(len).keys()].filter((i) => (keep >>> i) & 1 && !tried.has(i));
          if (left.length === 0) return keep;
          const pick = left.reduce((a, b) => (order[b] > order[a] ? b : a));
          tried.add(pick);
          const without = keep & ~(1 << pick);
          const out = new Uint8Array(len);
          const ok = settle(clue, Uint8Array.from(line, (v, i) => ((without >>> i) & 1 ? v : UNKNOWN)), out);
          if (t < 0 ? !ok : ok && out[t] === tv) keep = without;
        }
      };
      const out = new Uint8Array(len);
      const where = `${clue} / ${line.join('')}`;
      const targets: [number, number][] = [];
      if (!settle(clue, line, out)) targets.push([-1, 0]);
      else for (let t = 0; t < len; t++) if (line[t] === UNKNOWN && out[t] !== UNKNOWN) targets.push([t, out[t]]);
      for (const [t, tv] of targets) {
        const keep = explainLine(lineAutomaton(clue), len, fil, emp, t, tv, order);
        expect(keep, `${where} cell ${t}`).toBe(bySettles(t, tv));
        if (t < 0) seen.contradictions++;
        else seen.decided++;
        if (keep !== (fil | emp)) seen.dropped++;
      }
    }
    expect(seen.decided).toBeGreaterThan(3000);
    expect(seen.contradictions).toBeGreaterThan(300);
    expect(seen.dropped).toBeGreaterThan(1000);
  });

  it('random pictures and edge cases: same status; unique puzzles the same solution; two distinct verified solutions for multiple', () => {
    const seen = new Set<string>();
    for (const p of edgeCases()) {
      const want = solveCpu(p);
      for (const search of CDCL_SEARCHES) {
        const got = solveCdclCpu(p, { search });
        const where = `${p.width}x${p.height} ${p.rows.join('/')} ${JSON.stringify(search)}`;
        expect(got.status, where).toBe(want.status);
        // root probing reaches the probing solver's root fixpoint or more: the same level where that needs no branch
        // (two solutions are found by the search here, by a probe's two copies there); without it, line or search
        if (want.status !== 'multiple' && search.rootProbing) {
          if (want.level !== 'search') expect(got.level, where).toBe(want.level);
          else expect(got.level, where).not.toBe('line');
        }
        if (want.status !== 'multiple' && !search.rootProbing) expect(got.level, where).toBe(want.level === 'line' ? 'line' : 'search');
        seen.add(`${got.status}/${got.level}`);
        if (want.status === 'solved') expect(got.solutions, where).toEqual([want.solution]);
        if (want.status === 'multiple') {
          expect(got.solutions.length, where).toBe(2);
          expect(got.solutions[0], where).not.toBe(got.solutions[1]);
          for (const s of got.solutions) expect(verify(p, s), where).toBe(true);
        }
        // one solution asked for: the first one found, verified
        const first = solveCdclCpu(p, { maxSolutions: 1, search });
        expect(first.status, where).toBe(want.status === 'multiple' ? 'solved' : want.status);
        if (first.status === 'solved') expect(verify(p, first.solutions[0]), where).toBe(true);
      }
    }
    for (const k of ['solved/line', 'solved/probe', 'contradiction/line', 'multiple/search']) expect([...seen], k).toContain(k);
  });

  it('a conflict cap ends a hard search as capped', () => {
    const p = randomPicture(25, 25, 4242, 50);
    const got = solveCdclCpu(p, { conflictCap: 3 });
    expect(got.status).toBe('capped');
    expect(got.conflicts).toBe(3);
  });

  it('clean-ups on a schedule keeping low-LBD clauses (the threads\' setting, and one every few conflicts): the probing solver\'s statuses, verified solutions; the schedule changes the search', () => {
    // most random pictures take a few conflicts; this 30x30 takes ~6,000 (restarts, so clean-ups, every 100 or more)
    const puzzles = [...edgeCases(), ...Array.from({ length: 12 }, (_, k) => randomPicture(12 + (k % 7), 13 + (k % 5), 900 + k, 50)), randomPicture(30, 30, 8, 50)];
    let changed = 0;
    let searched = 0;
    for (const p of puzzles) {
      const plain = solveCdclCpu(p);
      // (the probing solver takes minutes on the 30x30: there the plain search's answer is the reference)
      const want = p.width < 30 ? solveCpu(p) : { status: plain.status, solution: plain.solutions[0] };
      for (const cleanup of [CDCL_CLEANUP, { every: 3, growth: 1, keepLbd: 2 }]) {
        const got = solveCdclCpu(p, { cleanup });
        const where = `${p.width}x${p.height} ${p.rows.join('/')} ${JSON.stringify(cleanup)}`;
        expect(got.status, where).toBe(want.status);
        if (want.status === 'solved') expect(got.solutions, where).toEqual([want.solution]);
        if (want.status === 'multiple') {
          expect(got.solutions.length, where).toBe(2);
          expect(got.solutions[0], where).not.toBe(got.solutions[1]);
          for (const s of got.solutions) expect(verify(p, s), where).toBe(true);
        }
        if (cleanup.every === 3 && plain.conflicts > 1000) {
          searched++;
          if (got.conflicts !== plain.conflicts || got.decisions !== plain.decisions) changed++;
        }
      }
    }
    expect(searched, 'puzzles that reach a few clean-ups').toBeGreaterThan(0);
    expect(changed, 'searches the clean-ups changed').toBeGreaterThan(0);
  });

  it('the portfolio (four searches in turns, sharing clauses): the probing solver\'s statuses, verified solutions; a stop between turns says suspended', () => {
    for (const p of edgeCases()) {
      const want = solveCpu(p);
      const where = `${p.width}x${p.height} ${p.rows.join('/')}`;
      // turns of 3 conflicts: the searches take their turns and each other's clauses many times
      const got = solveCdclPortfolio(p, { turn: 3 });
      expect(got.status, where).toBe(want.status);
      expect(got.member, where).toBeGreaterThanOrEqual(0);
      if (want.status === 'solved') expect(got.solutions, where).toEqual([want.solution]);
      if (want.status === 'multiple') expect(new Set(got.solutions).size, where).toBe(2);
      for (const s of got.solutions) expect(verify(p, s), where).toBe(true);
      expect(solveCdclPortfolio(p, { maxSolutions: 1 }).status, where).toBe(want.status === 'multiple' ? 'solved' : want.status);
    }
    let turns = 0;
    const hard = randomPicture(25, 25, 4242, 50);
    const stopped = solveCdclPortfolio(hard, { turn: 2, stopped: () => ++turns === 3 });
    expect(stopped.status).toBe('suspended');
    // (the first search starts with root probing: its probes before any conflict)
    expect(stopped.conflicts + stopped.probes).toBeGreaterThan(0);
    // every search capped: the puzzle comes back capped
    expect(solveCdclPortfolio(hard, { conflictCap: 5 }).status).toBe('capped');
  });

  it('the portfolio\'s searches join one after another: each after `joinAfter` rounds of turns, or at once when all before it ended', () => {
    const hard = randomPicture(25, 25, 4242, 50);
    const portfolio = new CdclPortfolio(hard, { turn: 1, joinAfter: 3 });
    // stopped before any turn: nothing found yet, and no crash
    expect(portfolio.stopped()).toMatchObject({ status: 'suspended', conflicts: 0, member: 0 });
    const joined: number[] = [];
    for (let i = 0; i < 11; i++) {
      expect(portfolio.step()).toBeUndefined();
      joined.push(portfolio.joined);
    }
    expect(joined).toEqual([1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4]);
    // a search capped before the next was due: the next joins at once, and every one ends capped
    const capped = new CdclPortfolio(hard, { conflictCap: 2, turn: 5, joinAfter: 1000 });
    let r;
    for (let i = 0; i < 100 && !r; i++) r = capped.step();
    expect(r?.status).toBe('capped');
    expect(capped.joined).toBe(4);
  });
});

describe('nonogram CDCL race with a transposed copy (the CPU threads\' search)', () => {
  it('a puzzle transposed has its solutions transposed, givens too; untransposedSolution brings them back', () => {
    for (const p of edgeCases()) {
      const t = transposedNonogram(p);
      const where = `${p.width}x${p.height} ${p.rows.join('/')}`;
      expect([t.width, t.height], where).toEqual([p.height, p.width]);
      const want = solveCpu(p);
      const got = solveCpu(t);
      expect(got.status, where).toBe(want.status);
      if (want.status === 'solved') expect(untransposedSolution(p, got.solution!), where).toBe(want.solution);
      for (const s of [got.solution, got.solution2]) if (s) expect(verify(p, untransposedSolution(p, s)), where).toBe(true);
    }
    // a 2x3 by hand: rows of the transposed puzzle are the columns
    expect(untransposedSolution({ width: 3, height: 2, rows: [], columns: [] }, '101100')).toBe('110010');
  });

  /** A race to its answer (turns of `turn` conflicts), as a thread runs it. */
  const race = (p: Nonogram, copyAfter: number, turn = 3, extra = {}): PortfolioResult => {
    const r = new CdclPortfolioRace(p, { turn, copyAfter, ...extra });
    for (;;) {
      const got = r.step();
      if (got) return got;
    }
  };

  it('the copy joins at once or late: the probing solver\'s statuses, verified solutions in the puzzle\'s own orientation, some from the copy', () => {
    let fromCopy = 0;
    for (const p of edgeCases()) {
      const want = solveCpu(p);
      const where = `${p.width}x${p.height} ${p.rows.join('/')}`;
      for (const copyAfter of [0, 40]) {
        const got = race(p, copyAfter);
        expect(got.status, where).toBe(want.status);
        if (want.status === 'solved') expect(got.solutions, where).toEqual([want.solution]);
        if (want.status === 'multiple') expect(new Set(got.solutions).size, where).toBe(2);
        for (const s of got.solutions) expect(verify(p, s), where).toBe(true);
        if (got.transposed) fromCopy++;
      }
    }
    expect(fromCopy, 'answers the transposed copy gave').toBeGreaterThan(0);
  });

  it('before the copy joins it is the portfolio itself; every search capped on both sides: capped; a stop between turns: suspended', () => {
    const hard = randomPicture(25, 25, 4242, 50);
    const alone = solveCdclPortfolio(hard, { turn: 3 });
    const late = race(hard, alone.conflicts * 100);
    expect(late).toMatchObject({ status: alone.status, conflicts: alone.conflicts, member: alone.member, solutions: alone.solutions });
    expect(late.transposed).toBeUndefined();
    // every search capped on both sides: capped; a stop between turns says suspended
    expect(race(hard, 0, 3, { conflictCap: 5 }).status).toBe('capped');
    const r = new CdclPortfolioRace(hard, { turn: 3, copyAfter: 0 });
    for (let i = 0; i < 6; i++) r.step();
    expect(r.stopped().status).toBe('suspended');
  });
});

describe('nonogram CDCL race handed from one thread to another (capture, and a race resumed from it)', () => {
  it('resumed from a copy of its state between steps, a race goes on as if never stopped: the same answer, conflicts, member and side', () => {
    let moved = 0;
    let refused = 0;
    // edge cases, and two that take hundreds of conflicts (many steps, clean-ups, the copy's searches joined)
    const ps = [...edgeCases().filter((_, i) => i % 6 === 0), randomPicture(25, 25, 4242, 50), randomPicture(28, 28, 5, 50)];
    for (const p of ps) {
      const where = `${p.width}x${p.height} ${p.rows.join('/')}`;
      for (const copyAfter of [0, 40]) {
        const opts = { turn: 3, copyAfter, cleanup: { every: 30, growth: 10, keepLbd: 4 } };
        const straight = new CdclPortfolioRace(p, opts);
        let want: PortfolioResult | undefined;
        while (!(want = straight.step()));
        // the same race, its state cloned (as postMessage does) into a new race every 3 steps
        let r = new CdclPortfolioRace(p, opts);
        let got: PortfolioResult | undefined;
        for (let k = 1; !(got = r.step()); k++) {
          if (k % 3) continue;
          const state = r.capture();
          if (!state) {
            refused++;
            continue;
          }
          r = new CdclPortfolioRace(p, opts, structuredClone(state));
          moved++;
        }
        expect(got, where).toEqual(want);
      }
    }
    expect(moved, 'races resumed').toBeGreaterThan(20);
    // the first search's root probing yields within a sweep: not a point it can be taken from
    expect(refused, 'captures refused in root probing').toBeGreaterThan(0);
  });
});

describe.skipIf(skipGpu)('nonogram CDCL kernel = CPU twin, step for step', () => {
  /** The kernel's run, and its rounds as packed replayed on the twin (a puzzle's searches share clauses by round). */
  async function runWithTwin(ctx: GpuContext, ps: Nonogram[], opts: CdclLaneOptions, stats?: LaneStats) {
    const searches = opts.searches ?? CDCL_SEARCHES;
    const twin = new CdclRoundsTwin(ps, searches, { maxSolutions: opts.maxSolutions ?? 2, arenaWords: opts.arenaWords, rephaseInterval: opts.rephaseInterval, cleanup: opts.cleanup }, opts.budget ?? 200, opts.shareRing);
    const got = await solveNonogramCdcl(ctx, ps, { ...opts, onPack: (round, jobs) => twin.round(round, jobs) }, stats);
    return { got, twin, searches };
  }

  function expectSteps(ps: Nonogram[], { got, twin, searches }: Awaited<ReturnType<typeof runWithTwin>>) {
    const seen = new Set<string>();
    ps.forEach((p, i) => {
      const o = got[i]!;
      // the search that answered: a hard puzzle gets more than one (CDCL_SEARCHES)
      const member = searches.findIndex((s) => JSON.stringify(s) === JSON.stringify(o.search));
      const want = twin.result(i, member)!;
      expect(want, `#${i}: the twin's search ${member} ended`).toBeDefined();
      const where = `#${i} ${p.width}x${p.height}`;
      const steps = (r: typeof want) => ({
        status: r.status,
        conflicts: r.conflicts,
        decisions: r.decisions,
        settles: r.settles,
        explainChecks: r.explainChecks,
        learned: r.learned,
        restarts: r.restarts,
        probes: r.probes,
        level: r.level,
        solutions: r.solutions,
      });
      expect(steps(o as unknown as typeof want), where).toEqual(steps(want));
      seen.add(`${o.status}/${o.level}`);
    });
    return seen;
  }

  it('random pictures 1x1 .. 31x31, contradictions, givens, empty clues; both --max-solutions', async () => {
    await withDevice(async (ctx) => {
      const ps = edgeCases();
      for (const maxSolutions of [2, 1]) {
        const seen = expectSteps(ps, await runWithTwin(ctx, ps, { maxSolutions }));
        for (const k of ['solved/line', 'solved/probe', 'contradiction/line']) expect([...seen], k).toContain(k);
        expect([...seen].some((k) => k.endsWith('/search')), [...seen].join()).toBe(true);
      }
    });
  });

  const taai = new URL('../../shared/data/nonogram/tournament/question/taai2011.txt', import.meta.url).pathname;
  it.runIf(existsSync(taai))('TAAI 2011 #1-16 and #424 (25x25, restarts): 8 lanes, 6 slots, searches suspended every 20 conflicts (root probing every 320 probes) and resumed', async () => {
    await withDevice(async (ctx) => {
      const all = parseNonograms(readFileSync(taai), taai).map((r) => r.puzzle!);
      const ps = [...all.slice(0, 16), all[423]];
      const stats = { dispatches: 0, readbacks: 0 };
      const run = await runWithTwin(ctx, ps, { lanes: 8, slots: 6, budget: 20, maxSolutions: 1 }, stats);
      const got = run.got;
      const seen = expectSteps(ps, run);
      expect(stats.dispatches).toBeGreaterThan(Math.ceil(ps.length / 6)); // searches waited in their slots
      expect(seen).toContain('solved/search');
      expect(seen).toContain('solved/probe');
      expect(got[16]!.restarts, '#424 restarts').toBeGreaterThan(0);
    });
  });

  it.runIf(existsSync(taai))('TAAI 2011 #451 and #133 with the four searches (CDCL_SEARCHES), each next joining after a round of 40 conflicts, sharing clauses: each answer is its search\'s twin in the same rounds; the other searches alone match their twins too', async () => {
    await withDevice(async (ctx) => {
      const all = parseNonograms(readFileSync(taai), taai).map((r) => r.puzzle!);
      // first solutions, the four searches: #451 10,512 / 9,493 / 2,404 / 4,098 conflicts, #133 0 (after root probing) /
      // 143 / 128 / 74
      const ps = [all[450], all[132]];
      const stats = { dispatches: 0, readbacks: 0, joined: 0 };
      const run = await runWithTwin(ctx, ps, { budget: 40, joinAfter: 1, maxSolutions: 1 }, stats);
      const got = run.got;
      // six later searches join the two puzzles, each packed a round after the one before: #451's three, and #133's
      // three, whose root probing (1,380 probes) spans rounds of at most 40 x 16 (with two rounds in flight the last
      // two join before the round that answers it is read, and leave at its readback)
      expect(stats.joined, 'searches joined').toBe(6);
      expectSteps(ps, run);
      // #451: the first search answers after 417 conflicts with the clauses its peers shared (10,512 alone); the first,
      // root probing, answers #133 without a conflict
      expect([got[0]!.search, got[0]!.conflicts]).toEqual([CDCL_SEARCHES[0], 417]);
      expect(solveCdclCpu(all[450], { maxSolutions: 1, search: CDCL_SEARCHES[0] }).conflicts).toBe(10512);
      expect([got[1]!.search, got[1]!.level, got[1]!.conflicts]).toEqual([CDCL_SEARCHES[0], 'search', 0]);
      expect(got[1]!.probes).toBeGreaterThan(0);
      const firstConflicts = solveCdclCpu(all[132], { maxSolutions: 1 }).conflicts;
      for (const search of CDCL_SEARCHES.slice(1)) {
        const alone = await runWithTwin(ctx, [all[132]], { budget: 50, searches: [search], maxSolutions: 1 });
        expect(alone.got[0]!.search).toEqual(search);
        expectSteps([all[132]], alone);
        expect(alone.got[0]!.conflicts, JSON.stringify(search)).not.toBe(firstConflicts);
      }
      await expect(solveNonogramCdcl(ctx, ps, { searches: [{ decayShift: 3, filledFirst: false, rootProbing: false, targetPhases: false }] })).rejects.toThrow(/decay shift of 3/);
    });
  });

  it.runIf(existsSync(taai))('TAAI 2011 #1-16 and #424 with target phases, suspended every 20 conflicts and resumed: the twin\'s steps; the target changes the search', async () => {
    await withDevice(async (ctx) => {
      const all = parseNonograms(readFileSync(taai), taai).map((r) => r.puzzle!);
      const ps = [...all.slice(0, 16), all[423]];
      for (const rootProbing of [false, true]) {
        const search = { decayShift: 5, filledFirst: false, rootProbing, targetPhases: true };
        const run = await runWithTwin(ctx, ps, { lanes: 8, slots: 6, budget: 20, maxSolutions: 2, searches: [search] });
        const got = run.got;
        expectSteps(ps, run);
        expect(got[16]!.search).toEqual(search);
        // #424 takes hundreds of conflicts: without target phases its search differs
        expect(got[16]!.conflicts).not.toBe(solveCdclCpu(all[423], { search: { ...search, targetPhases: false } }).conflicts);
      }
    });
  });

  it.runIf(existsSync(taai))('TAAI 2011 #424 rephased from 15 conflicts on (every turn: target, first, target, inverse), suspended every 20 conflicts: the twin\'s steps; rephasing changes the search', async () => {
    await withDevice(async (ctx) => {
      const all = parseNonograms(readFileSync(taai), taai).map((r) => r.puzzle!);
      const ps = [all[423]];
      for (const search of [CDCL_SEARCHES[1], CDCL_SEARCHES[3]]) {
        const run = await runWithTwin(ctx, ps, { budget: 20, maxSolutions: 2, searches: [search], rephaseInterval: 15 });
        expectSteps(ps, run);
        // rephases at 15, 45, 90, 150, ... conflicts: past 540, eight of them (the turns' cycle of four, twice)
        for (const [i, o] of run.got.entries()) {
          expect(o!.conflicts, `#${i}`).toBeGreaterThan(540);
          expect(o!.conflicts, `#${i}`).not.toBe(solveCdclCpu(ps[i], { search, rephaseInterval: 1 << 20 }).conflicts);
        }
      }
      await expect(solveNonogramCdcl(ctx, ps, { rephaseInterval: 0 })).rejects.toThrow(/rephase interval of 0/);
    });
  });

  it.runIf(existsSync(taai))('TAAI 2011 #424 and #451: four searches sharing clauses through a ring of 8 entries, 2 a round: the twin\'s steps, with units taken, entries the ring moved past and clauses held by the round\'s cap', async () => {
    await withDevice(async (ctx) => {
      const all = parseNonograms(readFileSync(taai), taai).map((r) => r.puzzle!);
      const ps = [all[423], all[450]];
      const run = await runWithTwin(ctx, ps, { budget: 100, joinAfter: 1, maxSolutions: 2, shareRing: { entries: 8, perRound: 2 } });
      expectSteps(ps, run);
      const { taken, units, missed, held } = run.twin.stats;
      expect(Math.min(taken, units, missed, held), JSON.stringify(run.twin.stats)).toBeGreaterThan(0);
      await expect(solveNonogramCdcl(ctx, ps, { shareRing: { entries: 300, perRound: 2 } })).rejects.toThrow(/share ring of 300/);
    });
  });

  it.runIf(existsSync(taai))('TAAI 2011 #424 and #11 to two solutions in an arena of 4,000 words: clean-ups keep the short clauses alike', async () => {
    await withDevice(async (ctx) => {
      const all = parseNonograms(readFileSync(taai), taai).map((r) => r.puzzle!);
      const ps = [all[423], all[10]];
      const arenaWords = 4000;
      const run = await runWithTwin(ctx, ps, { arenaWords, budget: 30 });
      const got = run.got;
      expectSteps(ps, run);
      // the small arena changed #424's search: it filled and was cleaned up
      expect(got[0]!.conflicts).not.toBe(solveCdclCpu(all[423]).conflicts);
    });
  });

  it.runIf(existsSync(taai))('TAAI 2011 #424 and #451 with clean-ups on a schedule (every 40 conflicts, 10 more each time, LBD 6 or less kept), four searches suspended every 30 conflicts: the twin\'s steps; the clean-ups change the search', async () => {
    await withDevice(async (ctx) => {
      const all = parseNonograms(readFileSync(taai), taai).map((r) => r.puzzle!);
      const ps = [all[423], all[450]];
      const cleanup = { every: 40, growth: 10, keepLbd: 6 };
      const run = await runWithTwin(ctx, ps, { budget: 30, joinAfter: 1, maxSolutions: 2, cleanup });
      expectSteps(ps, run);
      // each answer came after several clean-ups (40, 90, 150, ... conflicts), and differs from its search's alone
      // without them
      for (const [i, o] of run.got.entries()) {
        expect(o!.conflicts, `#${i}`).toBeGreaterThan(150);
        expect(o!.conflicts, `#${i}`).not.toBe(solveCdclCpu(ps[i], { search: o!.search }).conflicts);
      }
      await expect(solveNonogramCdcl(ctx, ps, { cleanup: { every: 0, growth: 1, keepLbd: 6 } })).rejects.toThrow(/clean-up every 0/);
    });
  });
});

describe.skipIf(skipGpu)('nonogram searches: cdcl and race answer as the probing solver does', () => {
  it('solveNonograms with --search cdcl and race: same statuses as solveCpu, verified solutions, the answering search named', async () => {
    await withDevice(async (ctx) => {
      const ps = edgeCases().filter((p) => p.width * p.height <= 300);
      for (const search of ['cdcl', 'race', 'auto'] as const) {
        const got = await solveNonograms(ctx, ps, { search });
        ps.forEach((p, i) => {
          const want = solveCpu(p);
          const where = `${search} #${i} ${p.width}x${p.height}`;
          expect(got[i].status, where).toBe(want.status);
          if (want.status === 'solved') expect(got[i].solution, where).toBe(want.solution);
          if (want.status === 'multiple') expect([verify(p, got[i].solution!), verify(p, got[i].solution2!), got[i].solution !== got[i].solution2], where).toEqual([true, true, true]);
          expect(got[i].search, where).toBe(search === 'cdcl' ? 'cdcl' : 'probing'); // small puzzles end before CDCL joins
        });
      }
    });
  });

  const taaiFile = new URL('../../shared/data/nonogram/tournament/question/taai2011.txt', import.meta.url).pathname;
  it.runIf(existsSync(taaiFile))('the race on TAAI #1-4, #456 (CDCL: 333 conflicts, probing: 293k probes) and #651 (CDCL: 17k conflicts, probing: 15k probes): each answered once, verified, by the search that suits it', async () => {
    await withDevice(async (ctx) => {
      const all = parseNonograms(readFileSync(taaiFile), taaiFile).map((r) => r.puzzle!);
      const ps = [...all.slice(0, 4), all[455], all[650]];
      const opts = { maxSolutions: 1 };
      const stats = { dispatches: 0, readbacks: 0 };
      const probing = await probingKernel(ctx, ps, { ...opts, lanes: 8, slots: 6 });
      const cdcl = await cdclKernel(ctx, ps, { ...opts, lanes: 4, slots: 4, budget: 50 });
      let answers = 0;
      const got = await raceRounds(ctx, ps, probing, cdcl, { joinAfter: 1, onChunk: (n) => (answers += n) }, stats);
      expect(answers, 'one answer per puzzle').toBe(ps.length);
      const by = ps.map((p, i) => {
        const a = got.first[i];
        const b = got.second[i];
        const answer = a && ANSWERS.has(a.status) ? a : b && ANSWERS.has(b.status) ? b : undefined;
        expect(answer?.status, `#${i}`).toBe('solved');
        expect(verify(p, answer!.solutions[0]), `#${i}`).toBe(true);
        return a && ANSWERS.has(a.status) ? 'probing' : 'cdcl';
      });
      expect(by[4], '#456').toBe('cdcl');
      expect(by[5], '#651').toBe('probing');
    });
  });

  it.runIf(existsSync(taaiFile))('auto: CDCL joins late and answers TAAI #483 (index 482: probing had not answered it by 597 s of a whole run, CDCL 891 conflicts), streamed as it comes, on a CPU thread and on the kernel', async () => {
    await withDevice(async (ctx) => {
      const all = parseNonograms(readFileSync(taaiFile), taaiFile).map((r) => r.puzzle!);
      const ps = [all[0], all[482]];
      for (const cdclThreads of [1, 0]) {
        const streamed = new Map<number, string>();
        const got = await solveNonograms(ctx, ps, { maxSolutions: 1, lateJoinAfter: 20, cdclThreads, onResult: (i, r) => streamed.set(i, `${r.status} ${r.search} ${r.solution}`) });
        expect(got.map((r) => `${r.status} ${r.search}`), `${cdclThreads} threads`).toEqual(['solved probing', 'solved cdcl']);
        expect(got[1].cpuThread, `${cdclThreads} threads`).toBe(cdclThreads ? true : undefined);
        got.forEach((r, i) => {
          expect(verify(ps[i], r.solution!), `#${i}`).toBe(true);
          expect(streamed.get(i), `#${i} streamed`).toBe(`${r.status} ${r.search} ${r.solution}`);
        });
      }
    });
  });

  it('a race with a helper beside the kernels: it gets only puzzles past its join, the longest-running first as it has room; its answer ends the kernel\'s search and counts once', async () => {
    await withDevice(async (ctx) => {
      const easy = edgeCases().filter((p) => p.width * p.height <= 100);
      const hard = [randomPicture(25, 25, 4242, 50), randomPicture(25, 25, 99, 50), randomPicture(25, 25, 7, 50)];
      for (const [ps, helperJoinAfter] of [[easy, 1_000], [hard, 2]] as const) {
        const started: number[] = [];
        const dropped: number[] = [];
        // a helper with room for one puzzle, answering with the CPU solver's solution a few ms later
        const timers = new Map<number, ReturnType<typeof setTimeout>>();
        const helper: RaceHelper<CdclOutcome> = {
          get room() {
            return 1 - timers.size;
          },
          start(index, done) {
            started.push(index);
            const r = solveCpu(ps[index], { maxSolutions: 1 });
            const outcome: CdclOutcome = { ...emptyCdclResult(), status: r.status as 'solved', solutions: [r.solution!], level: 'search', search: CDCL_SEARCHES[0], ms: 0, cpuThread: true };
            timers.set(index, setTimeout(() => (timers.delete(index), done(outcome)), 5));
          },
          drop(index) {
            dropped.push(index);
            clearTimeout(timers.get(index));
            timers.delete(index);
          },
        };
        const probing = await probingKernel(ctx, [...ps], { maxSolutions: 1, budget: 10 });
        let answers = 0;
        const got = await raceRounds(ctx, [...ps], probing, undefined, { joinAfter: 1, helper, helperJoinAfter, onChunk: (n) => (answers += n) }, { dispatches: 0, readbacks: 0 });
        expect(answers, `${ps.length} puzzles: one answer each`).toBe(ps.length);
        ps.forEach((p, i) => {
          const answer = [got.first[i], got.second[i]].find((o) => o && ANSWERS.has(o.status));
          expect(answer?.status === 'contradiction' || verify(p, answer!.solutions[0]), `#${i}`).toBe(true);
        });
        if (ps === easy) expect(started).toEqual([]);
        else {
          // each puzzle it took: its answer, the kernel's search ended, or the kernel's answer first and it dropped
          const helped = started.filter((i) => !dropped.includes(i));
          expect(helped.length, 'the helper answered').toBeGreaterThan(0);
          for (const i of helped) expect([got.second[i]?.cpuThread, !!(got.first[i] && ANSWERS.has(got.first[i]!.status))], `#${i}`).toEqual([true, false]);
          for (const i of dropped) expect(!!(got.first[i] && ANSWERS.has(got.first[i]!.status)), `#${i}`).toBe(true);
        }
      }
    });
  });

  it('a race with helpedShare paces probing by waits between its rounds once the helper holds every puzzle probing still has, and only then', async () => {
    await withDevice(async (ctx) => {
      const hard = Array.from({ length: 6 }, (_, i) => randomPicture(31, 31, 2000 + i, 50));
      // the mean ms between probing's rounds while the helper held every open puzzle, and while it did not
      const gaps = async (helpedShare: number | undefined, room: number) => {
        const held = new Set<number>();
        const answered = new Set<number>();
        const helper: RaceHelper<CdclOutcome> = {
          get room() {
            return room - held.size;
          },
          // it never answers: it holds its puzzles until probing answers them or the run ends
          start: (index) => void held.add(index),
          drop: (index) => void held.delete(index),
        };
        const probing = await probingKernel(ctx, hard, { budget: 20 });
        const spans = { all: [] as number[], some: [] as number[] };
        let last: { at: number; all: boolean } | undefined;
        const params = probing.params;
        probing.params = (count, round) => {
          const at = performance.now();
          const all = hard.every((_, i) => held.has(i) || answered.has(i));
          // the gap before a round counts for the state the round before was packed in (its pause came after it)
          if (last && held.size > 0) spans[last.all ? 'all' : 'some'].push(at - last.at);
          last = { at, all };
          return params(count, round);
        };
        // (4 s: one slow round, taken as the next one's measure, can pace a nap of seconds; at 2.5 s a full run once
        // saw no paced round end before the deadline)
        await raceRounds(ctx, hard, probing, undefined, { joinAfter: 1, helper, helperJoinAfter: 2, helpedShare, onFirst: (i) => answered.add(i), deadline: performance.now() + 4000 }, { dispatches: 0, readbacks: 0 });
        const mean = (xs: number[]) => (xs.length ? xs.reduce((x, y) => x + y) / xs.length : NaN);
        return { all: mean(spans.all), some: mean(spans.some), rounds: `${spans.all.length} rounds with all held, ${spans.some.length} with some` };
      };
      const unpaced = await gaps(undefined, Infinity);
      const paced = await gaps(0.05, Infinity);
      // room for one puzzle: the others are not held, so no pause while any of them is open
      const partly = await gaps(0.05, 1);
      expect(paced.all, `paced ${paced.all} ms a round (${paced.rounds}), unpaced ${unpaced.all} ms (${unpaced.rounds})`).toBeGreaterThan(5 * unpaced.all);
      expect(partly.some, `with one of six held ${partly.some} ms a round, paced ${paced.all} ms`).toBeLessThan(paced.all / 5);
    });
  });

  it('a paced race ends at its deadline, not at the end of a nap many rounds long', async () => {
    await withDevice(async (ctx) => {
      const hard = Array.from({ length: 6 }, (_, i) => randomPicture(31, 31, 2000 + i, 50));
      // a helper that holds every puzzle and never answers: probing naps 4,999 rounds' time after each round
      const held = new Set<number>();
      const answered = new Set<number>();
      // whether the helper came to hold every puzzle still open (from then on probing is paced)
      let allHeld = false;
      const helper: RaceHelper<CdclOutcome> = {
        room: Infinity,
        start: (index) => {
          held.add(index);
          allHeld ||= hard.every((_, i) => held.has(i) || answered.has(i));
        },
        drop: (index) => void held.delete(index),
      };
      const probing = await probingKernel(ctx, hard, { budget: 20 });
      const deadline = performance.now() + 1500;
      await raceRounds(ctx, hard, probing, undefined, { joinAfter: 1, helper, helperJoinAfter: 2, helpedShare: 0.0002, onFirst: (i) => answered.add(i), deadline }, { dispatches: 0, readbacks: 0 });
      const over = performance.now() - deadline;
      expect(allHeld, 'the helper held every open puzzle').toBe(true);
      // (a round of ~2 ms napped ~10 s before)
      expect(over, `the race ended ${over.toFixed(0)} ms past its deadline`).toBeLessThan(500);
    });
  });

  it('a race with helperJoinMs gives the helper the puzzles still open after one round once the race is that old, and not before', async () => {
    await withDevice(async (ctx) => {
      // probing takes ~1,000 rounds and seconds on it
      const hard = [randomPicture(30, 30, 8, 50)];
      for (const helperJoinMs of [undefined, 300]) {
        const started: number[] = [];
        const t0 = performance.now();
        const helper: RaceHelper<CdclOutcome> = { room: Infinity, start: () => void started.push(performance.now() - t0), drop: () => {} };
        const probing = await probingKernel(ctx, hard, { budget: 20 });
        // never by rounds alone
        await raceRounds(ctx, hard, probing, undefined, { joinAfter: 1, helper, helperJoinAfter: Infinity, helperJoinMs, deadline: t0 + 1_500 }, { dispatches: 0, readbacks: 0 });
        if (helperJoinMs === undefined) expect(started, 'by rounds alone').toEqual([]);
        else {
          expect(started.length, 'puzzles the helper got').toBeGreaterThan(0);
          expect(Math.min(...started), 'the first one after helperJoinMs').toBeGreaterThanOrEqual(helperJoinMs);
        }
      }
    });
  });

  it('a paced race keeps to its deadline by its rounds, not its naps, and ends when the helper has answered the last puzzle', async () => {
    await withDevice(async (ctx) => {
      const hard = Array.from({ length: 6 }, (_, i) => randomPicture(31, 31, 2000 + i, 50));
      const stats = { dispatches: 0, readbacks: 0 };
      // a round's time here, from a second of unpaced probing
      let rounds = 0;
      const timing = await probingKernel(ctx, hard, { budget: 20 });
      const params = timing.params;
      timing.params = (count, round) => (rounds++, params(count, round));
      const t1 = performance.now();
      await raceRounds(ctx, hard, timing, undefined, { deadline: t1 + 1_000 }, stats);
      const roundMs = (performance.now() - t1) / rounds;
      const held = new Map<number, (o: CdclOutcome) => void>();
      const solved = (i: number): CdclOutcome => ({ ...emptyCdclResult(), status: 'solved', solutions: [hard[i].picture], level: 'search', search: CDCL_SEARCHES[0], ms: 0, cpuThread: true });
      // it holds every puzzle it is given, and answers them all 3.5 s in
      const helper: RaceHelper<CdclOutcome> = {
        room: Infinity,
        start: (index, done) => void held.set(index, done),
        drop: (index) => void held.delete(index),
      };
      const probing = await probingKernel(ctx, hard, { budget: 20 });
      const t0 = performance.now();
      setTimeout(() => [...held].forEach(([i, done]) => done(solved(i))), 3_500);
      // naps of ~3 s once the helper holds them all: a round's time that counted its nap made the run late at the
      // first (1.5 naps past 5 s: the helper's puzzles were given up), and a nap that did not end with the last
      // answer held the run past its deadline
      const helpedShare = roundMs / (roundMs + 3_000);
      const got = await raceRounds(ctx, hard, probing, undefined, { joinAfter: 1, helper, helperJoinAfter: 1, helpedShare, deadline: t0 + 5_000 }, stats);
      const ms = performance.now() - t0;
      expect(hard.map((_, i) => got.second[i]?.status), 'the helper answered them all').toEqual(hard.map(() => 'solved'));
      expect(ms, `the race ended soon after the last answer (rounds of ${roundMs.toFixed(1)} ms)`).toBeLessThan(4_500);
    });
  });

  it('a race whose second kernel is made on demand makes it only when a puzzle is half way to joinAfter rounds', async () => {
    await withDevice(async (ctx) => {
      const easy = edgeCases().filter((p) => p.width * p.height <= 100);
      const hard = [randomPicture(25, 25, 4242, 50)];
      for (const [ps, joinAfter, made] of [[easy, 1_000, 0], [hard, 1, 1]] as const) {
        let calls = 0;
        const stats = { dispatches: 0, readbacks: 0 };
        const probing = await probingKernel(ctx, [...ps], { maxSolutions: 1, budget: 20 });
        const second = () => (calls++, cdclKernel(ctx, [...ps], { maxSolutions: 1, lanes: 4, slots: 4, budget: 20 }));
        const streamed: number[] = [];
        const got = await raceRounds(ctx, [...ps], probing, second, { joinAfter, onFirst: (i) => streamed.push(i), onSecond: (i) => streamed.push(i) }, stats);
        expect(calls, `${ps.length} puzzles`).toBe(made);
        ps.forEach((p, i) => {
          const answer = [got.first[i], got.second[i]].find((o) => o && ANSWERS.has(o.status));
          expect(answer?.status === 'contradiction' || verify(p, answer!.solutions[0]), `#${i}`).toBe(true);
        });
        expect(streamed.sort((x, y) => x - y), 'every answer streamed once').toEqual(ps.map((_, i) => i));
      }
    });
  });

  it('a race with secondShare paces its second kernel by waiting between its rounds, one in flight, each with its whole budget', async () => {
    await withDevice(async (ctx) => {
      const hard = Array.from({ length: 8 }, (_, i) => randomPicture(31, 31, 2000 + i, 50));
      const stats = { dispatches: 0, readbacks: 0 };
      const probing = await probingKernel(ctx, hard, { budget: 20 });
      const cdcl = await cdclKernel(ctx, hard, { lanes: 4, slots: 4, budget: 40 });
      // the rounds each kernel packed, and the second's budgets
      const rounds = { probing: 0, cdcl: 0 };
      const budgets = new Set<number>();
      const params = { probing: probing.params, cdcl: cdcl.params };
      probing.params = (count, round) => (rounds.probing++, params.probing(count, round));
      cdcl.params = (count, round) => (rounds.cdcl++, budgets.add(cdcl.budget!), params.cdcl(count, round));
      await raceRounds(ctx, hard, probing, cdcl, { joinAfter: 1, secondShare: 0.1, deadline: performance.now() + 4000 }, stats);
      expect([...budgets]).toEqual([40]);
      // a tenth of the GPU: CDCL rounds of 4 jobs x 40 conflicts take far longer than probing's of 8 x 20 probes
      expect(rounds.cdcl).toBeGreaterThanOrEqual(2);
      expect(rounds.cdcl * 10).toBeLessThan(rounds.probing);
    });
  });

  it.runIf(existsSync(taaiFile))('a puzzle\'s CDCL searches in a paced race run as in CDCL alone (joins and shared clauses by rounds packed): TAAI #456 answered in the same conflicts', async () => {
    await withDevice(async (ctx) => {
      const ps = [parseNonograms(readFileSync(taaiFile), taaiFile).map((r) => r.puzzle!)[455]];
      // rounds of 40 conflicts: the second search joins after 5 rounds and takes the first's clauses
      const side = { maxSolutions: 1, lanes: 4, slots: 4, budget: 40 };
      const alone = await solveNonogramCdcl(ctx, ps, side);
      // probing at a probe a round (it needs ~293k here): the CDCL rounds wait between them as beside a real race
      const probing = await probingKernel(ctx, ps, { maxSolutions: 1, budget: 1 });
      const raced = await raceRounds(ctx, ps, probing, await cdclKernel(ctx, ps, side), { joinAfter: 1, secondShare: 0.5 }, { dispatches: 0, readbacks: 0 });
      expect(raced.first[0]).toBeUndefined(); // probing takes this one minutes
      const summary = (o: (typeof alone)[number]) => o && { status: o.status, conflicts: o.conflicts, decisions: o.decisions, search: o.search, solution: o.solutions[0] };
      expect(summary(raced.second[0])).toEqual(summary(alone[0]));
      expect(verify(ps[0], raced.second[0]!.solutions[0])).toBe(true);
    });
  });

  it('the race stops at a deadline: open puzzles unsolved (timeout), the others verified', async () => {
    await withDevice(async (ctx) => {
      const hard = Array.from({ length: 8 }, (_, i) => randomPicture(31, 31, 2000 + i, 50));
      await compileNonogramRules(ctx, hard, { search: 'race' }); // so that the first round starts before the deadline
      const got = await solveNonograms(ctx, hard, { search: 'race', timeoutMs: 200 });
      expect(got.some((r) => r.status === 'unsolved' && r.reason === 'timeout')).toBe(true);
      got.forEach((r, i) => {
        if (r.status !== 'unsolved') expect(verify(hard[i], r.solution!)).toBe(true);
      });
    });
  });
});
