// The CPU side of binary puzzles: the verifier, the rule set (Methods 1-4), the complete solver and the grading.
import { describe, expect, it } from 'vitest';
import { cellsToString, UNKNOWN, type BinaryPuzzle } from '../src/puzzles/binary/codec.ts';
import { sgt, sgtFiles } from './binary.helpers.ts';
import { generatePuzzle, generateText, randomSolution, rng } from '../src/puzzles/binary/generate.ts';
import { caRun, caStep, checkSolution, gradeByClosure, methodFlag, METHODS_ALL, M_COUNT, M_PAIRS, M_TRIOS, M_UNIQUE, thesisRun } from '../src/puzzles/binary/reference.ts';
import { countSolutions, gradeCpu } from '../src/puzzles/binary/search.ts';
import { FLAG_CHANGED, FLAG_CONTRADICTION } from '../src/engine/constants.ts';


export function grid(rows: string[], distinct = true): BinaryPuzzle {
  const text = rows.join('');
  return { width: rows[0].length, height: rows.length, cells: Uint8Array.from(text, (c) => (c === '.' ? UNKNOWN : Number(c))), distinct };
}

const rowsOf = (cells: Uint8Array, w: number) => cellsToString(cells).match(new RegExp(`.{${w}}`, 'g'))!;

describe('binary rules on the CPU', () => {
  it('Method 1 (pairs), thesis Figure 3.17: the cells beside 00 become 1', () => {
    const p = grid(['100.0..1', '........']);
    // pad to a legal height with unknown rows: methods act on lines, the size only has to be even
    const r = caStep(p, M_PAIRS, false);
    expect(rowsOf(r.cells, 8)[0]).toBe('10010..1');
    expect(r.flags & methodFlag(M_PAIRS)).toBeTruthy();
    const q = grid(['.00.....', '........']);
    expect(rowsOf(caStep(q, M_PAIRS, false).cells, 8)[0]).toBe('1001....');
  });

  it('Method 2 (trios), thesis Figure 3.18: 1.1 -> 101', () => {
    expect(rowsOf(caStep(grid(['1.1....1', '........']), M_TRIOS, false).cells, 8)[0]).toBe('101....1');
  });

  it('Method 3 (counts), thesis Figure 3.19: a column with three 1s in six gets 0s', () => {
    const p = grid(['..1...', '......', '101001', '......', '......', '..1...'], false);
    const r = caStep(p, M_COUNT, false);
    expect(rowsOf(r.cells, 6).map((row) => row[2]).join('')).toBe('101001');
    expect(r.flags & methodFlag(M_COUNT)).toBeTruthy();
  });

  it('Method 4 (uniqueness), thesis Figure 3.20: 0110.. beside 011001 becomes 011010', () => {
    const p = grid(['011001', '0110..', '......', '......', '......', '......']);
    const r = caStep(p, M_UNIQUE, true);
    expect(rowsOf(r.cells, 6)[1]).toBe('011010');
    // without the distinct-lines rule Method 4 says nothing
    expect(caStep(p, M_UNIQUE, false).flags & FLAG_CHANGED).toBe(0);
  });

  it('the remainder (thesis Figure 3.21) is beyond Methods 1-4: 110..0 stays open, probing settles it', () => {
    const p = grid(['110..0', '......', '......', '......', '......', '......'], false);
    const r = caRun(p, METHODS_ALL, false);
    expect(rowsOf(r.cells, 6)[0]).toBe('110..0');
  });

  it('the blog example: (2,2) and (2,5) become 0, then (2,6) becomes 1 by the count', () => {
    // the blog's grid, blanks as dots; its (column, row) are 1-based
    const p = grid(['.01...', '0.10..', '11.0..', '.1..0.', '...0..', '1..1.0']);
    const g1 = caStep(p, M_PAIRS | M_TRIOS | M_COUNT, true);
    const col = (cells: Uint8Array) => rowsOf(cells, 6).map((r) => r[1]).join('');
    expect(col(p.cells)).toBe('0.11..');
    expect(col(g1.cells)).toBe('00110.');
    const g2 = caStep({ ...p, cells: g1.cells }, M_COUNT, true);
    expect(col(g2.cells)).toBe('001101');
    const solved = countSolutions(p);
    expect(solved.count).toBe(1);
  });

  it('contradictions: three equal givens, an overfull line, two equal complete rows, a cell wanted both ways', () => {
    expect(caStep(grid(['000...', '......', '......', '......', '......', '......']), 0, false).flags & FLAG_CONTRADICTION).toBeTruthy();
    expect(caStep(grid(['1.1.1.11', '........']), 0, false).flags & FLAG_CONTRADICTION).toBeTruthy();
    expect(caStep(grid(['0110', '0110', '....', '....']), 0, true).flags & FLAG_CONTRADICTION).toBeTruthy();
    expect(caStep(grid(['0110', '0110', '....', '....']), 0, false).flags & FLAG_CONTRADICTION).toBeFalsy();
    expect(caStep(grid(['00.11.', '......', '......', '......', '......', '......']), M_PAIRS, false).flags & FLAG_CONTRADICTION).toBeTruthy();
    expect(countSolutions(grid(['000...', '......', '......', '......', '......', '......'])).count).toBe(0);
  });

  it('the verifier checks givens, trios, counts and (with Rule 3) distinct lines', () => {
    const p = grid(['....', '....', '....', '....']);
    expect(checkSolution(p, '0110100101101001')).toMatch(/rows 0 and 2 are equal/);
    expect(checkSolution({ ...p, distinct: false }, '0110100101101001')).toBeNull();
    expect(checkSolution(p, '0011110000111100')).toMatch(/equal/);
    expect(checkSolution(p, '0001111000011110')).toMatch(/three 0s in a row|ones/);
    expect(checkSolution(grid(['1...', '....', '....', '....'], false), '0110100101101001')).toMatch(/given/);
    expect(checkSolution(p, '01101001011010')).toMatch(/cells/);
  });

  it('every STPPC puzzle: one solution, the given one; closure grading = propagation grading', () => {
    for (const f of sgtFiles) {
      for (const r of sgt(f)) {
        const p = r.puzzle;
        expect(checkSolution(p, r.expected), `${f}:${r.line}`).toBeNull();
        const s = countSolutions(p);
        expect(s.count, `${f}:${r.line}`).toBe(1);
        expect(cellsToString(s.solutions[0])).toBe(r.expected);
        const level = gradeCpu(p);
        expect(gradeByClosure(p), `${f}:${r.line}`).toBe(level);
        // trivial and easy STPPC puzzles need no more than Methods 1-3 without Rule 3
        if (/\d+x\d+d[te]/.test(f)) expect(level).toBeLessThanOrEqual(2);
      }
    }
  });

  it('generated puzzles have the asked level, one solution, and the thesis automaton solves levels 1-2', () => {
    const random = rng(11);
    for (const level of [1, 2, 3, 4]) {
      for (let i = 0; i < 3; i++) {
        const g = generatePuzzle(8, 8, level, true, random);
        expect(gradeByClosure(g.puzzle)).toBe(level);
        const s = countSolutions(g.puzzle);
        expect(s.count).toBe(1);
        expect(cellsToString(s.solutions[0])).toBe(cellsToString(g.solution));
        const th = thesisRun(g.puzzle);
        expect(th.status).toBe(level <= 2 ? 'done' : 'fixpoint');
        if (level <= 2) expect(cellsToString(th.cells)).toBe(cellsToString(g.solution));
      }
    }
  });

  it('random solution grids keep every rule at every size, up to the solver\'s 254-cell lines, and differ by seed', () => {
    // 14x6 and 6x14 sit near Rule 3's limit (14 valid lines of 6): some seeds there fall back to the search
    const shapes: [number, number, boolean, number][] = [[2, 2, true, 5], [4, 6, true, 20], [6, 14, true, 50], [14, 6, true, 50], [8, 8, true, 20], [34, 4, false, 5], [2, 40, false, 5], [64, 64, true, 2], [120, 34, true, 1], [254, 8, false, 1], [200, 200, true, 1]];
    for (const [w, h, distinct, seeds] of shapes) {
      const seen = new Set<string>();
      for (let seed = 1; seed <= seeds; seed++) {
        const cells = randomSolution(w, h, distinct, rng(seed));
        const p: BinaryPuzzle = { width: w, height: h, cells: new Uint8Array(w * h).fill(UNKNOWN), distinct };
        expect(checkSolution(p, cellsToString(cells)), `${w}x${h} seed ${seed}`).toBeNull();
        seen.add(cellsToString(cells));
      }
      if (seeds > 1 && w * h > 4) expect(seen.size, `${w}x${h}`).toBeGreaterThan(1);
    }
  });

  it('gen reports its progress through each puzzle (the command line draws it on a terminal)', () => {
    const seen: [number, number][] = [];
    generateText({ width: 24, height: 24, seed: 3, count: 2, options: { level: '4' }, progress: (done, total) => seen.push([done, total]) });
    expect(seen.length).toBeGreaterThan(10);
    for (const [done, total] of seen) {
      expect(total).toBe(200);
      expect(done).toBeGreaterThanOrEqual(0);
      expect(done).toBeLessThan(200);
    }
    // the second puzzle's share comes after the first's
    expect(seen.some(([done]) => done >= 100)).toBe(true);
  });

  it('a puzzle with two solutions is counted as such', () => {
    const p = grid(['....', '....', '....', '....'], true);
    const s = countSolutions(p, 2);
    expect(s.count).toBe(2);
    expect(cellsToString(s.solutions[0])).not.toBe(cellsToString(s.solutions[1]));
    for (const sol of s.solutions) expect(checkSolution(p, cellsToString(sol))).toBeNull();
  });

  it('grids with few givens: two solutions in hundreds of branch points (an empty 16x16 took 5,931; restarts)', () => {
    const open = (w: number, h: number): BinaryPuzzle => ({ width: w, height: h, cells: new Uint8Array(w * h).fill(UNKNOWN), distinct: true });
    const random = rng(11);
    const sparse = open(24, 24);
    const solution = randomSolution(24, 24, true, random);
    for (let i = 0; i < solution.length; i++) if (random() < 0.25) sparse.cells[i] = solution[i];
    // an empty 28x28 took 14,080 branch points before the first ways followed the lines' counts (firstWay), 868 now
    for (const p of [open(16, 16), open(20, 20), open(24, 24), sparse, open(28, 28)]) {
      const r = countSolutions(p, 2, {}, 3000);
      expect(r, `${p.width}x${p.height}`).not.toBeNull();
      expect(r!.count).toBe(2);
      expect(cellsToString(r!.solutions[0])).not.toBe(cellsToString(r!.solutions[1]));
      for (const s of r!.solutions) expect(checkSolution(p, cellsToString(s))).toBeNull();
    }
  });

  it('restarts stay complete: every 6x6 and 4x6 grid counted, as a plain enumeration counts them', () => {
    // the valid lines of length n, then grids row by row with their columns checked at the end
    const lines = (n: number) => Array.from({ length: 2 ** n }, (_, v) => Array.from({ length: n }, (_, i) => (v >> i) & 1)).filter((l) => l.filter((c) => c).length === n / 2 && !l.some((c, i) => i >= 2 && c === l[i - 1] && c === l[i - 2]));
    const count = (w: number, h: number) => {
      const rows = lines(w);
      const cols = new Set(lines(h).map((l) => l.join('')));
      let n = 0;
      const pick = (chosen: number[][]) => {
        if (chosen.length === h) {
          const cs = Array.from({ length: w }, (_, x) => chosen.map((r) => r[x]).join(''));
          if (cs.every((c) => cols.has(c)) && new Set(cs).size === w) n++;
          return;
        }
        for (const r of rows) if (!chosen.includes(r)) pick([...chosen, r]);
      };
      pick([]);
      return n;
    };
    for (const [w, h] of [[6, 6], [4, 6]]) {
      const expected = count(w, h);
      const r = countSolutions({ width: w, height: h, cells: new Uint8Array(w * h).fill(UNKNOWN), distinct: true }, 100_000);
      expect(r.count, `${w}x${h}`).toBe(expected);
      expect(new Set(r.solutions.map((s) => cellsToString(s))).size).toBe(expected);
      expect(r.branches).toBeGreaterThan(64);
    }
  });
});
