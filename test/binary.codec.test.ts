import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cellsToString, formatGameId, parseBinary, parseGameId, sizeProblem, UNKNOWN, validLineCount } from '../src/puzzles/binary/codec.ts';
import { generateText, rng } from '../src/puzzles/binary/generate.ts';
import { SGT_DIR, sgtFiles } from './binary.helpers.ts';


describe('binary codec', () => {
  it('reads plain grids: blank-line separated, comments, spaces between symbols, CRLF', () => {
    const text = '# two puzzles\r\n0.1.\r\n....\r\n....\r\n....\r\n\r\n\r\n1 0 . .\n. . . .\n. . 0 1\n. . . .\n';
    const recs = parseBinary(text, 'a.txt');
    expect(recs.map((r) => r.error)).toEqual([undefined, undefined]);
    expect(recs.map((r) => r.line)).toEqual([2, 8]);
    expect(recs[0].puzzle!.width).toBe(4);
    expect(recs[0].puzzle!.height).toBe(4);
    expect(cellsToString(recs[0].puzzle!.cells)).toBe('0.1.' + '.'.repeat(12));
    expect(recs[1].puzzle!.height).toBe(4);
    expect(recs[1].puzzle!.distinct).toBe(true);
    expect(parseBinary('01\n10\n', 'x', { rules: 'unruly' })[0].puzzle!.distinct).toBe(false);
  });

  it('a `# rules:` line sets the rules of the grids after it (--rules wins; game ids keep their own); gen binary --rules unruly writes one, so its grids read back as unruly', () => {
    const text = '0.\n..\n\n# rules: unruly\n.1\n..\n\n6x6:FCebccECEb\n\n#Rules:Takuzu\n1.\n..\n';
    const flags = (options = {}) => parseBinary(text, 'r.txt', options).map((r) => [r.line, r.puzzle!.distinct]);
    // the game id (no `u`: equal lines allowed) is its own
    expect(flags()).toEqual([[1, true], [5, false], [8, false], [11, true]]);
    expect(flags({ rules: 'takuzu' })).toEqual([[1, true], [5, true], [8, true], [11, true]]);
    expect(flags({ rules: 'unruly' }).map(([, d]) => d)).toEqual([false, false, false, false]);
    // a misspelt rule is an error at its word: it would solve the grids after it under the other rules
    const bad = parseBinary('#  rules:  unrly\n01\n10\n', 'b.txt');
    expect(bad.map((r) => r.error ?? r.puzzle!.distinct)).toEqual(["b.txt:1:12: unknown rules 'unrly' (takuzu, binairo, all or unruly)", true]);
    const made = parseBinary(generateText({ width: 6, height: 6, seed: 1, count: 3, options: { rules: 'unruly' } }), 'gen.txt');
    expect(made.map((r) => r.puzzle?.distinct)).toEqual([false, false, false]);
    expect(parseBinary(generateText({ width: 6, height: 6, seed: 1, count: 2, options: {} }), 'gen.txt').map((r) => r.puzzle?.distinct)).toEqual([true, true]);
  });

  it('errors name line and column and say why', () => {
    const cases: [string, RegExp][] = [
      ['01\n1x\n', /^f:2:2: 'x' is not a cell/],
      ['0101\n01\n', /^f:2:3: row 2 has 2 cells, the first row \(line 1\) has 4/],
      ['010\n101\n', /^f:1:1: the width 3 is odd: a row cannot hold as many 0s as 1s/],
      ['01\n10\n01\n', /^f:3:1: the height 3 is odd/],
      // 8 rows of width 2: only 2 valid rows exist, so they cannot all differ
      ['01\n10\n01\n10\n01\n10\n01\n10\n', /^f:8:1: 8 rows cannot all differ \(Rule 3\): only 2 valid rows of length 2 exist/],
      ['6x6u:aB?c\n', /^f:1:8: '\?' is not a letter of an Unruly game id/],
      ['6x6u:ab\n', /^f:1:8: game id too short: it covers 3 of 36 cells/],
      ['6x6:zzzzzzzzzzzz\n', /^f:1:\d+: game id runs past the 6x6 grid/],
      ['5x6:zzzzzzzzzzzz\n', /^f:1:1: the width 5 is odd/],
    ];
    for (const [text, want] of cases) {
      const recs = parseBinary(text, 'f');
      expect(recs.length, text).toBe(1);
      expect(recs[0].error, text).toMatch(want);
    }
    // the same 8x2 grid is fine when equal rows are allowed
    expect(parseBinary('01\n10\n01\n10\n01\n10\n01\n10\n', 'f', { rules: 'unruly' })[0].error).toBeUndefined();
  });

  it('game ids: STPPC encoding both ways (runs of 25 with z/Z, the final letter one past the grid)', () => {
    const p = parseGameId('8x8u:aBeABaigFhdbCiBc', 1);
    expect(cellsToString(p.cells)).toBe('0.1....01.10........0......0.....1.......0...0.0..1........0.1..');
    expect(p.distinct).toBe(true);
    const empty = new Uint8Array(100).fill(UNKNOWN);
    expect(formatGameId(10, 10, empty, false)).toBe('10x10:zzzza');
    expect(cellsToString(parseGameId('10x10:zzzza', 1).cells)).toBe('.'.repeat(100));
    const cells = empty.slice();
    cells[60] = 1;
    expect(formatGameId(10, 10, cells, true)).toBe('10x10u:ZZKzo');
    expect(parseGameId('10x10u:ZZKzo', 1).cells[60]).toBe(1);
    expect(parseGameId('8x8udn:aBeABaigFhdbCiBc', 1).stppcLevel).toBe('n');
    expect(sizeProblem(6, 6, true)).toBeNull();
    expect(validLineCount(8)).toBe(34); // OEIS A177790
    expect(validLineCount(14)).toBe(518);
  });

  it('reads every STPPC tsv row, and writes each game id back unchanged', () => {
    let n = 0;
    for (const f of sgtFiles) {
      const recs = parseBinary(readFileSync(SGT_DIR + f), SGT_DIR + f);
      for (const r of recs) {
        expect(r.error, `${f}:${r.line}`).toBeUndefined();
        const p = r.puzzle!;
        expect(formatGameId(p.width, p.height, p.cells, p.distinct)).toBe(p.tsv!.columns[0]);
        expect(r.expected).toMatch(/^[01]+$/);
        expect(p.distinct).toBe(/\d+x\d+u/.test(f));
        n++;
      }
      expect(recs[0].puzzle!.tsv!.header).toMatch(/^game_id\t/);
    }
    expect(n).toBe(100 * sgtFiles.length);
  });

  it('tsv rows that disagree with their game id are errors at the column', () => {
    const head = 'game_id\tw\th\tunique\tpuzzle\tsolution\tgen_seconds\n';
    const recs = parseBinary(head + '6x6:zl\t6\t8\t0\t\t\t\n' + '6x6:zl\t6\t6\t0\t' + '1' + '.'.repeat(35) + '\t\t\n', 't.tsv');
    expect(recs[0].error).toMatch(/^t\.tsv:2:10: h column says 8, the game id 6/);
    expect(recs[1].error).toMatch(/^t\.tsv:3:14: puzzle column disagrees with the game id at cell 0/);
  });

  it('fuzz: mangled inputs never throw, and every error names line:column', () => {
    const random = rng(7);
    const seeds = [
      '0.1.\n....\n\n1 0 . .\n. . . .\n',
      '8x8u:aBeABaigFhdbCiBc\n10x10:zzzaw\n',
      'game_id\tw\th\tunique\tpuzzle\tsolution\tgen_seconds\n6x6:zl\t6\t6\t0\t\t\t\n',
    ];
    const alphabet = '01.\n\t :xuzZaA#-9';
    for (let i = 0; i < 3000; i++) {
      let t = seeds[i % seeds.length];
      const edits = 1 + Math.floor(random() * 4);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(random() * (t.length + 1));
        const r = random();
        const ch = alphabet[Math.floor(random() * alphabet.length)];
        t = r < 0.4 ? t.slice(0, at) + ch + t.slice(at) : r < 0.7 ? t.slice(0, at) + t.slice(at + 1) : t.slice(0, at) + ch + t.slice(at + 1);
      }
      const file = i % 3 === 2 ? 'f.tsv' : 'f';
      const recs = parseBinary(t, file);
      for (const r of recs) {
        if (r.error) expect(r.error, JSON.stringify(t)).toMatch(/^f(\.tsv)?:\d+:\d+: \S/);
        else {
          const p = r.puzzle!;
          expect(p.cells.length).toBe(p.width * p.height);
          expect(sizeProblem(p.width, p.height, p.distinct)).toBeNull();
        }
      }
    }
  });
});
