// Sudoku text formats in and out. Read: one puzzle per line (n*n symbols, '.' or '0' blank, '#' comments, a
// leading count line as in the code-golf set), grids drawn over n lines (below), STPPC Solo game ids (`3x3:...`,
// `2x3:...`, jigsaw `9j:...,blocks`, X `3x3x:...`), STPPC .tsv files (a `game_id` column) and puzz.link URLs
// (`https://puzz.link/p?sudoku/9/9/...`).
// Write: the answer in the form it came in. Errors name file:line:column and never throw.
import type { PuzzleRecord, SolveResult } from '../types.ts';
import { defaultBox, gridString, shapeError, symbolOf, valueOf, type SudokuIo, type SudokuPuzzle } from './reference.ts';

export interface ParseOptions {
  /** `--box WxH`: boxes W cells wide and H tall (line form) */
  box?: string;
  /** `--diagonal`: X-sudoku (line form) */
  diagonal?: boolean;
  /** `--format`: read every puzzle in this form instead of telling each one's from its text */
  format?: SudokuIo['form'];
}

/** The forms `--format` can force. */
export const SUDOKU_FORMS: SudokuIo['form'][] = ['line', 'grid', 'gameid', 'url', 'tsv'];

class ParseError extends Error {
  constructor(
    message: string,
    readonly col: number,
    /** the line it is on, when not the record's first (a grid's row) */
    readonly line?: number,
    /** the line the next record starts at, when the error took several lines (a grid) */
    readonly resumeAt?: number,
  ) {
    super(message);
  }
}

export function parseOptions(options: Record<string, string | boolean>): ParseOptions {
  return {
    box: typeof options.box === 'string' ? options.box : undefined,
    diagonal: options.diagonal === true || options.diagonal === 'true' || options.x === true,
    format: typeof options.format === 'string' ? (options.format as SudokuIo['form']) : undefined,
  };
}

export function parseSudoku(input: Uint8Array | string, file: string, options: Record<string, string | boolean> = {}): PuzzleRecord<SudokuPuzzle>[] {
  const text = typeof input === 'string' ? input : new TextDecoder().decode(input);
  const opts = parseOptions(options);
  const lines = text.split('\n');
  const out: PuzzleRecord<SudokuPuzzle>[] = [];
  let tsvColumns: { gameId: number; solution: number } | null = null;
  let sawPuzzleLine = false;
  const forced = opts.format;
  // lines left of a run of plain rows that reads as grids (a run of L-cell lines, L of them or more)
  let gridRunLeft = 0;
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const raw = lines[i].replace(/\r$/, '');
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) {
      gridRunLeft = 0;
      continue;
    }
    const lead = col0Of(raw);
    // a table header (STPPC .tsv): columns by name
    if ((forced === undefined || forced === 'tsv') && raw.includes('\t') && /(^|\t)game_id(\t|$)/.test(raw)) {
      const cols = raw.split('\t').map((s) => s.trim());
      tsvColumns = {
        gameId: cols.indexOf('game_id'),
        solution: cols.indexOf('solution'),
      };
      continue;
    }
    // the code-golf set starts with the number of puzzles (a file of one line `1` is a solved 1x1 puzzle instead)
    // (nor is the first row of a grid of digits: a 4x4's `1000` has rows of its length after it)
    if ((forced === undefined || forced === 'line') && !sawPuzzleLine && /^\d{1,7}$/.test(line) && (forced === 'line' || plainRun(lines, i) < 2) && lines.slice(i + 1).some((l) => l.trim() !== '' && !l.trim().startsWith('#'))) {
      sawPuzzleLine = true;
      continue;
    }
    sawPuzzleLine = true;
    const rec: PuzzleRecord<SudokuPuzzle> = { file, line: lineNo };
    try {
      const form = forced ?? detectForm(lines, i, gridRunLeft, tsvColumns !== null);
      if (form === 'grid') {
        if (gridRunLeft === 0) gridRunLeft = plainRun(lines, i);
        const g = readGrid(lines, i, opts);
        gridRunLeft = Math.max(0, gridRunLeft - (g.end - i));
        i = g.end - 1;
        rec.puzzle = g.puzzle;
        rec.form = 'grid';
      } else if (form === 'tsv') {
        const fields = raw.split('\t');
        const gi = tsvColumns?.gameId ?? 0;
        const si = tsvColumns?.solution ?? (fields.length > 3 ? 3 : -1);
        const col = fields.slice(0, gi).reduce((n, f) => n + f.length + 1, 0);
        if (fields.length < 2) throw new ParseError('a .tsv row needs tab-separated columns with a game id', col0Of(raw));
        const p = parseGameId(fields[gi].trim(), col);
        p.io = { form: 'tsv', fields, solutionColumn: si, gameIdColumn: gi, blockSpec: p.io?.blockSpec };
        rec.puzzle = p;
        rec.form = 'tsv';
        if (si >= 0 && fields[si]) rec.expected = fields[si].trim();
      } else if (form === 'url') {
        rec.puzzle = parseUrl(line, lead);
        rec.form = 'url';
      } else if (form === 'gameid') {
        rec.puzzle = parseGameId(line, lead);
        rec.form = 'gameid';
      } else {
        rec.puzzle = parseLine(line, lead, opts);
        rec.form = 'line';
      }
    } catch (e) {
      if (!(e instanceof ParseError)) throw e;
      rec.error = `${file}:${e.line ?? lineNo}:${e.col + 1}: ${e.message}`;
      delete rec.puzzle;
      // the rest of a grid that failed is part of its error, not puzzles of their own
      if (e.resumeAt !== undefined) {
        gridRunLeft = Math.max(0, gridRunLeft - (e.resumeAt - i));
        i = e.resumeAt - 1;
      }
    }
    out.push(rec);
  }
  return out;
}

const col0Of = (raw: string) => raw.length - raw.trimStart().length;

/**
 * The form of the puzzle that starts at line i, from its text (gridRunLeft: a run of plain grid rows goes on; tsv:
 * a table header was seen). Tabs make a .tsv row only in a table or beside a game id: elsewhere they are spaces.
 */
function detectForm(lines: string[], i: number, gridRunLeft: number, tsv: boolean): SudokuIo['form'] {
  const raw = lines[i].replace(/\r$/, '');
  const line = raw.trim();
  if (raw.includes('\t') && (tsv || raw.split('\t').some((f) => GAME_ID.test(f.trim())))) return 'tsv';
  if (/^(https?:\/\/|puzz\.link|pzv\.jp|p\?sudoku)/i.test(line) || line.includes('?sudoku/')) return 'url';
  if (GAME_ID.test(line)) return 'gameid';
  if (gridRunLeft > 0 || isTitle(line) || isRule(line) || isDrawnRow(line) || titleAbove(lines, i)) return 'grid';
  return plainGridAt(lines, i) ? 'grid' : 'line';
}

const GAME_ID = /^\d+(x\d+)?[a-z0-9]*:/;

// ---- grids over several lines -----------------------------------------------------------------------------------
// A puzzle drawn as n rows of n cells: plain (`003020600`), spaced (`0 0 3 0 2 0 6 0 0`), with bars between boxes and
// rule lines between bands (`5 3 . | . 7 . | . . .`, `------+-------+------`, as Norvig prints them; SimpleSudoku's
// `---!---!---`; a frame of `+---+` lines and `|` at both ends; Unicode box drawing), or with two-digit numbers for n
// past 9 (`10 . 3 16 ...`), under an optional title line (`Grid 01`, as Project Euler's sudoku.txt has). Blanks are
// `.`, `0` or `_`; tabs count as spaces. The bars and rules give the box shape (a 6x6 drawn with boxes 2 wide and 3
// tall is not the default 3x2); output keeps the drawing's style. `--format line` reads plain rows one per line.

/** the largest n (a cell's candidates are one u32, and the symbols 1-9A-Z name 35 values) */
const MAX_N = 32;
const PLAIN_ROW = /^[0-9A-Za-z._]+$/;
/** a bar between boxes: ASCII, SimpleSudoku's `!`, box drawing's verticals */
const BAR = /[|!\u2502\u2503\u2551]/;
/** what may stand between a row's cells: spaces, bars and any box-drawing character */
const SEPARATOR = /[\s|!\u2500-\u257f]/;
const CELL = /[0-9A-Za-z._]/;
const isTitle = (line: string) => /^(grid|puzzle|sudoku|board|game)\b[^|]{0,60}$/i.test(line) && !PLAIN_ROW.test(line);
/** A title of another wording (`Easy 1`, `Hard`): a short line with a word in it, not a row, right above a grid. */
function titleAbove(lines: string[], i: number): boolean {
  const line = lines[i].trim();
  if (line.length > 60 || !/[A-Za-z]{2}/.test(line) || BAR.test(line) || isRule(line) || isDrawnRow(line) || plainRun(lines, i) >= 2) return false;
  const next = lines[i + 1]?.trim() ?? '';
  return isRule(next) || isDrawnRow(next) || plainGridAt(lines, i + 1);
}
/** a line of rules between bands (or a frame): no cells, three or more horizontal strokes */
const isRule = (line: string) => /^[-=+*!|\s\u2500-\u257f]+$/.test(line) && (line.match(/[-=\u2500\u2501\u2550]/g)?.length ?? 0) >= 3;
/** a row with bars, with its cells apart (single symbols or numbers of up to two digits), or in groups of equal
 * length apart (`003 020 600`: a box's cells together) */
const isDrawnRow = (line: string) =>
  /^[0-9A-Za-z._|!\s\u2500-\u257f]+$/.test(line) &&
  CELL.test(line) &&
  (BAR.test(line) || /^(\d{1,2}|[0-9A-Za-z._])([\s\u2500-\u257f]+(\d{1,2}|[0-9A-Za-z._])){2,}$/.test(line) || isGroupedRow(line));
function isGroupedRow(line: string): boolean {
  const tokens = line.split(/\s+/);
  return tokens.length >= 2 && tokens.every((t) => PLAIN_ROW.test(t) && t.length === tokens[0].length) && tokens[0].length >= 2 && tokens.length * tokens[0].length <= MAX_N;
}

/**
 * Do plain rows start a grid at line i? Lines of L plain cells, two or more, are a grid's rows (one cut short gets an
 * error that says so), except 4x4 sudokus one per line (16 cells): those are a 16x16 grid only when there are 16 of
 * them or more and they hold a symbol past 4 (a file of 4x4 puzzles holds only 1-4 and blanks).
 */
function plainGridAt(lines: string[], i: number): boolean {
  const line = lines[i]?.trim() ?? '';
  if (!PLAIN_ROW.test(line) || line.length < 2 || line.length > MAX_N) return false;
  const run = plainRun(lines, i);
  return run >= 2 && (line.length !== 16 || (run >= 16 && lines.slice(i, i + run).some((l) => /[5-9A-Za-z]/.test(l))));
}

/** How many lines from i on are plain rows of the same length. */
function plainRun(lines: string[], i: number): number {
  const first = lines[i].trim();
  if (!PLAIN_ROW.test(first)) return 0;
  let n = 0;
  while (i + n < lines.length) {
    const l = lines[i + n].trim();
    if (l.length !== first.length || !PLAIN_ROW.test(l)) break;
    n++;
  }
  return n;
}

interface DrawnRow {
  /** each cell's symbol (or number) and its column */
  cells: { text: string; col: number }[];
  spaced: boolean;
  numeric: boolean;
  /** the cells between successive bars (bars at the row's ends make no empty group), or [] with no bars */
  groups: number[];
  /** a bar at both ends */
  edges: boolean;
  /** no bars: its groups are cells together, apart by spaces */
  grouped: boolean;
}

/** The cells of one drawn row: bars and spaces apart; tokens of digits are numbers when any has two digits. */
function drawnRow(raw: string): DrawnRow {
  const tokens: { text: string; col: number }[] = [];
  const groups: number[] = [0];
  const re = /[0-9A-Za-z._]+|[|!\u2502\u2503\u2551]/g;
  for (let m = re.exec(raw); m; m = re.exec(raw)) {
    if (BAR.test(m[0])) groups.push(0);
    else tokens.push({ text: m[0], col: m.index });
  }
  const numeric = tokens.length > 1 && tokens.every((t) => /^(\d{1,2}|\.|_)$/.test(t.text)) && tokens.some((t) => t.text.length === 2);
  const cells = numeric ? tokens : tokens.flatMap((t) => Array.from(t.text, (ch, k) => ({ text: ch, col: t.col + k })));
  // count each group's cells
  let g = 0;
  for (const m of raw.matchAll(/[0-9A-Za-z._]+|[|!\u2502\u2503\u2551]/g)) {
    if (BAR.test(m[0])) g++;
    else groups[g] += numeric ? 1 : m[0].length;
  }
  const trimmed = raw.trim();
  const edges = groups.length > 2 && BAR.test(trimmed[0]) && BAR.test(trimmed[trimmed.length - 1]);
  const spaced = tokens.length > 1 && (numeric || tokens.every((t) => t.text.length === 1));
  // without bars, cells in groups apart (`003 020 600`) draw the boxes as bars would
  const grouped = groups.length === 1 && !spaced && !numeric && tokens.length > 1;
  return {
    cells,
    spaced,
    numeric,
    groups: grouped ? tokens.map((t) => t.text.length) : groups.length > 1 ? groups.filter((n, k) => n > 0 || (k > 0 && k < groups.length - 1)) : [],
    edges,
    grouped,
  };
}

/**
 * The grid that starts at line i (a title, a rule line or its first row): its puzzle and the line after it. Its n is
 * the first row's cell count; rule lines among and around its rows are skipped; it ends after n rows. Its box shape
 * is what its bars and rules draw (`--box` must agree), else the default or `--box`.
 */
function readGrid(lines: string[], i: number, opts: ParseOptions): { puzzle: SudokuPuzzle; end: number } {
  let j = i;
  let title: string | undefined;
  const first = lines[i].trim();
  if (isTitle(first) || titleAbove(lines, i)) {
    title = first;
    j++;
  }
  const rows: { row: DrawnRow; line: number; raw: string }[] = [];
  // rows read when each rule line came (0 before the first row: a frame)
  const rulesAt: number[] = [];
  let n = 0;
  const lastLine = () => (rows.length ? rows[rows.length - 1].line : i + 1);
  // a grid that fails takes its lines with it (up to a blank line, a comment or the next title)
  const failAt = (message: string, line: number, col: number): never => {
    let k = j;
    while (k < lines.length && lines[k].trim() !== '' && !lines[k].trim().startsWith('#') && !isTitle(lines[k].trim())) k++;
    throw new ParseError(message, col, line, Math.max(k, i + 1));
  };
  while (j < lines.length) {
    const raw = lines[j].replace(/\r$/, '');
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || (rows.length > 0 && isTitle(line))) break;
    if (isRule(line)) {
      // a rule after the last row is the frame's bottom; the next grid's top frame starts the next grid
      if (rows.length === n && n > 0 && rulesAt.includes(n)) break;
      rulesAt.push(rows.length);
      j++;
      continue;
    }
    if (rows.length === n && n > 0) break;
    const bad = /[^0-9A-Za-z._|!\s\u2500-\u257f]/.exec(raw);
    if (bad) failAt(`'${bad[0]}' is not a cell of a drawn grid (a symbol, '.', '0' or '_' blank, bars and spaces between)`, j + 1, bad.index);
    const row = drawnRow(raw);
    if (row.cells.length === 0) failAt('a line of bars with no cells in a grid', j + 1, col0Of(raw));
    if (rows.length === 0) {
      n = row.cells.length;
      if (n > MAX_N) failAt(`a ${n}x${n} sudoku is not supported (n <= ${MAX_N})`, j + 1, col0Of(raw));
    } else if (row.cells.length !== n) {
      const col = row.cells.length > n ? row.cells[n].col : raw.length;
      failAt(`a row of ${row.cells.length} cells in a grid of ${n} columns (its first row's)`, j + 1, col);
    }
    rows.push({ row, line: j + 1, raw });
    j++;
  }
  if (rows.length === 0) failAt(title ? `"${title.slice(0, 40)}" is not followed by a grid` : 'a rule line with no grid rows', i + 1, 0);
  if (rows.length < n) failAt(`a grid of ${n} columns needs ${n} rows (${rows.length} here)`, lastLine(), rows[rows.length - 1].raw.length);
  const box = drawnBox(n, rows, rulesAt, opts, failAt);
  const givens = new Uint8Array(n * n);
  let blank: string | undefined;
  let lower: boolean | undefined;
  const hex = !rows.some((x) => x.row.numeric) && isHex(n, rows.flatMap((x) => x.row.cells.map((c) => c.text)));
  rows.forEach(({ row, line }, r) => {
    row.cells.forEach(({ text, col }, c) => {
      if (text === '.' || (!hex && (text === '0' || text === '00')) || text === '_') {
        blank ??= text[0];
        return;
      }
      const v = row.numeric ? Number(text) : valueOf(text, hex);
      if (v < 1 || v > n) throw new ParseError(`'${text}' is not a value of a ${n}x${n} sudoku (${row.numeric ? `1-${n}` : alphabetText(n)}, '.', '0' or '_' blank)`, col, line, j);
      if (v > 9 && !row.numeric) lower ??= text >= 'a';
      givens[r * n + c] = v;
    });
  });
  const style = rows[0].row;
  return {
    puzzle: {
      n,
      boxW: box.boxW,
      boxH: box.boxH,
      diagonal: !!opts.diagonal,
      givens,
      io: {
        form: 'grid',
        blank: blank ?? '.',
        lower: lower ?? false,
        title,
        spaced: style.spaced,
        bars: style.groups.length > 0 && !style.grouped,
        grouped: style.grouped,
        rules: rulesAt.some((k) => k > 0 && k < n),
        numeric: rows.some((x) => x.row.numeric),
        hex,
        edges: style.edges,
        frame: rulesAt.includes(0),
      },
    },
    end: j,
  };
}

/** The box shape a grid's bars and rules draw, checked against n and `--box`; the default where they draw none. */
function drawnBox(n: number, rows: { row: DrawnRow; line: number; raw: string }[], rulesAt: number[], opts: ParseOptions, failAt: (message: string, line: number, col: number) => never): { boxW: number; boxH: number } {
  let boxW: number | undefined;
  const barred = rows.find((r) => r.row.groups.length > 1);
  if (barred) {
    const g = barred.row.groups;
    const what = barred.row.grouped ? 'spaces' : 'bars';
    if (g.some((x) => x !== g[0])) failAt(`${what} part this row into ${g.join(', ')} cells: boxes must be equal`, barred.line, col0Of(barred.raw));
    boxW = g[0];
    // every row drawn so agrees with the first
    const other = rows.find((r) => r.row.groups.length > 1 && r.row.groups.join() !== g.join());
    if (other) failAt(`this row's ${what} part it into ${other.row.groups.join(', ')} cells, line ${barred.line}'s into ${g.join(', ')}`, other.line, col0Of(other.raw));
  }
  let boxH: number | undefined;
  const inner = rulesAt.filter((k) => k > 0 && k < n);
  if (inner.length) {
    const bands = [0, ...inner, n].slice(1).map((k, x) => k - [0, ...inner][x]);
    if (bands.some((x) => x !== bands[0])) failAt(`rule lines part the grid into bands of ${bands.join(', ')} rows: boxes must be equal`, rows[0].line, col0Of(rows[0].raw));
    boxH = bands[0];
  }
  if (boxW === undefined && boxH === undefined) return boxShape(n, opts.box, col0Of(rows[0].raw));
  boxW ??= n / boxH!;
  boxH ??= n / boxW;
  const at = barred ?? rows[0];
  if (!Number.isInteger(boxW) || !Number.isInteger(boxH) || boxW * boxH !== n) failAt(`the drawing's boxes (${boxW} wide, ${boxH} tall) do not tile a ${n}x${n} grid`, at.line, col0Of(at.raw));
  if (opts.box && opts.box !== `${boxW}x${boxH}`) failAt(`--box ${opts.box}, but the drawing's boxes are ${boxW}x${boxH}`, at.line, col0Of(at.raw));
  return { boxW, boxH };
}

/** A grid drawn in the style it came in: its title, then its rows (bars between boxes, rules between bands). */
function drawGrid(p: SudokuPuzzle, values: ArrayLike<number>, io: SudokuIo): string {
  const blank = io.blank ?? '.';
  const symbols = gridString(values, blank, io.lower ?? false, io.hex);
  const width = io.numeric ? String(p.n).length : 1;
  const cell = (i: number) => (io.numeric ? (values[i] ? String(values[i]) : blank) : symbols[i]).padStart(width);
  const sep = io.spaced ? ' ' : '';
  const rows: string[] = [];
  for (let r = 0; r < p.n; r++) {
    const boxes: string[] = [];
    const boxed = io.bars || io.grouped;
    for (let c0 = 0; c0 < p.n; c0 += boxed ? p.boxW : p.n) {
      const cells = Array.from({ length: Math.min(boxed ? p.boxW : p.n, p.n - c0) }, (_, k) => cell(r * p.n + c0 + k));
      boxes.push(cells.join(sep));
    }
    const row = io.grouped ? boxes.join(' ') : boxes.join(`${sep}|${sep}`);
    rows.push(io.edges ? `|${sep}${row}${sep}|` : row);
  }
  const rule = rows[0].replace(/[^|]/g, '-').replace(/\|/g, '+');
  const out: string[] = io.title ? [io.title] : [];
  if (io.frame) out.push(rule);
  rows.forEach((row, r) => {
    if (io.rules && r > 0 && r % p.boxH === 0) out.push(rule);
    out.push(row);
  });
  if (io.frame) out.push(rule);
  return out.join('\n');
}

// ---- one puzzle per line ----------------------------------------------------------------------------------------
function parseLine(line: string, col0: number, opts: ParseOptions): SudokuPuzzle {
  const cells = line.length;
  const n = Math.round(Math.sqrt(cells));
  if (n * n !== cells || n < 1) {
    throw new ParseError(`${cells} characters, expected n*n for an n x n sudoku (81 for 9x9, 256 for 16x16)`, col0 + cells);
  }
  // a cell's candidates are one u32, and the symbols 1-9A-Z name 35 values at most
  if (n > 32) throw new ParseError(`a ${n}x${n} sudoku is not supported (n <= 32)`, col0);
  const box = boxShape(n, opts.box, col0);
  const givens = new Uint8Array(cells);
  let blank: string | undefined;
  let lower: boolean | undefined;
  const hex = isHex(n, Array.from(line));
  for (let i = 0; i < cells; i++) {
    const ch = line[i];
    if (ch === '.' || (ch === '0' && !hex)) {
      blank ??= ch;
      continue;
    }
    const v = valueOf(ch, hex);
    if (v < 1 || v > n) {
      throw new ParseError(`'${ch}' is not a symbol of a ${n}x${n} sudoku (${alphabetText(n)}, '.' or '0' blank)`, col0 + i);
    }
    if (v > 9) lower ??= ch >= 'a';
    givens[i] = v;
  }
  return {
    n,
    boxW: box.boxW,
    boxH: box.boxH,
    diagonal: !!opts.diagonal,
    givens,
    io: { form: 'line', blank: blank ?? '.', lower: lower ?? false, hex },
  };
}

/** A 16x16 in hexadoku's 0-F: it holds both `0` and `.`, so `0` is no blank, and nothing past F. */
const isHex = (n: number, symbols: string[]) => n === 16 && symbols.includes('0') && symbols.includes('.') && !symbols.some((c) => /^[g-z]$/i.test(c));

function alphabetText(n: number): string {
  if (n <= 9) return `1-${n}`;
  return `1-9, A-${symbolOf(n)}`;
}

/** `--box WxH`, or the default shape of an n x n grid; `col` places the error in a line of input. */
export function boxShape(n: number, box: string | undefined, col: number): { boxW: number; boxH: number } {
  if (box) {
    const m = /^(\d+)x(\d+)$/.exec(box);
    if (!m) throw new ParseError(`--box ${box}: expected WxH, e.g. 3x2`, col);
    const b = { boxW: Number(m[1]), boxH: Number(m[2]) };
    if (b.boxW * b.boxH !== n) throw new ParseError(`--box ${box} does not tile a ${n}x${n} grid`, col);
    return b;
  }
  const d = defaultBox(n);
  if (!d) throw new ParseError(`a ${n}x${n} grid has no box shape (n is prime); give --box`, col);
  return d;
}

// ---- STPPC Solo game ids --------------------------------------------------------------------------------------
// params "CxR": C columns and R rows of boxes, so each box is R cells wide and C tall (solo.c's convention:
// "2x3" is boxes 3 wide, 2 tall); "Nj": jigsaw of order N, with ",<block spec>" after the grid; an "x" suffix:
// X-sudoku. Grid: a-z = 1..26 blanks, decimal numbers are clues, '_' separates adjacent numbers.
export function parseGameId(id: string, col0: number): SudokuPuzzle {
  const colon = id.indexOf(':');
  if (colon < 0) throw new ParseError(`a Solo game id needs "params:description"`, col0);
  const params = id.slice(0, colon);
  const m = /^(\d+)(?:x(\d+))?(.*)$/.exec(params);
  if (!m) throw new ParseError(`bad Solo parameters "${params}"`, col0);
  let c = Number(m[1]);
  let r = m[2] !== undefined ? Number(m[2]) : c;
  const flags = m[3];
  let jigsaw = false;
  let diagonal = false;
  for (const f of flags.replace(/d[tbiaeu]/g, '').replace(/m?d?\d|[ra]\d?/g, '')) {
    if (f === 'j') jigsaw = true;
    else if (f === 'x') diagonal = true;
    else if (f === 'k') throw new ParseError('killer sudoku is not supported', col0);
  }
  if (jigsaw) {
    c = m[2] !== undefined ? c * r : c;
    r = 1;
  }
  const n = c * r;
  if (n < 1 || n > 32) throw new ParseError(`a ${n}x${n} sudoku is not supported (n <= 32)`, col0);
  const area = n * n;
  const givens = new Uint8Array(area);
  let i = 0;
  let p = colon + 1;
  while (p < id.length && id[p] !== ',') {
    const ch = id[p];
    if (ch >= 'a' && ch <= 'z') {
      i += ch.charCodeAt(0) - 96;
      p++;
    } else if (ch === '_') {
      p++;
    } else if (ch >= '1' && ch <= '9') {
      let q = p;
      while (q < id.length && id[q] >= '0' && id[q] <= '9') q++;
      const v = Number(id.slice(p, q));
      if (v > n) throw new ParseError(`clue ${v} is larger than ${n}`, col0 + p);
      if (i >= area) throw new ParseError(`too much data for a ${n}x${n} grid`, col0 + p);
      givens[i++] = v;
      p = q;
    } else {
      throw new ParseError(`unexpected '${ch}' in a Solo game description`, col0 + p);
    }
    if (i > area) throw new ParseError(`too much data for a ${n}x${n} grid`, col0 + p - 1);
  }
  if (i < area) throw new ParseError(`not enough data for a ${n}x${n} grid (${i} of ${area} cells)`, col0 + p);
  let regions: Uint8Array | undefined;
  let blockSpec: string | undefined;
  if (jigsaw) {
    if (id[p] !== ',') throw new ParseError('a jigsaw game id needs ",<block structure>" after the grid', col0 + p);
    blockSpec = id.slice(p);
    regions = decodeBlocks(id.slice(p + 1), n, col0 + p + 1);
  } else if (p < id.length) {
    throw new ParseError('unexpected data after the grid', col0 + p);
  }
  const shape = { n, boxW: jigsaw ? n : r, boxH: jigsaw ? 1 : c, regions };
  const err = shapeError(shape);
  if (err) throw new ParseError(err, col0);
  return { ...shape, diagonal, givens, io: { form: 'gameid', blockSpec } };
}

/** solo.c spec_to_dsf: runs of "not an edge" between neighbours, horizontal pairs first, then vertical. */
function decodeBlocks(spec: string, n: number, col0: number): Uint8Array {
  const area = n * n;
  const parent = Int32Array.from({ length: area }, (_, i) => i);
  const find = (a: number): number => (parent[a] === a ? a : (parent[a] = find(parent[a])));
  let pos = 0;
  const edges = 2 * n * (n - 1);
  for (let k = 0; k < spec.length; k++) {
    const ch = spec[k];
    let c: number;
    if (ch === '_') c = 0;
    else if (ch >= 'a' && ch <= 'z') c = ch.charCodeAt(0) - 96;
    else throw new ParseError(`unexpected '${ch}' in a jigsaw block structure`, col0 + k);
    const adv = c !== 26;
    while (c-- > 0) {
      if (pos >= edges) throw new ParseError('too much data in the jigsaw block structure', col0 + k);
      let p0: number;
      let p1: number;
      if (pos < n * (n - 1)) {
        const y = Math.floor(pos / (n - 1));
        const x = pos % (n - 1);
        p0 = y * n + x;
        p1 = p0 + 1;
      } else {
        const x = Math.floor(pos / (n - 1)) - n;
        const y = pos % (n - 1);
        p0 = y * n + x;
        p1 = p0 + n;
      }
      parent[find(p0)] = find(p1);
      pos++;
    }
    if (adv) pos++;
  }
  if (pos !== edges + 1) throw new ParseError('not enough data in the jigsaw block structure', col0 + spec.length);
  const ids = new Map<number, number>();
  const regions = new Uint8Array(area);
  for (let i = 0; i < area; i++) {
    const root = find(i);
    if (!ids.has(root)) ids.set(root, ids.size);
    regions[i] = ids.get(root)!;
  }
  if (ids.size !== n) throw new ParseError(`the jigsaw block structure has ${ids.size} blocks, expected ${n}`, col0);
  return regions;
}

export function encodeGameId(p: SudokuPuzzle, values: ArrayLike<number>): string {
  const params = p.regions ? `${p.n}j` : `${p.boxH}x${p.boxW}`;
  let desc = '';
  let run = 0;
  let lastNumber = false;
  const flush = () => {
    while (run > 0) {
      const k = Math.min(run, 26);
      desc += String.fromCharCode(96 + k);
      run -= k;
    }
  };
  for (let i = 0; i < values.length; i++) {
    if (!values[i]) {
      run++;
      lastNumber = false;
      continue;
    }
    if (run) flush();
    else if (lastNumber) desc += '_';
    desc += String(values[i]);
    lastNumber = true;
  }
  flush();
  // a jigsaw keeps its block structure as read (",<spec>")
  return `${params}${p.diagonal ? 'x' : ''}:${desc}${p.io?.blockSpec ?? ''}`;
}

// ---- puzz.link URLs -----------------------------------------------------------------------------------------
// pzprjs decodeNumber16: 0-9a-f one hex digit, '-' + 2 hex digits, '+' + 3 hex digits, '.' an unknown mark,
// g-z skip 1..20 blank cells. Box shapes for sizes pzprjs draws: 4 -> 2x2, 6 -> 3x2, 9 -> 3x3, 16 -> 4x4, 25 -> 5x5.
function parseUrl(url: string, col0: number): SudokuPuzzle {
  const m = /^(.*?\?sudoku\/)(\d+)\/(\d+)\/([^\s]*)$/.exec(url) ?? /^(.*?\?sudoku\/)(\d+)\/([^\s/]*)$/.exec(url);
  if (!m) throw new ParseError('expected a puzz.link sudoku URL: https://puzz.link/p?sudoku/9/9/...', col0);
  const n = Number(m[2]);
  const body = m.length === 5 ? m[4] : m[3];
  if (m.length === 5 && Number(m[3]) !== n) throw new ParseError(`a sudoku is square: ${m[2]}x${m[3]}`, col0 + m[1].length);
  const box = defaultBox(n);
  if (!box || n > 32) throw new ParseError(`a ${n}x${n} sudoku has no box shape here`, col0 + m[1].length);
  const area = n * n;
  const givens = new Uint8Array(area);
  const start = col0 + url.length - body.length;
  let c = 0;
  for (let i = 0; i < body.length && c < area; i++) {
    const ch = body[i];
    let v = -1;
    if (/[0-9a-f]/.test(ch)) v = parseInt(ch, 16);
    else if (ch === '-') {
      v = parseInt(body.substr(i + 1, 2), 16);
      i += 2;
    } else if (ch === '+') {
      v = parseInt(body.substr(i + 1, 3), 16);
      i += 3;
    } else if (ch === '.') v = 0;
    else if (ch >= 'g' && ch <= 'z') c += parseInt(ch, 36) - 16;
    else throw new ParseError(`unexpected '${ch}' in a puzz.link board`, start + i);
    if (Number.isNaN(v) || v > n) throw new ParseError(`bad number in a puzz.link board`, start + i);
    if (v > 0) givens[c] = v;
    c++;
  }
  if (c > area) throw new ParseError(`too much data for a ${n}x${n} grid`, start + body.length);
  // puzz.link's own encoder writes every cell, a run of blanks included: a shorter board was cut off
  if (c < area) throw new ParseError(`not enough data for a ${n}x${n} grid (${c} of ${area} cells)`, start + body.length);
  return { n, ...box, diagonal: false, givens, io: { form: 'url', urlPrefix: `${m[1]}${n}/${n}/` } };
}

export function encodeUrlBody(values: ArrayLike<number>): string {
  let s = '';
  let run = 0;
  const flush = () => {
    while (run > 0) {
      const k = Math.min(run, 20);
      s += (15 + k).toString(36);
      run -= k;
    }
  };
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!v) {
      run++;
      continue;
    }
    flush();
    s += v < 16 ? v.toString(16) : v < 256 ? '-' + v.toString(16).padStart(2, '0') : '+' + v.toString(16).padStart(3, '0');
  }
  flush();
  return s;
}

// ---- output in the input's form --------------------------------------------------------------------------------
/** The grid in the record's own form: a solution, or a partial grid (0 = blank). */
export function formatGrid(p: SudokuPuzzle, values: ArrayLike<number>): string {
  const io: SudokuIo = p.io ?? { form: 'line', blank: '.' };
  switch (io.form) {
    case 'gameid':
      return encodeGameId(p, values);
    case 'grid':
      return drawGrid(p, values, io);
    case 'url':
      return `${io.urlPrefix ?? `https://puzz.link/p?sudoku/${p.n}/${p.n}/`}${encodeUrlBody(values)}`;
    case 'tsv': {
      const fields = (io.fields ?? []).slice();
      const sol = stppcString(values);
      if (io.solutionColumn !== undefined && io.solutionColumn >= 0) fields[io.solutionColumn] = sol;
      else fields.push(sol);
      return fields.join('\t');
    }
    default:
      return gridString(values, io.blank ?? '.', io.lower ?? false, io.hex);
  }
}

/** STPPC's cell alphabet: '.' blank, 1-9 then a-z for 10.. */
export function stppcString(values: ArrayLike<number>): string {
  let s = '';
  for (let i = 0; i < values.length; i++) s += values[i] ? (values[i] <= 9 ? String(values[i]) : String.fromCharCode(87 + values[i])) : '.';
  return s;
}

/** Parses a solution string in any of our alphabets (digits, letters either case) into values. */
export function solutionValues(s: string, hex = false): Uint8Array {
  return Uint8Array.from(s, (ch) => valueOf(ch, hex));
}

export function formatRecord(record: PuzzleRecord<SudokuPuzzle>, result: SolveResult): string {
  const p = record.puzzle;
  if (!p) return `# ${record.error ?? `${record.file}:${record.line}: error`}`;
  const hex = p.io?.hex ?? false;
  const solution = result.solution ? solutionValues(result.solution, hex) : undefined;
  if (result.status === 'solved' && solution) return formatGrid(p, solution) + (p.io?.form === 'grid' ? '\n' : '');
  const why = `${result.status}${result.reason ? ` (${result.reason})` : ''}`;
  const partial = (result.extra?.partial as string | undefined) ?? undefined;
  const shown = solution ?? (partial ? solutionValues(partial, hex) : p.givens);
  // drawn grids are set apart by a blank line, as they are read
  const apart = p.io?.form === 'grid' ? '\n\n' : '\n';
  // a .tsv row without an answer stays as it was read: its solution column is no place for clues or a partial grid
  const drawn = !solution && p.io?.form === 'tsv' ? (p.io.fields ?? []).join('\t') : formatGrid(p, shown);
  let out = `# ${record.file}:${record.line}: ${why}\n${drawn}`;
  if (result.status === 'multiple' && result.solution2) out += `${apart}${formatGrid(p, solutionValues(result.solution2, hex))}`;
  return out + (apart === '\n' ? '' : '\n');
}
