// Nonogram formats: every reader on small inputs of our own, the real collections when ../shared is present, the
// clue errors with line:column, round trips through the writers, and a fuzz test (no reader ever throws).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  blockSide,
  cluesOf,
  formatGameId,
  formatGrid,
  formatNon,
  formatTournament,
  formatTournamentSolution,
  formatXmlPuzzle,
  jsonErrorOffset,
  parseNonograms,
  parseTournamentSolutions,
  readPngPicture,
  resamplePicture,
  solutionPng,
  type Nonogram,
  XML_SET,
} from '../src/puzzles/nonogram/codec.ts';
import { nonogram } from '../src/puzzles/nonogram/index.ts';
import { verify } from '../src/puzzles/nonogram/reference.ts';
import type { SolveResult } from '../src/puzzles/types.ts';
import { rng } from './nonogram.helpers.ts';

const enc = new TextEncoder();
const parse = (text: string, file: string, options: Record<string, string | boolean> = {}) => parseNonograms(enc.encode(text), file, options);

// webpbn.com #1 "Dancer" (the FORMAT.md example), 5 wide and 10 high
const dancer: Nonogram = {
  width: 5,
  height: 10,
  rows: [[2], [2, 1], [1, 1], [3], [1, 1], [1, 1], [2], [1, 1], [1, 2], [2]],
  columns: [[2, 1], [2, 1, 3], [7], [1, 3], [2, 1]],
};
const dancerGoal = '01100011010010101110101001010000110010100101111000';

/** A webpbn XML puzzle element (webpbn.com/pbn_fmt.html), as webpbn.com exports one. */
function pbnPuzzle(p: Nonogram, goal?: string, title = 'Dancer'): string {
  const lines = (clues: number[][]) => clues.map((c) => (c.length ? `<line>${c.map((n) => `<count>${n}</count>`).join('')}</line>` : '<line/>')).join('\n');
  const image = goal ? `<solution type="goal">\n<image>\n${goal.match(new RegExp(`.{${p.width}}`, 'g'))!.map((r) => `|${r.replace(/1/g, 'X').replace(/0/g, '.')}|`).join('\n')}\n</image>\n</solution>\n` : '';
  return `<puzzle type="grid" defaultcolor="black">\n<title>${title}</title>\n<color name="white" char=".">fff</color>\n<color name="black" char="X">000</color>\n<clues type="columns">\n${lines(p.columns)}\n</clues>\n<clues type="rows">\n${lines(p.rows)}\n</clues>\n${image}</puzzle>\n`;
}
const pbnSet = (...puzzles: string[]) => `<?xml version="1.0"?>\n<!DOCTYPE pbn SYSTEM "https://webpbn.com/pbn-0.3.dtd">\n<puzzleset>\n${puzzles.join('')}</puzzleset>\n`;

describe('nonogram readers', () => {
  it('comments and blank lines alone are no puzzle, whatever the extension', () => {
    for (const file of ['c.txt', 'c.non', 'c.nin', 'c.json', 'c.tsv']) expect(parse('# a comment\r\n\n  # another\n', file), file).toEqual([]);
    expect(parse('', 'e.non')).toEqual([]);
  });

  it('.non with goal, unknown keys ignored, CRLF', () => {
    const text = formatNon({ ...dancer, title: 'Dancer' }, dancerGoal).replace('width', 'by "someone"\ncolor a #000000\nwidth').replace(/\n/g, '\r\n');
    const [r] = parse(text, 'dancer.non');
    expect(r.error).toBeUndefined();
    expect(r.puzzle!.rows).toEqual(dancer.rows);
    expect(r.puzzle!.columns).toEqual(dancer.columns);
    expect(r.expected).toBe(dancerGoal);
    expect(verify(r.puzzle!, r.expected!)).toBe(true);
  });

  it('.nonpack bundles; blank and 0 lines are empty lines', () => {
    const p1 = 'width 2\nheight 2\nrows\n1\n0\ncolumns\n1\n\n';
    const text = `${p1}====\n${p1.replace('rows\n1\n0', 'rows\n\n1').replace('columns\n1\n', 'columns\n\n1')}`;
    const recs = parse(text, 'x.nonpack');
    expect(recs.map((r) => r.error)).toEqual([undefined, undefined]);
    expect(recs[0].puzzle!.rows).toEqual([[1], []]);
    expect(recs[1].puzzle!.rows).toEqual([[], [1]]);
    expect(recs[1].line).toBe(10);
    // a part of comments alone (a pack's header, a closing note) is no puzzle: it was a record 'missing width'
    const noted = parse(`# a pack of two\n====\n${p1}====\n${p1}====\n# the end\n`, 'x.nonpack');
    expect(noted.map((r) => [r.line, r.error])).toEqual([[3, undefined], [12, undefined]]);
  });

  it('.nin, tournament, game id, .tsv and JSON give the same puzzle', () => {
    const nin = `5 10\n${dancer.rows.map((r) => r.join(' ')).join('\n')}\n${dancer.columns.map((r) => r.join(' ')).join('\n')}\n`;
    const tour = formatTournament(7, dancer).replace(/\n/g, '\r\n');
    const gameid = formatGameId(dancer);
    const tsv = `game_id\tw\th\tcol_clues\trow_clues\tsolution\tgen_seconds\n${gameid}\t5\t10\tx\tx\t${dancerGoal}\t0.1\n`;
    const json = JSON.stringify({ rows: dancer.rows, columns: dancer.columns });
    for (const [text, file] of [
      [nin, 'a.nin'],
      [gameid, 'a.txt'],
      [tsv, 'a.tsv'],
      [json, 'a.json'],
    ]) {
      const [r] = parse(text, file);
      expect(r.error, file).toBeUndefined();
      expect(r.puzzle!.rows, file).toEqual(dancer.rows);
      expect(r.puzzle!.columns, file).toEqual(dancer.columns);
    }
    // the tournament format is square: a 5x10 is not one, but its reader takes any N x N
    const sq: Nonogram = { width: 3, height: 3, rows: [[3], [], [1, 1]], columns: [[1, 1], [1], [1, 1]] };
    const [t] = parse(formatTournament(4, sq), 'q.txt');
    expect(t.form).toBe('tournament');
    expect(t.puzzle!.rows).toEqual(sq.rows);
    expect(t.puzzle!.columns).toEqual(sq.columns);
    expect(parse(tour, 'q.txt')[0].error).toMatch(/q.txt:1:1: expected 2N clue lines/);
    const [tj] = parse(tsv, 'a.tsv');
    expect(tj.expected).toBe(dancerGoal);
  });

  it('webpbn XML: a puzzle set, titles with entities, empty <line/>s, the goal image as the expected solution, found by its content too', () => {
    const empty: Nonogram = { width: 2, height: 2, rows: [[], [2]], columns: [[1], [1]] };
    const text = pbnSet(pbnPuzzle(dancer, dancerGoal, 'Dancer &amp; friend'), '<!-- a comment -->\n', pbnPuzzle(empty, '0011', 'Floor'));
    for (const file of ['set.xml', 'set.pbn', 'set.txt']) {
      const recs = parse(text, file);
      expect(recs.map((r) => r.error ?? [r.form, r.line, r.puzzle!.title, r.expected])).toEqual([
        ['xml', 4, 'Dancer & friend', dancerGoal],
        ['xml', 43, 'Floor', '0011'],
      ]);
      expect(recs[0].puzzle).toMatchObject({ width: 5, height: 10, rows: dancer.rows, columns: dancer.columns });
      expect(recs[1].puzzle).toMatchObject(empty);
      expect(verify(recs[0].puzzle!, dancerGoal)).toBe(true);
    }
    // no solution image: no expected solution; --format xml reads any name
    expect(parse(pbnSet(pbnPuzzle(dancer)), 'x', { format: 'xml' })[0]).toMatchObject({ form: 'xml', expected: undefined });
  });

  it('webpbn XML out: a puzzle with its goal reads back as itself, its title escaped', () => {
    const titled = { ...dancer, title: 'a <b> & "c"' };
    const text = XML_SET.head + formatXmlPuzzle(titled, dancerGoal) + formatXmlPuzzle({ width: 2, height: 1, rows: [[]], columns: [[], []] }) + XML_SET.tail;
    const recs = parse(text, 'out.xml');
    expect(recs.map((r) => r.error ?? [r.puzzle!.title, r.puzzle!.rows, r.expected])).toEqual([
      ['a <b> & "c"', dancer.rows, dancerGoal],
      [undefined, [[]], undefined],
    ]);
  });

  it('JSON arrays and JSON lines, with the line of each puzzle', () => {
    const one = { rows: [[1], []], columns: [[1], []] };
    const arr = parse(`[\n ${JSON.stringify(one)},\n ${JSON.stringify(one)}\n]`, 'a.json');
    expect(arr.map((r) => r.line)).toEqual([2, 3]);
    const lines = parse(`${JSON.stringify(one)}\n${JSON.stringify({ ...one, rows: [[2], []] })}\n`, 'a.jsonl');
    expect(lines[0].error).toBeUndefined();
    expect(lines[1].error).toMatch(/a.jsonl:2:1: row 1: clue 2 needs 2 cells but the row has 2|a.jsonl:2:1: the row clues fill 2/);
  });

  it('STPPC clue squares (the optional run-length suffix)', () => {
    // 2x2 with the top-left square given full and the bottom-left given empty: 'A' = no unknown square, then a
    // full one; 'b' = one unknown, then an empty one; the last 'b' = one unknown square to the end
    const [r] = parse('2x2:1/1/1/1,Abb', 'g.txt');
    expect(r.error).toBeUndefined();
    expect(Array.from(r.puzzle!.givens!)).toEqual([1, 0, 2, 0]);
    expect(parse('2x2:1/1/1/1,Abbz', 'g.txt')[0].error).toMatch(/g.txt:1:16: too much data/);
    expect(parse('2x2:1/1/1/1,Ab', 'g.txt')[0].error).toMatch(/g.txt:1:15: too little data/);
  });

  it('a picture whose rows all start with a filled cell is a picture, not comments; comments may sit among .non clues', () => {
    const [pic] = parse('##\n#.\n', 'p.txt');
    expect([pic.form, pic.expected, pic.puzzle?.rows]).toEqual(['grid', '1110', [[2], [1]]]);
    const [non] = parse('width 2\nheight 1\nrows\n# the only row\n2\ncolumns\n1\n# between\n1\n', 'c.non');
    expect(non.puzzle).toEqual({ width: 2, height: 1, rows: [[2]], columns: [[1], [1]], title: undefined });
  });

  it('a PNG of ours names its cells, so a picture of larger blocks or of one colour reads back as drawn', () => {
    // ##.. / ##.. / ..## / ..## drawn 42 pixels a cell is also a 2x2 drawn 84 a cell; an empty 3x3 is a 1x1
    for (const [solution, w] of [['1100110000110011', 4], ['000000000', 3], ['1', 1]] as const) {
      const [rec] = parseNonograms(solutionPng(solution, w, w, 42), 'p.png');
      expect([rec.puzzle?.width, rec.expected], solution).toEqual([w, solution]);
    }
    // without the chunk (another program's picture), blocks are found from the colour edges
    const plain = readPngPicture(solutionPng('1100110000110011', 4, 4, 42));
    expect(blockSide(plain)).toBe(84);
  });

  it('pictures: # / . grids and PNG', () => {
    const [g] = parse('#.#\n###\n', 'p.txt', { format: 'grid' });
    expect(g.puzzle!.rows).toEqual([[1, 1], [3]]);
    expect(g.puzzle!.columns).toEqual([[2], [1], [2]]);
    expect(g.expected).toBe('101111');
    const png = solutionPng(dancerGoal, 5, 10, 1);
    const pic = readPngPicture(png);
    expect(Array.from(pic.cells).join('')).toBe(dancerGoal);
    const [r] = parseNonograms(png, 'd.png');
    expect(r.puzzle!.columns).toEqual(dancer.columns);
  });

  it('pictures scaled up are found out, and any picture resamples to fewer cells', () => {
    const dancerPic = readPngPicture(solutionPng(dancerGoal, 5, 10, 1));
    expect(blockSide(dancerPic)).toBe(1);
    for (const scale of [2, 3, 8]) {
      const big = readPngPicture(solutionPng(dancerGoal, 5, 10, scale));
      expect(blockSide(big), `scale ${scale}`).toBe(scale);
      expect(Array.from(resamplePicture(big, 5, 10).cells).join(''), `scale ${scale}`).toBe(dancerGoal);
    }
    // solving a picture reads it the same way
    const [scaled] = parseNonograms(solutionPng(dancerGoal, 5, 10, 8), 'd.png');
    expect([scaled.puzzle!.width, scaled.puzzle!.height, scaled.expected]).toEqual([5, 10, dancerGoal]);
    // a block with one pixel changed is no block; the change is outvoted when resampling
    const spoiled = readPngPicture(solutionPng(dancerGoal, 5, 10, 4));
    spoiled.cells[4 * 20 + 1] ^= 1;
    expect(blockSide(spoiled)).toBe(1);
    expect(Array.from(resamplePicture(spoiled, 5, 10).cells).join('')).toBe(dancerGoal);
    // a factor that is not whole: each cell weighs the pixels it covers in part
    // (three pixels to two cells: a cell covers one pixel and half of the middle one; half its area or more dark fills it)
    const twoOfThree = (row: number[]) => Array.from(resamplePicture({ width: 3, height: 1, cells: Uint8Array.from(row) }, 2, 1).cells);
    expect(twoOfThree([1, 1, 0])).toEqual([1, 0]);
    expect(twoOfThree([0, 1, 0])).toEqual([0, 0]);
    expect(twoOfThree([1, 0, 1])).toEqual([1, 1]);
  });
});

describe('nonogram clue errors name line and column', () => {
  const cases: [string, string, RegExp][] = [
    ['width 3\nheight 2\nrows\n1,x\n1\ncolumns\n1\n1\n0\n', 'e.non', /e.non:4:3: bad clue token 'x'/],
    ['width 3\nheight 2\nrows\n4\n1\ncolumns\n1\n1\n0\n', 'e.non', /e.non:4:1: row 1: clue 4 needs 4 cells but the row has 3/],
    ['width 3\nheight 2\nrows\n2\n1\ncolumns\n1\n1\n0\n', 'e.non', /e.non:1:1: the row clues fill 3 cells but the column clues fill 2/],
    ['width 3\nheight 2\nrows\n1\ncolumns\n1\n1\n0\n', 'e.non', /e.non:5:1: rows: expected 2 clue lines, found 1 before 'columns'/],
    ['width x\n', 'e.non', /e.non:1:7: width must be a whole number/],
    ['3 2\n1\n1 1 1\n1\n1\n0\n', 'e.nin', /e.nin:3:1: row 2: clue 1 1 1 needs 5 cells but the row has 3/],
    ['3 2\n1\n1\n1\n1\n-1\n', 'e.nin', /e.nin:6:1: bad clue token '-1'/],
    ['3 2\n1\n1 0\n1\n1\n0\n', 'e.nin', /e.nin:3:3: clue 0 in a list of several clues/],
    ['$1\n1\t1\n1\n2\n1\n', 'e.txt', /e.txt:2:1: column 1: clue 1 1 needs 3 cells but the column has 2/],
    ['$1\n1\t1\n1\n3\n1\n', 'e.txt', /e.txt:4:1: row 1: clue 3 needs 3 cells but the row has 2/],
    ['3x2:1/1/1/1.a/1', 'e.txt', /e.txt:1:13: bad clue token 'a'/],
    ['3x2:1/1/1/1', 'e.txt', /e.txt:1:5: a 3x2 game id needs 5 clue lists, found 4/],
    ['3x2:1/1/1/4/1', 'e.txt', /e.txt:1:11: row 1: clue 4 needs 4 cells but the row has 3/],
    ['{"rows": [[1]], "columns": [[1], [x]]}', 'e.json', /e.json:1:35: bad JSON: Unexpected token 'x'$/],
    ['{\n  "rows": [[1]],\n  "columns": [[1] [0]]\n}', 'e.json', /e.json:3:19: bad JSON: Expected ',' or ']'/],
    ['[\n {"rows": [[1]], "columns": [[1], [0]]},\n]', 'e.json', /e.json:3:1: bad JSON/],
    ['\n{"rows": [[1]], "columns": [[1], [0,]]}\n{"rows": [[1]], "columns": [[1], [0]]}\n', 'e.jsonl', /e.jsonl:2:37: bad JSON/],
    ['{"rows": [[1]], "columns": [[1], ["2"]]}', 'e.json', /e.json:1:34: "columns"\[1\]: bad clue/],
    ['{\n  "rows": [[1], [3]],\n  "columns": [[1], [1]]\n}', 'e.json', /e.json:2:17: row 2: clue 3 needs 3 cells but the row has 2/],
    ['[{"rows": [[1]], "columns": [[1]]},\n {"rows": [[1], []], "cols": [[1], [2]]}]', 'e.json', /e.json:2:2: the row clues fill 1 cells but the column clues fill 3/],
    ['{"rows": [[1]], "columns": [[1], []], "goal": "100"}', 'e.json', /e.json:1:47: goal has 3 cells, the grid 2x1 has 2/],
    ['{"rows": [[1]], "columns": {"0": [1]}}', 'e.json', /e.json:1:28: "columns" must be a list of clue lists/],
    ['{"rows": [[1]], "columns": [[1]], "goal": 1}', 'e.json', /e.json:1:43: "goal" must be a string of 0s and 1s/],
    // mistakes a lenient reader used to hide
    ['{"rows": [[1]], "columns": [[1]], "width": "1"}', 'e.json', /e.json:1:44: "width" must be a whole number, got "1"/],
    ['width 3\nheight 1\nrows\n1,,1\ncolumns\n1\n0\n1\n', 'e.non', /e.non:4:2: an empty clue between commas/],
    ['width 1\nheight 1\nrows\n1\ncolumns\n1\nrows\n0\n', 'e.non', /e.non:7:1: a second 'rows' block \(the first is at line 4\)/],
    ['width 99999999999999999999\n', 'e.non', /e.non:1:7: width 9999999999999999999\d* is larger than any puzzle/],
    ['3 2\n100000000000000000000000\n1\n1\n1\n0\n', 'e.nin', /e.nin:2:1: clue 100000000000000000000000 is larger than any line/],
    ['3 2\n1\n' + '1 '.repeat(100_000) + '\n1\n1\n0\n', 'e.nin', /e.nin:3:1: row 2: clue (1 ){20}\.\.\. needs 199999 cells but the row has 3$/],
    // a tournament file that lost its first header, and a file no reader claims
    ['1\t1\n1\n$2\n1\n1\n', 'e.txt', /e.txt:1:1: a clue line before any '\$k' header/],
    ['hello world\n', 'e.txt', /e.txt:1:1: cannot tell the nonogram format from the name or from 'hello world'/],
  ];
  for (const [text, file, want] of cases) {
    it(`${file}: ${want.source.slice(0, 60)}`, () => {
      const recs = parse(text, file);
      const bad = recs.find((r) => r.error) ?? recs[0];
      expect(bad?.error).toMatch(want);
      expect(bad.puzzle).toBeUndefined();
    });
  }

  it('a JSON syntax error is placed where JSON.parse places it, also where its message names no position', () => {
    // V8 names a position for some errors only; jsonErrorOffset must agree with it wherever it does
    const base = JSON.stringify({ rows: [[3, 1], [2], []], columns: [[1], [2, 2]], title: 'a"b\\u00e9', x: -1.5e3, t: true, n: null });
    const alphabet = '{}[]",:0123456789-+.eE tfnul\\ab\n';
    const rand = rng(606);
    let positioned = 0;
    for (let t = 0; t < 20_000; t++) {
      const a = base.split('');
      for (let k = 1 + rand(3); k > 0; k--) {
        const at = rand(a.length);
        const c = alphabet[rand(alphabet.length)];
        const op = rand(3);
        if (op === 0) a.splice(at, 1);
        else if (op === 1) a.splice(at, 0, c);
        else a[at] = c;
      }
      const text = a.join('');
      let message: string | undefined;
      try {
        JSON.parse(text);
      } catch (e) {
        message = (e as Error).message;
      }
      const offset = jsonErrorOffset(text);
      const named = message && /position (\d+)/.exec(message);
      if (message === undefined) expect(offset, text).toBe(text.length);
      else if (named) {
        positioned++;
        expect(offset, text).toBe(Number(named[1]));
      } else if (/end of JSON input/.test(message)) expect(offset, text).toBe(text.length);
      else expect(offset, text).toBeLessThan(text.length);
    }
    expect(positioned).toBeGreaterThan(5_000);
  });

  it('comment lines are skipped in JSON too, places kept', () => {
    const [ok] = parse('# a puzzle\n{"rows": [[1]], "columns": [[1]]}\n', 'c.json');
    expect([ok.line, ok.puzzle?.rows]).toEqual([2, [[1]]]);
    const [bad] = parse('# a puzzle\n{"rows": [[1]], "columns": [[x]]}\n', 'c.json');
    expect(bad.error).toMatch(/^c\.json:2:30: bad JSON/);
  });

  it('an error record says where its puzzle starts; the message names the bad spot', () => {
    const [bad] = parse('title "t"\nwidth 2\nheight 1\nrows\n1\ncolumns\n1\n1,x\n', 'e.non');
    expect(bad.error).toMatch(/^e.non:8:3: bad clue token 'x'/);
    expect(bad.line).toBe(1);
  });

  it('webpbn XML errors name line and column; a bad puzzle does not stop the next one', () => {
    const one = (text: string) => parse(text, 'p.xml').map((r) => r.error ?? 'ok');
    const good = pbnPuzzle(dancer, dancerGoal);
    expect(one(pbnSet(good.replace('<count>7</count>', '<count>seven</count>'), good))).toEqual(["p.xml:11:14: a <count> must hold a whole number, got 'seven'", 'ok']);
    expect(one(pbnSet(good.replace('<count>7</count>', '<count color="red">7</count>')))).toEqual(["p.xml:11:7: clues in colours 'black' and 'red': multi-colour puzzles are not supported"]);
    expect(one(pbnSet(good.replace('<count>7</count>', '<count>70</count>')))[0]).toMatch(/^p\.xml:11:1: column 3: clue 70 needs 70 cells but the column has 10$/);
    expect(one(pbnSet(good.replace('</line>', '</lines>')))).toEqual(['p.xml:9:39: </lines> closes <line> (line 9)']);
    expect(one(pbnSet(good.replace('</puzzle>', '')))).toEqual(['p.xml:42:1: </puzzleset> closes <puzzle> (line 4)']);
    expect(one(pbnSet(good.replace(/<clues type="rows">[\s\S]*?<\/clues>/, '')))).toEqual(['p.xml:4:1: missing <clues type="rows">']);
    expect(one(pbnSet(good.replace('|.XX..|', '|.XX.|')))).toEqual(['p.xml:29:1: a solution image row of 4 cells, the grid is 5 wide']);
    expect(one(pbnSet(good.replace('type="grid"', 'type="triddler"')))).toEqual(["p.xml:4:1: a puzzle of type 'triddler' (only type=\"grid\" puzzles are nonograms)"]);
    expect(one('<puzzleset>\n</puzzleset>\n')).toEqual(['p.xml:1:1: no <puzzle> element in this XML']);
    // an error record's line is where its puzzle starts
    expect(parse(pbnSet(good, good.replace('</puzzle>', '')), 'p.xml').map((r) => r.line)).toEqual([4, 42]);
    // a lexical error keeps the puzzles closed before it (and names itself as the last record)
    expect(one(pbnSet(good, good.replace('<title>', '<title>a < b')))).toEqual(['ok', "p.xml:43:10: a '<' that opens no tag (a tag's name and quoted attributes, or &lt; in text)"]);
    expect(one(pbnSet(good, `<!-- ${good}`))).toEqual(['ok', 'p.xml:42:1: a comment that is never closed (no -->)']);
    // a character reference past Unicode stays as written (it crashed the call, exit 3); CDATA reads as text
    const odd = parse(pbnSet(good.replace('<title>Dancer</title>', '<title>&#x110000; <![CDATA[a<b]]></title>')), 'p.xml')[0];
    expect([odd.error, odd.puzzle?.title]).toEqual([undefined, '&#x110000; a<b']);
    // an exporter that names the ink on every count (number-loom: defaultcolor="white", count color="black")
    const named = good.replace('defaultcolor="black"', 'defaultcolor="white"').replace(/<count>/g, '<count color="black">');
    expect(parse(pbnSet(named), 'p.xml').map((r) => r.error ?? r.expected)).toEqual([dancerGoal]);
    // a comment first is still XML by its content
    expect(parse(`<!-- exported -->\n${pbnSet(good)}`, 'p.txt').map((r) => r.error ?? r.form)).toEqual(['xml']);
  });

  it("a multi-line JSON object's record is its first line; a #/. picture under a '# ...' comment is a picture", () => {
    const pretty = `[\n  {\n    "rows": [[1], [1]],\n    "columns": [[2], []]\n  },\n  {\n    "rows": [[1], [3]],\n    "columns": [[1], [1]]\n  }\n]\n`;
    expect(parse(pretty, 'p.json').map((r) => [r.line, r.error])).toEqual([
      [2, undefined],
      [6, 'p.json:7:19: row 2: clue 3 needs 3 cells but the row has 2'],
    ]);
    const frame = parse('# a frame\n#####\n#...#\n#####\n', 'frame.txt');
    expect(frame.map((r) => [r.form, r.puzzle?.width, r.puzzle?.height])).toEqual([['grid', 5, 3]]);
    // a .nin under a '#####' banner stays a .nin
    expect(parse(`#####\n5 10\n${dancer.rows.map((r) => r.join(' ')).join('\n')}\n${dancer.columns.map((r) => r.join(' ')).join('\n')}\n`, 'b.txt')[0].form).toBe('nin');
  });

  it('.non: a record starts at its first key, not a comment above it; a title of several lines is written on one', () => {
    expect(parse(`# a pack\n${formatNon(dancer)}`, 'c.non')[0].line).toBe(2);
    const titled = formatNon({ ...dancer, title: 'two\n lines "quoted"' });
    expect(titled.split('\n')[0]).toBe('title "two lines "quoted""');
    expect(parse(titled, 't.non')[0].puzzle?.title).toBe('two lines "quoted"');
  });

  it('a bad record does not stop the next one', () => {
    const recs = parse('2x1:1/1/2\n2x1:1/1/3\n2x1:1/1/1.1\n', 'ids.txt');
    expect(recs.map((r) => !!r.error)).toEqual([false, true, true]);
    expect(recs.map((r) => r.line)).toEqual([1, 2, 3]);
  });
});

describe('nonogram writers', () => {
  it('the .non answers of several puzzles read back puzzle by puzzle, `====` between them; one stays a plain .non', () => {
    const two: Nonogram = { width: 2, height: 2, rows: [[1], [1]], columns: [[1], [1]] };
    const answers: [Nonogram, SolveResult][] = [
      [dancer, { status: 'solved', generations: 3, solution: dancerGoal, ms: 1 }],
      [two, { status: 'multiple', generations: 0, solution: '1001', solution2: '0110', ms: 1 }],
      [two, { status: 'unsolved', reason: 'stalled', generations: 1, extra: { partial: '????' }, ms: 1 }],
      [{ width: 2, height: 2, rows: [[2], []], columns: [[2], []] }, { status: 'contradiction', generations: 1, ms: 1 }],
    ];
    const text = answers.map(([p, r], i) => nonogram.format({ file: 'in.non', line: 1 + i, form: 'non', puzzle: p }, r, undefined, i)).join('');
    const back = parse(text, 'out.non');
    // the records were joined with nothing between them: one record, "a second 'rows' block"
    expect(back.map((r) => r.error)).toEqual([undefined, undefined, undefined, undefined]);
    expect(back.map((r) => r.puzzle!.rows)).toEqual(answers.map(([p]) => p.rows));
    expect(back.map((r) => r.expected)).toEqual([dancerGoal, '1001', undefined, undefined]);
    expect(text).toContain('# in.non:2: multiple solutions, the goal below and\n# goal "0110"\n');
    expect(text).toContain('# in.non:3: unsolved (stalled)\n# ??\n# ??\n');
    // a grid input written to --out x.non takes the .non form too
    const one = nonogram.format({ file: 'in.txt', line: 1, form: 'grid', puzzle: dancer }, answers[0][1], 'x.non', 0);
    expect(one).not.toContain('====');
    expect(parse(one, 'x.non').map((r) => r.expected)).toEqual([dancerGoal]);
  });

  it('grid text, .non and tournament solution round trips', () => {
    expect(formatGrid('0110', 2)).toBe('.#\n#.\n');
    const [again] = parse(formatNon(dancer, dancerGoal), 'x.non');
    expect(again.expected).toBe(dancerGoal);
    const sol = parseTournamentSolutions(formatTournamentSolution('$3', dancerGoal, 5));
    expect(sol.get(3)).toBe(dancerGoal);
    const [pic] = parse(formatGrid(dancerGoal, 5), 'x.txt', { format: 'grid' });
    expect(pic.puzzle!.rows).toEqual(dancer.rows);
  });
});

describe('nonogram fuzz: readers never throw; what they accept is consistent', () => {
  let seed = 12345;
  const rnd = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
  const alphabet = ['0', '1', '2', '3', '9', '10', ' ', '\t', ',', '.', '/', '\n', '\r\n', '$', 'x', 'width ', 'height ', 'rows\n', 'columns\n', '#', '-', '"', '{', '}', '[', ']', ':', 'goal "', '<', '>', '</line>', '<line/>', '<count>', '</count>', '|X', '&amp;', '<!--'];
  const seeds = [
    formatNon(dancer, dancerGoal),
    formatTournament(1, dancer),
    formatGameId(dancer),
    `5 10\n${dancer.rows.map((r) => r.join(' ')).join('\n')}\n${dancer.columns.map((r) => r.join(' ')).join('\n')}\n`,
    JSON.stringify({ rows: dancer.rows, columns: dancer.columns }),
    pbnSet(pbnPuzzle(dancer, dancerGoal), pbnPuzzle(dancer)),
  ];
  const files = ['f.non', 'f.nin', 'f.txt', 'f.tsv', 'f.json', 'f.xml'];
  it('10,000 mutated inputs', () => {
    for (let t = 0; t < 10_000; t++) {
      let text = seeds[rnd(seeds.length)];
      const edits = 1 + rnd(4);
      for (let e = 0; e < edits; e++) {
        const at = rnd(text.length + 1);
        const del = rnd(3);
        text = text.slice(0, at) + (rnd(2) ? alphabet[rnd(alphabet.length)] : '') + text.slice(at + del);
      }
      const file = files[rnd(files.length)];
      const recs = parse(text, file);
      for (const r of recs) {
        if (r.error) {
          expect(r.error).toMatch(new RegExp(`^${file.replace('.', '\\.')}:\\d+:\\d+: `));
          continue;
        }
        const p = r.puzzle!;
        expect(p.rows.length).toBe(p.height);
        expect(p.columns.length).toBe(p.width);
        // accepted clues fit their lines and both directions fill the same number of cells
        const fill = (c: number[][]) => c.flat().reduce((a, b) => a + b, 0);
        expect(fill(p.rows)).toBe(fill(p.columns));
        for (const c of p.rows) expect(c.reduce((a, b) => a + b, 0) + Math.max(0, c.length - 1)).toBeLessThanOrEqual(p.width);
        for (const c of p.columns) expect(c.reduce((a, b) => a + b, 0) + Math.max(0, c.length - 1)).toBeLessThanOrEqual(p.height);
        expect([...p.rows, ...p.columns].flat().every((n) => Number.isInteger(n) && n > 0)).toBe(true);
      }
    }
  });
});

// The real collections (../shared/data/nonogram): skipped cleanly when ../shared is absent.
const data = new URL('../../shared/data/nonogram/', import.meta.url).pathname;
describe.runIf(existsSync(data))('nonogram collections read without errors', () => {
  const walk = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(`${d}/${e.name}`) : [`${d}/${e.name}`]));
  it('mikix .non (39, with goals), jwilk .nin (151), STPPC .tsv (500), TAAI 2011 (1,000, with solutions)', () => {
    const read = (f: string, o = {}) => parseNonograms(readFileSync(f), f, o);
    const mikix = walk(`${data}mikix-nonogram-db/db`).filter((f) => f.endsWith('.non')).flatMap((f) => read(f));
    const jwilk = walk(`${data}jwilk-nonogram/data`).filter((f) => f.endsWith('.nin')).flatMap((f) => read(f));
    const sgt = walk(`${data}sgt`).filter((f) => f.endsWith('.tsv')).flatMap((f) => read(f));
    const taai = read(`${data}tournament/question/taai2011.txt`, { solutions: `${data}tournament/solution/taai2011.txt` });
    for (const [name, recs, n] of [
      ['mikix', mikix, 39],
      ['jwilk', jwilk, 151],
      ['sgt', sgt, 500],
      ['taai', taai, 1000],
    ] as const) {
      expect(recs.length, name).toBe(n);
      expect(recs.filter((r) => r.error).map((r) => r.error), name).toEqual([]);
    }
    // given solutions satisfy the clues as we read them (orientation of rows and columns is right)
    for (const r of [...mikix, ...sgt, ...taai]) expect(verify(r.puzzle!, r.expected!), `${r.file}:${r.line}`).toBe(true);
    expect(taai[999].puzzle!.width).toBe(25);
    // a picture's clues are the clues the picture was made from
    const r = sgt[0];
    expect(cluesOf(Array.from(r.expected!, Number), r.puzzle!.width, r.puzzle!.height)).toEqual({ rows: r.puzzle!.rows, columns: r.puzzle!.columns });
  });
});
