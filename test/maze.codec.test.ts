import { readFileSync, existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatPng, formatText, mazeToText, movesToPath, parseMazes, pathToMoves } from '../src/puzzles/maze/codec.ts';
import { generateMaze } from '../src/puzzles/maze/generate.ts';
import { rng } from '../src/puzzles/random.ts';
import { bfsPath, deadendFill, deadendStep, FAKE, initialDeadendState, OPEN, simplePath, TERMINAL, traceBack, verifyMoves, walkerRun, walkerRunFast, wavefrontLabels, W } from '../src/puzzles/maze/reference.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const mikepound = '../shared/data/maze/mikepound/';

describe('maze text codec', () => {
  it('reads walls, paths (space and .), S and E, and CRLF', () => {
    const [r] = parseMazes(enc('#S###\r\n#. .#\r\n###E#\r\n'));
    expect(r.error).toBeUndefined();
    const m = r.maze!;
    expect([m.width, m.height, m.start, m.end]).toEqual([5, 3, 1, 13]);
    expect(Array.from(m.open)).toEqual([0, 1, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 1, 0]);
  });

  it('takes start and end from the two border gaps when S and E are absent (thesis 3.1)', () => {
    const [r] = parseMazes(enc('## ##\n#   #\n#### \n'));
    expect(r.maze!.start).toBe(2);
    expect(r.maze!.end).toBe(14);
  });

  it('any other number of gaps is an error listing them', () => {
    const [r] = parseMazes(enc('# # #\n#   #\n## ##\n'), 'm.txt');
    expect(r.error).toMatch(/^m\.txt:1:1: .*exactly 2 gaps.*found 3: 1:2, 1:4, 3:3/);
    const [r2] = parseMazes(enc('#####\n#   #\n#####\n'), 'm.txt');
    expect(r2.error).toMatch(/found 0$/);
  });

  it('ragged lines and bad characters name line and column', () => {
    const [r] = parseMazes(enc('#S###\n#  #\n###E#\n'), 'x');
    expect(r.error).toMatch(/^x:2:5: ragged maze: this row has 4 cells/);
    const [r2] = parseMazes(enc('#S###\n# ?.#\n###E#\n'), 'x');
    expect(r2.error).toMatch(/^x:2:3: unexpected "\?"/);
    const [r3] = parseMazes(enc('#S#S#\n#   #\n###E#\n'), 'x');
    expect(r3.error).toMatch(/^x:1:4: a second start/);
  });

  it('several mazes separated by empty lines, each with its line; a bad one does not stop the others', () => {
    const text = '\n#S#\n# #\n#E#\n\n\n#S#\n#?#\n#E#\n\n#S##\n#  #\n##E#\n';
    const rs = parseMazes(enc(text), 'f');
    expect(rs.map((r) => r.line)).toEqual([2, 7, 11]);
    expect(rs[1].error).toMatch(/^f:8:2:/);
    expect(rs[2].maze!.width).toBe(4);
  });

  it('marks the path with o and keeps every other character', () => {
    const [r] = parseMazes(enc('#S###\n#. .#\n#.#E#\n'));
    const path = bfsPath(r.maze!)!;
    expect(formatText(r.maze!, path)).toBe('#o###\n#oo.#\n#.#o#\n'.replace('#oo.#', '#ooo#'));
  });

  it('fuzz: random bytes and mutated mazes never throw, and every record is a maze or an error', () => {
    const rand = rng(99);
    const base = mazeToText(generateMaze({ width: 15, height: 11, seed: 3 }));
    const alphabet = '# .SEo\n\r\t?x';
    for (let n = 0; n < 500; n++) {
      let s = base.split('');
      const edits = Math.floor(rand() * 6);
      for (let k = 0; k < edits; k++) {
        const i = Math.floor(rand() * s.length);
        const op = Math.floor(rand() * 3);
        const ch = alphabet[Math.floor(rand() * alphabet.length)];
        if (op === 0) s[i] = ch;
        else if (op === 1) s.splice(i, 1);
        else s.splice(i, 0, ch);
      }
      const bytes = n % 5 === 4 ? Uint8Array.from({ length: 40 }, () => Math.floor(rand() * 256)) : enc(s.join(''));
      const recs = parseMazes(bytes, 'fuzz');
      for (const r of recs) {
        expect(Boolean(r.maze) !== Boolean(r.error)).toBe(true);
        if (r.error) expect(r.error).toMatch(/^fuzz(:\d+:\d+)?: /);
        if (r.maze) {
          expect(r.maze.open[r.maze.start]).toBe(1);
          expect(r.maze.open[r.maze.end]).toBe(1);
        }
      }
    }
  });
});

describe('maze PNG codec', () => {
  it('round-trips a generated maze; start is the top-row gap, end the bottom-row gap', () => {
    const m = generateMaze({ width: 33, height: 21, seed: 5 });
    const path = bfsPath(m)!;
    const [r] = parseMazes(formatPng(m, null), 'g.png');
    expect(r.maze!.start).toBe(m.start);
    expect(r.maze!.end).toBe(m.end);
    expect(Array.from(r.maze!.open)).toEqual(Array.from(m.open));
    // the solved image (red path) still reads as the same maze
    const [r2] = parseMazes(formatPng(m, path), 'g.png');
    expect(Array.from(r2.maze!.open)).toEqual(Array.from(m.open));
  });

  it('unreadable PNGs and missing start or end are clear errors', () => {
    const bytes = formatPng(generateMaze({ width: 9, height: 9, seed: 1 }), null);
    expect(parseMazes(bytes.slice(0, 60), 'cut.png')[0].error).toMatch(/^cut\.png:1:1: unreadable PNG/);
    const closed = generateMaze({ width: 9, height: 9, seed: 1 });
    closed.open[closed.start] = 0;
    expect(parseMazes(formatPng(closed, null), 'c.png')[0].error).toMatch(/no start: the top row has no open/);
  });

  it.skipIf(!existsSync(mikepound))('reads the mikepound images (palette PNG included)', () => {
    for (const f of ['tiny', 'small', 'normal', 'logo']) {
      const [r] = parseMazes(readFileSync(`${mikepound}${f}.png`), f);
      expect(r.error).toBeUndefined();
      expect(r.maze!.start).toBeLessThan(r.maze!.width);
      expect(bfsPath(r.maze!)).not.toBeNull();
    }
  });
});

describe('maze generator and CPU references', () => {
  it('perfect mazes: seeded, no 2x2 open square, exactly one path (dead-end filling leaves only it)', () => {
    for (const [w, h, seed, algorithm] of [[31, 31, 1, 'dfs'], [40, 26, 2, 'dfs'], [31, 45, 3, 'kruskal'], [3, 3, 4, 'dfs']] as const) {
      const m = generateMaze({ width: w, height: h, seed, algorithm });
      expect(mazeToText(generateMaze({ width: w, height: h, seed, algorithm }))).toBe(mazeToText(m));
      for (let y = 0; y + 1 < h; y++) {
        for (let x = 0; x + 1 < w; x++) {
          const i = y * w + x;
          expect(m.open[i] && m.open[i + 1] && m.open[i + w] && m.open[i + w + 1]).toBeFalsy();
        }
      }
      const fill = deadendFill(m);
      const left = simplePath(m, (i) => fill.state[i] === OPEN || fill.state[i] === TERMINAL);
      expect(left).toEqual(bfsPath(m));
      let open = 0;
      for (let i = 0; i < m.open.length; i++) open += fill.state[i] === OPEN || fill.state[i] === TERMINAL ? 1 : 0;
      expect(open).toBe(left!.length);
    }
  });

  it('loops: each opened wall adds one cycle; dead-end filling leaves them', () => {
    const m = generateMaze({ width: 41, height: 41, seed: 7, loops: 10 });
    const p = generateMaze({ width: 41, height: 41, seed: 7 });
    let extra = 0;
    for (let i = 0; i < m.open.length; i++) extra += m.open[i] - p.open[i];
    expect(extra).toBe(10);
  });

  it('the O(n) dead-end fill equals the synchronous automaton, generation count included', () => {
    for (const seed of [1, 2, 3]) {
      const m = generateMaze({ width: 25 + seed * 6, height: 19 + seed * 4, seed, loops: seed === 3 ? 6 : 0 });
      let s = initialDeadendState(m);
      let gens = 0;
      for (;;) {
        const { next, changed } = deadendStep(s, m.width, m.height);
        if (!changed) break;
        s = next;
        gens++;
      }
      const fast = deadendFill(m);
      expect(Array.from(fast.state)).toEqual(Array.from(s));
      expect(fast.generations).toBe(gens);
      expect(s.includes(FAKE)).toBe(true);
    }
  });

  it('wavefront labels mod 3 and trace-back give a shortest path; uniqueness is reported', () => {
    const m = generateMaze({ width: 41, height: 31, seed: 11, loops: 30 });
    const { labels, generations } = wavefrontLabels(m);
    const t = traceBack(m, labels)!;
    expect(t.path.length).toBe(bfsPath(m)!.length);
    expect(generations).toBe(t.path.length - 1);
    expect(verifyMoves(m, pathToMoves(t.path, m.width))).toBe(true);
    // an open 3x3 room has several shortest paths corner to corner
    const [room] = parseMazes(enc('#S###\n#   #\n#   #\n#   #\n###E#\n'));
    const tr = traceBack(room.maze!, wavefrontLabels(room.maze!).labels)!;
    expect(tr.unique).toBe(false);
    const perfect = generateMaze({ width: 21, height: 21, seed: 2 });
    expect(traceBack(perfect, wavefrontLabels(perfect).labels)!.unique).toBe(true);
  });

  it('verifier: accepts the path, rejects walls, revisits, wrong ends and bad symbols', () => {
    const m = generateMaze({ width: 21, height: 15, seed: 4 });
    const moves = pathToMoves(bfsPath(m)!, m.width);
    expect(verifyMoves(m, moves)).toBe(true);
    expect(verifyMoves(m, moves.slice(0, -1))).toBe(false);
    expect(verifyMoves(m, moves + 'UD')).toBe(false);
    expect(verifyMoves(m, 'L' + moves)).toBe(false);
    expect(verifyMoves(m, moves.replace(/.$/, 'x'))).toBe(false);
    expect(movesToPath(m, 'UUUU')).toBeNull();
  });

  it('walker (thesis 3.1.2) reaches the exit and leaves exactly the path on perfect mazes', () => {
    for (const seed of [1, 2]) {
      const m = generateMaze({ width: 31, height: 25, seed });
      const { state } = walkerRun(m);
      const on = (v: number) => v === W.START || v === W.WALKED || v === W.WALKED_CROSS || v === W.EXIT;
      expect(simplePath(m, (i) => on(state[i]))).toEqual(bfsPath(m));
      expect(state.includes(W.PATH)).toBe(false);
    }
  });

  it('the O(changes) walker twin equals the full synchronous one, loops included', () => {
    for (const [w, h, seed, algorithm, loops] of [[31, 25, 1, 'dfs', 0], [101, 77, 2, 'kruskal', 5], [3, 3, 3, 'dfs', 0], [150, 61, 4, 'dfs', 20]] as const) {
      const m = generateMaze({ width: w, height: h, seed, algorithm, loops });
      const a = walkerRun(m);
      const b = walkerRunFast(m);
      expect(b.generations).toBe(a.generations);
      expect(Array.from(b.state)).toEqual(Array.from(a.state));
    }
  });
});
