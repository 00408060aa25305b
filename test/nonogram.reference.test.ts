// The CPU reference: settle against enumeration of placements, the line automaton, the complete solver (probing
// and search, uniqueness up to 2 solutions) and the verifier.
import { describe, expect, it } from 'vitest';
import { cluesOf, type Nonogram } from '../src/puzzles/nonogram/codec.ts';
import { countPlacements, EMPTY, FILLED, lineSolve, log2Fixed, settle, settleBrute, solveCpu, UNKNOWN, verify } from '../src/puzzles/nonogram/reference.ts';
import { randomPicture, rng } from './nonogram.helpers.ts';

/** A random line of 1..maxLen cells, 40% of them known, and a clue that fits it (one in ten too long for it). */
function randomLine(r: (n: number) => number, maxLen: number): { clue: number[]; line: number[] } {
  const len = 1 + r(maxLen);
  const clue: number[] = [];
  let left = len;
  while (left > 0 && r(10) < 7) {
    const b = 1 + r(Math.min(left, 5));
    clue.push(b);
    left -= b + 1;
  }
  if (r(10) === 0) clue.push(1 + r(3)); // sometimes too long: no placement at all
  return { clue, line: Array.from({ length: len }, () => (r(10) < 6 ? UNKNOWN : r(2) ? FILLED : EMPTY)) };
}

describe('settle is exact: it equals the intersection of all placements', () => {
  it('100,000 random lines of 1..14 cells with random known cells', () => {
    const r = rng(7);
    let contradictions = 0;
    for (let t = 0; t < 100_000; t++) {
      const { clue, line } = randomLine(r, 14);
      const out = new Uint8Array(line.length);
      const ok = settle(clue, line, out);
      const want = settleBrute(clue, line);
      expect(ok, `${clue} / ${line}`).toBe(want !== null);
      if (want) expect(Array.from(out), `${clue} / ${line}`).toEqual(Array.from(want));
      else contradictions++;
    }
    expect(contradictions).toBeGreaterThan(500);
  });

  it('the thesis examples (figures 3.10-3.13)', () => {
    const s = (clue: number[], line: string) => {
      const cells = Array.from(line, (c) => (c === '#' ? FILLED : c === '.' ? EMPTY : UNKNOWN));
      const out = new Uint8Array(cells.length);
      expect(settle(clue, cells, out)).toBe(true);
      return Array.from(out, (c) => '?#.'[c]).join('');
    };
    expect(s([], '??????????')).toBe('..........');
    expect(s([3, 1, 4], '??????????')).toBe('###.#.####');
    expect(s([9], '??????????')).toBe('?########?');
    expect(s([4], '?#????????')).toBe('?###?.....');
  });
});

describe('placements of a line (the branch order of the search)', () => {
  // every placement of the clue's blocks that agrees with the known cells, one by one
  const enumerate = (clue: number[], line: number[]): number => {
    const len = line.length;
    const place = (j: number, from: number): number => {
      // cells [from, ..) before block j must be able to be empty
      let n = 0;
      for (let st = from; st <= len; st++) {
        if (st > from && line[st - 1] === FILLED) break;
        if (j === clue.length) return line.slice(from).includes(FILLED) ? 0 : 1;
        const end = st + clue[j];
        if (end > len) break;
        if (line.slice(st, end).includes(EMPTY) || line[end] === FILLED) continue;
        n += place(j + 1, Math.min(len, end + 1));
      }
      return n;
    };
    return place(0, 0);
  };

  it('countPlacements equals enumeration on 20,000 random lines of 1..16 cells, and the all-unknown formula at 31', () => {
    const r = rng(11);
    let none = 0;
    for (let t = 0; t < 20_000; t++) {
      const { clue, line } = randomLine(r, 16);
      const n = countPlacements(clue, line);
      expect(n, `${clue} / ${line}`).toBe(enumerate(clue, line));
      if (n === 0) none++;
    }
    expect(none).toBeGreaterThan(1000);
    // k blocks of total length S on L unknown cells: C(L - S + 1, k)
    const choose = (n: number, k: number): number => (k === 0 ? 1 : (choose(n - 1, k - 1) * n) / k);
    for (const clue of [[], [31], [1, 1, 1, 1, 1, 1, 1, 1, 1], [3, 2, 1, 5], Array(16).fill(1)]) {
      const sum = clue.reduce((a, b) => a + b, 0);
      expect(countPlacements(clue, new Array(31).fill(UNKNOWN))).toBe(choose(31 - sum + 1, clue.length));
    }
  });

  it('log2Fixed: exact at powers of two, within 0.09 of log2, never decreasing', () => {
    let last = 0;
    for (let x = 1; x < 1 << 20; x += 1 + (x >> 6)) {
      const v = log2Fixed(x);
      expect(v).toBeGreaterThanOrEqual(last);
      expect(Math.abs(v / 256 - Math.log2(x))).toBeLessThan(0.09);
      last = v;
    }
    for (let e = 0; e < 31; e++) expect(log2Fixed(2 ** e)).toBe(256 * e);
    expect(log2Fixed(0)).toBe(0);
  });
});

describe('line automaton and complete solver', () => {
  it('line logic solves a line-solvable puzzle in few generations; the solution verifies', () => {
    // webpbn #1 "Dancer"
    const p: Nonogram = {
      width: 5,
      height: 10,
      rows: [[2], [2, 1], [1, 1], [3], [1, 1], [1, 1], [2], [1, 1], [1, 2], [2]],
      columns: [[2, 1], [2, 1, 3], [7], [1, 3], [2, 1]],
    };
    const r = lineSolve(p);
    expect(r.status).toBe('solved');
    expect(r.generations).toBeLessThan(10);
    const sol = Array.from(r.cells, (c) => (c === FILLED ? '1' : '0')).join('');
    expect(sol).toBe('01100011010010101110101001010000110010100101111000');
    expect(verify(p, sol)).toBe(true);
    expect(verify(p, sol.replace(/^0/, '1'))).toBe(false);
  });

  it('counts the solutions of small random puzzles up to two (checked by enumerating every picture)', () => {
    for (let seed = 1; seed <= 240; seed++) {
      // mostly up to 3x3 (512 pictures each), every 16th 4x4 (65,536)
      const w = seed % 16 === 0 ? 4 : 1 + (seed % 3);
      const h = seed % 16 === 0 ? 4 : 1 + ((seed >> 2) % 3);
      const p = randomPicture(w, h, seed);
      // enumerate all pictures of this size: how many have these clues?
      const found: string[] = [];
      for (let m = 0; m < 1 << (w * h) && found.length < 3; m++) {
        const cells = Array.from({ length: w * h }, (_, i) => (m >> i) & 1);
        const c = cluesOf(cells, w, h);
        if (JSON.stringify(c.rows) === JSON.stringify(p.rows) && JSON.stringify(c.columns) === JSON.stringify(p.columns)) found.push(cells.join(''));
      }
      const res = solveCpu(p);
      if (found.length === 1) {
        expect(res.status, `seed ${seed}`).toBe('solved');
        expect(res.solution).toBe(found[0]);
      } else {
        expect(res.status, `seed ${seed}`).toBe('multiple');
        expect(verify(p, res.solution!)).toBe(true);
        expect(verify(p, res.solution2!)).toBe(true);
        expect(res.solution).not.toBe(res.solution2);
      }
    }
  });

  it('reports contradictions and the level that sufficed', () => {
    const bad: Nonogram = { width: 2, height: 2, rows: [[2], []], columns: [[], [1]] }; // sums differ: unsolvable
    expect(solveCpu(bad).status).toBe('contradiction');
    // a 2x2 diagonal: two solutions, no logic decides it
    const diag: Nonogram = { width: 2, height: 2, rows: [[1], [1]], columns: [[1], [1]] };
    const d = solveCpu(diag);
    expect(d.status).toBe('multiple');
    expect([d.solution, d.solution2].sort()).toEqual(['0110', '1001']);
    // random 15x15 pictures: whatever the level, the answer verifies
    for (let seed = 1; seed <= 20; seed++) {
      const p = randomPicture(15, 15, seed * 31);
      const res = solveCpu(p);
      expect(['solved', 'multiple']).toContain(res.status);
      expect(verify(p, res.solution!)).toBe(true);
      if (res.status === 'solved') expect(res.solution).toBe(p.picture);
      if (res.level === 'line') expect(res.probes).toBe(0);
    }
  });

  it('respects givens (STPPC clue squares)', () => {
    const diag: Nonogram = { width: 2, height: 2, rows: [[1], [1]], columns: [[1], [1]], givens: Uint8Array.from([1, 0, 0, 0]) };
    const d = solveCpu(diag);
    expect(d.status).toBe('solved');
    expect(d.solution).toBe('1001');
    expect(verify(diag, '0110')).toBe(false);
  });
});

describe('the CPU solver keeps its deadline', () => {
  it('inside line logic too: a 500x500 whose line logic alone takes seconds stops at a 100-ms timeout', () => {
    // (line logic ran to its end before: the generator's 30-s checks of a 1024x1024 took 479 s to give up)
    const p = randomPicture(500, 500, 7, 80);
    const t = performance.now();
    const r = solveCpu(p, { timeoutMs: 100 });
    const ms = performance.now() - t;
    expect(r.status).toBe('unsolved');
    expect(r.reason).toBe('timeout');
    expect(ms).toBeLessThan(2000);
  });
});
