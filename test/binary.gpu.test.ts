// Binary puzzles on the GPU against their CPU twins: our automaton generation by generation and to its fixpoint,
// the thesis automaton word for word, and the full solver (levels, probing, branching, uniqueness).
import { describe, expect, it } from 'vitest';
import { FLAG_CHANGED, FLAG_CONTRADICTION, FLAG_PENDING } from '../src/engine/constants.ts';
import { runAll } from '../src/engine/run.ts';
import { cellsToString, sizeProblem, UNKNOWN, type BinaryPuzzle } from '../src/puzzles/binary/codec.ts';
import { generatePuzzle, randomSolution, rng } from '../src/puzzles/binary/generate.ts';
import { packCa } from '../src/puzzles/binary/pack.ts';
import { caRun, caStep, METHODS_ALL, M_COUNT, M_PAIRS, M_TRIOS, M_UNIQUE, thesisInit, thesisRun, thesisStep } from '../src/puzzles/binary/reference.ts';
import { BinarySearch, countSolutions, gradeCpu } from '../src/puzzles/binary/search.ts';
import { caInput, caRule, isSmall, runCa, runThesis, solveFull, thesisInput, thesisRule } from '../src/puzzles/binary/solver.ts';
import { sgt, sgtFiles } from './binary.helpers.ts';
import { skipGpu, withDevice } from './gpu.ts';


// even sizes only (odd lines cannot be puzzles); 1-3 words per row; rows past 32; tall and flat; both paths of
// ca.wgsl (in-lane up to 32x32, strips beyond)
const SIZES: [number, number][] = [
  [2, 2],
  [4, 6],
  [6, 4],
  [8, 8],
  [10, 14],
  [14, 10],
  [32, 4],
  [32, 32],
  [34, 6],
  [66, 4],
  [2, 40],
  [40, 8],
  [8, 40],
];

/** random states of three kinds: holes in a valid grid, holes in a valid grid with a few flipped cells, noise */
function randomStates(seed: number): BinaryPuzzle[] {
  const random = rng(seed);
  const out: BinaryPuzzle[] = [];
  for (const [w, h] of SIZES) {
    for (let kind = 0; kind < 3; kind++) {
      const distinct = (seed + kind) % 2 === 0 && sizeProblem(w, h, true) === null;
      let cells: Uint8Array;
      if (kind < 2) {
        cells = randomSolution(w, h, distinct, random);
        if (kind === 1) for (let f = 0; f < 1 + (w * h) / 40; f++) cells[Math.floor(random() * w * h)] ^= 1;
        const keep = 0.2 + 0.7 * random();
        for (let i = 0; i < cells.length; i++) if (random() > keep) cells[i] = UNKNOWN;
      } else {
        cells = Uint8Array.from({ length: w * h }, () => (random() < 0.6 ? UNKNOWN : random() < 0.5 ? 0 : 1));
      }
      out.push({ width: w, height: h, cells, distinct });
    }
  }
  // and one large noisy grid (random solutions that large take the CPU too long for a test)
  out.push({ width: 40, height: 40, cells: Uint8Array.from({ length: 1600 }, () => (random() < 0.7 ? UNKNOWN : random() < 0.5 ? 0 : 1)), distinct: false });
  return out;
}

const FLAG_MASK = FLAG_CHANGED | FLAG_CONTRADICTION | FLAG_PENDING | (15 * 256);

describe.skipIf(skipGpu)('binary automata on the GPU match their CPU twins', () => {
  for (const methods of [METHODS_ALL, M_PAIRS | M_TRIOS, M_COUNT, M_UNIQUE, 0]) {
    it(`our automaton, one generation, methods ${methods}: every word and flag, mixed sizes in one batch`, async () => {
      await withDevice(async (ctx) => {
        const states = randomStates(methods + 3);
        const { results } = await runAll(ctx, caRule, states.map((p) => caInput(p, p.cells, methods, 1)));
        states.forEach((p, i) => {
          const want = caStep(p, methods, p.distinct);
          const what = `${p.width}x${p.height} distinct=${p.distinct} #${i}`;
          const s = results[i].state;
          expect(Array.from(s.subarray(0, s.length - 1)), what).toEqual(Array.from(packCa(p.width, p.height, want.cells)));
          expect(results[i].flags & FLAG_MASK, what).toBe(want.flags & FLAG_MASK);
          // the in-lane path (grids up to 32x32) counts the generations it ran in the last word; bit 31: it stopped
          // at its cap (here 1) with the grid still changing
          const header = want.flags & FLAG_CONTRADICTION ? 1 : want.flags & FLAG_CHANGED ? 0x80000001 : 0;
          if (isSmall(p)) expect(s[s.length - 1], what).toBe(header);
        });
      });
    });
  }

  it('our automaton to its fixpoint: cells, status and generation count as caRun', async () => {
    await withDevice(async (ctx) => {
      const states = [...randomStates(21), ...randomStates(22)];
      const got = await runCa(ctx, states);
      states.forEach((p, i) => {
        const want = caRun(p, METHODS_ALL, p.distinct);
        const what = `${p.width}x${p.height} #${i}`;
        expect(got[i].status, what).toBe(want.status);
        // after a contradiction a grid runs on to the end of its chunk: the engine counts to its last change there
        if (want.status !== 'contradiction') {
          expect(got[i].generations, what).toBe(want.generations);
          expect(cellsToString(got[i].cells), what).toBe(cellsToString(want.cells));
        }
      });
    });
  });

  it('the thesis automaton: every state word after N generations, walkers and ages included', async () => {
    await withDevice(async (ctx) => {
      const states = randomStates(31).filter((p) => p.width * p.height <= 400);
      // the twin's states generation by generation, computed as far as needed
      const history = states.map((p) => [thesisInit(p)]);
      const twin = (i: number, gens: number) => {
        const h = history[i];
        while (h.length <= gens) h.push(thesisStep(states[i].width, states[i].height, h[h.length - 1]).state);
        return h[gens];
      };
      for (const n of [1, 2, 5, 23, 61]) {
        const { results } = await runAll(ctx, thesisRule, states.map((p) => thesisInput(p, n)));
        states.forEach((p, i) => {
          // a grid that finished early went on through the rest of its chunk: its state saw `dispatches` generations
          const s = twin(i, results[i].dispatches);
          expect(Array.from(results[i].state), `${p.width}x${p.height} #${i} after ${results[i].dispatches}`).toEqual(Array.from(s));
          if (results[i].status === 'capped') expect(results[i].dispatches).toBe(n);
        });
      }
    });
  });

  it('the thesis automaton on STPPC puzzles: status, cells, generation of the last change as thesisRun', async () => {
    await withDevice(async (ctx) => {
      const puzzles = sgtFiles.flatMap((f) => sgt(f).slice(0, 8)).map((r) => r.puzzle);
      const got = await runThesis(ctx, puzzles);
      puzzles.forEach((p, i) => {
        const want = thesisRun(p);
        expect(got[i].status, `#${i}`).toBe(want.status);
        expect(got[i].generations, `#${i}`).toBe(want.generations);
        expect(cellsToString(got[i].cells)).toBe(cellsToString(want.cells));
      });
    });
  });
});

/** a uniquely solvable 8x8 puzzle that propagation with probing does not finish: clues removed while unique */
function needsSearch(random: () => number): { puzzle: BinaryPuzzle; solution: Uint8Array } {
  for (;;) {
    const solution = randomSolution(8, 8, true, random);
    const p: BinaryPuzzle = { width: 8, height: 8, cells: solution.slice(), distinct: true };
    for (const i of [...solution.keys()].sort(() => random() - 0.5)) {
      const v = p.cells[i];
      p.cells[i] = UNKNOWN;
      if (countSolutions(p).count !== 1) p.cells[i] = v;
    }
    if (new BinarySearch(p).deduce()!.includes(UNKNOWN)) return { puzzle: p, solution };
  }
}

describe.skipIf(skipGpu)('binary full solver on the GPU', () => {
  it('STPPC puzzles of every file: the given solution, and the level of the CPU grading', async () => {
    await withDevice(async (ctx) => {
      const recs = sgtFiles.flatMap((f) => sgt(f).slice(0, 8));
      const { results } = await solveFull(ctx, recs.map((r) => r.puzzle));
      recs.forEach((r, i) => {
        expect(results[i].status, `#${i}`).toBe('solved');
        expect(results[i].solution).toBe(r.expected);
        expect(results[i].extra!.level).toBe(gradeCpu(r.puzzle));
      });
    });
  });

  it('generated level-4 puzzles need probes; two solutions are multiple; bad givens a contradiction; a puzzle beyond probing is branched', async () => {
    await withDevice(async (ctx) => {
      const random = rng(5);
      const hard = Array.from({ length: 4 }, () => generatePuzzle(10, 10, 4, true, random));
      const open: BinaryPuzzle = { width: 6, height: 6, cells: new Uint8Array(36).fill(UNKNOWN), distinct: true };
      const bad: BinaryPuzzle = { ...open, cells: Uint8Array.from({ length: 36 }, (_, i) => (i < 3 ? 1 : UNKNOWN)) };
      const deep = needsSearch(random);
      const { results } = await solveFull(ctx, [...hard.map((g) => g.puzzle), open, bad, deep.puzzle]);
      hard.forEach((g, i) => {
        expect(results[i].status).toBe('solved');
        expect(results[i].solution).toBe(cellsToString(g.solution));
        expect(results[i].extra!.level).toBe(4);
        expect(results[i].extra!.probes).toBeGreaterThan(0);
      });
      const multi = results[hard.length];
      expect(multi.status).toBe('multiple');
      expect(multi.solution).not.toBe(multi.solution2);
      expect(countSolutions(open).count).toBe(2);
      expect(multi.extra!.branches).toBeGreaterThan(0);
      expect(results[hard.length + 1].status).toBe('contradiction');
      // unique, but probing alone stalls on it: branching finds the one solution and shows there is no other
      const d = results[hard.length + 2];
      expect(d.status).toBe('solved');
      expect(d.solution).toBe(cellsToString(deep.solution));
      expect(d.extra!.branches).toBeGreaterThan(0);
    });
  });
});
