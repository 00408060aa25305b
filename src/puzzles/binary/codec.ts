// Binary puzzles (Takuzu / Binairo / STPPC Unruly) in and out. Three forms, detected per line or forced with
// --format:
//   grid   rows of `0`, `1`, `.` (spaces between symbols allowed, as STPPC's text format prints them), puzzles
//          separated by blank lines, `#` comment lines; a `# rules: unruly` (or takuzu) line sets the rules of the
//          grids after it, as `gen binary --rules unruly` writes (the grid form has no other place for them);
//   gameid STPPC Unruly game ids `WxH[u][dX]:DESC`, one per line (may be mixed into a grid file);
//   tsv    the STPPC tables of ../shared/data/binary/sgt (header `game_id w h unique puzzle solution gen_seconds`).
// Errors never throw: a record carries `file:line:col: message`.
import type { PuzzleRecord } from '../types.ts';

/** the unknown cell value (the thesis' `sure = 2`) */
export const UNKNOWN = 2;

export interface BinaryPuzzle {
  width: number;
  height: number;
  /** row-major; 0, 1 or UNKNOWN */
  cells: Uint8Array;
  /** Rule 3 (thesis 3.3.1): all rows distinct and all columns distinct. Off for STPPC Unruly without `u`. */
  distinct: boolean;
  /** the STPPC difficulty letter of a game id or tsv file name (t, e, n), when known */
  stppcLevel?: string;
  /** tsv: the input row's columns, so the output keeps them; `header` on the first row of a file */
  tsv?: { columns: string[]; header?: string };
}

export type BinaryRecord = PuzzleRecord<BinaryPuzzle>;

export class BinaryFormatError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    message: string,
  ) {
    super(message);
  }
}

/** a bad option value (--rules, --format, --level ...): the command line reports it as a usage error */
export class BinaryOptionError extends Error {}

const at = (file: string, e: BinaryFormatError) => `${file}:${e.line}:${e.column}: ${e.message}`;

// ---------------------------------------------------------------------------------------------------------------
// Which sizes the rules allow

const lineCounts = new Map<number, number>();

/**
 * Lines of length n with n/2 ones and no three equal in a row (OEIS A177790 for n = 2k): with the distinct-lines
 * rule a grid can have no more rows than this for its width (and no more columns for its height).
 */
export function validLineCount(n: number): number {
  if (n % 2) return 0;
  const cached = lineCounts.get(n);
  if (cached !== undefined) return cached;
  // state: ones so far, length of the current run (1 or 2), its symbol; counted position by position
  let ways = new Map<string, number>([['0,0,0', 1]]);
  for (let i = 0; i < n; i++) {
    const next = new Map<string, number>();
    for (const [key, count] of ways) {
      const [ones, run, sym] = key.split(',').map(Number);
      for (const s of [0, 1]) {
        const r = i > 0 && s === sym ? run + 1 : 1;
        const o = ones + s;
        if (r > 2 || o > n / 2 || i + 1 - o > n / 2) continue;
        const k = `${o},${r},${s}`;
        next.set(k, Math.min((next.get(k) ?? 0) + count, Number.MAX_SAFE_INTEGER));
      }
    }
    ways = next;
  }
  let total = 0;
  for (const c of ways.values()) total = Math.min(total + c, Number.MAX_SAFE_INTEGER);
  lineCounts.set(n, total);
  return total;
}

/** Why a width x height grid cannot be a binary puzzle under these rules, or null when it can be. */
export function sizeProblem(width: number, height: number, distinct: boolean): string | null {
  if (width < 1 || height < 1) return `a ${width}x${height} grid has no cells`;
  if (width % 2) return `the width ${width} is odd: a row cannot hold as many 0s as 1s (Rule 2)`;
  if (height % 2) return `the height ${height} is odd: a column cannot hold as many 0s as 1s (Rule 2)`;
  if (distinct) {
    const rows = validLineCount(width);
    if (height > rows) return `${height} rows cannot all differ (Rule 3): only ${rows} valid rows of length ${width} exist; use --rules unruly to allow equal rows`;
    const cols = validLineCount(height);
    if (width > cols) return `${width} columns cannot all differ (Rule 3): only ${cols} valid columns of length ${height} exist; use --rules unruly to allow equal columns`;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// STPPC Unruly game ids. DESC is a run-length code of the grid in row-major order: a letter places a cell after
// skipping (letter - 'a') empty cells, lowercase a 0 and uppercase a 1; `z`/`Z` skips 25 cells and places nothing.
// The code always ends one cell past the grid (STPPC writes a final lowercase letter there), so it covers w*h + 1.

const GAME_ID = /^(\d+)(?:x(\d+))?(u?)(?:d([a-z]))?:(.*)$/;

export function looksLikeGameId(text: string): boolean {
  return /^\d+(?:x\d+)?u?(?:d[a-z])?:/.test(text);
}

/**
 * Decodes one game id; `column` is where the id starts in its line (1-based), for error positions; `distinct`
 * overrides the id's own `u`.
 */
export function parseGameId(text: string, line: number, column = 1, distinctRule?: boolean): BinaryPuzzle {
  const m = GAME_ID.exec(text);
  if (!m) throw new BinaryFormatError(line, column, `not an Unruly game id: expected WxH[u]:DESC, got '${text.slice(0, 40)}'`);
  const width = Number(m[1]);
  const height = m[2] ? Number(m[2]) : width;
  const distinct = distinctRule ?? m[3] === 'u';
  if (m[4] && !'ten'.includes(m[4])) throw new BinaryFormatError(line, column + text.indexOf(':') - 1, `unknown Unruly difficulty 'd${m[4]}' (t, e or n)`);
  const problem = sizeProblem(width, height, distinct);
  if (problem) throw new BinaryFormatError(line, column, problem);
  const descStart = column + text.indexOf(':') + 1;
  const desc = m[5];
  const size = width * height;
  const cells = new Uint8Array(size).fill(UNKNOWN);
  let pos = 0;
  for (let i = 0; i < desc.length; i++) {
    const ch = desc[i];
    const col = descStart + i;
    if (ch === 'z' || ch === 'Z') {
      pos += 25;
    } else if (ch >= 'a' && ch <= 'y') {
      pos += ch.charCodeAt(0) - 97;
      if (pos < size) cells[pos] = 0;
      else if (pos > size || i !== desc.length - 1) throw new BinaryFormatError(line, col, `game id runs past the ${width}x${height} grid`);
      pos++;
    } else if (ch >= 'A' && ch <= 'Y') {
      pos += ch.charCodeAt(0) - 65;
      if (pos >= size) throw new BinaryFormatError(line, col, `game id runs past the ${width}x${height} grid`);
      cells[pos] = 1;
      pos++;
    } else {
      throw new BinaryFormatError(line, col, `'${ch}' is not a letter of an Unruly game id`);
    }
    if (pos > size + 1) throw new BinaryFormatError(line, col, `game id runs past the ${width}x${height} grid`);
  }
  if (pos < size + 1) throw new BinaryFormatError(line, descStart + desc.length, `game id too short: it covers ${Math.min(pos, size)} of ${size} cells`);
  return { width, height, cells, distinct, stppcLevel: m[4] || undefined };
}

/** The game id of a grid (unknown cells stay empty), in STPPC's own encoding: `WxH[u]:DESC`. */
export function formatGameId(width: number, height: number, cells: ArrayLike<number>, distinct: boolean): string {
  let desc = '';
  let run = 0;
  const size = width * height;
  for (let i = 0; i <= size; i++) {
    const v = i === size ? 0 : cells[i];
    if (v === UNKNOWN) {
      run++;
      continue;
    }
    const base = v === 1 ? 65 : 97;
    for (; run > 24; run -= 25) desc += String.fromCharCode(base + 25);
    desc += String.fromCharCode(base + run);
    run = 0;
  }
  return `${width}x${height}${distinct ? 'u' : ''}:${desc}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Text helpers

export function cellsToString(cells: ArrayLike<number>): string {
  let s = '';
  for (let i = 0; i < cells.length; i++) s += cells[i] === 0 ? '0' : cells[i] === 1 ? '1' : '.';
  return s;
}

/** Row-major `0`/`1`/`.` (other characters: an error column, 1-based, is returned instead). */
export function stringToCells(text: string): Uint8Array | number {
  const cells = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '0') cells[i] = 0;
    else if (ch === '1') cells[i] = 1;
    else if (ch === '.') cells[i] = UNKNOWN;
    else return i + 1;
  }
  return cells;
}

export function formatGrid(width: number, cells: ArrayLike<number>): string {
  const s = cellsToString(cells);
  let out = '';
  for (let i = 0; i < s.length; i += width) out += s.slice(i, i + width) + '\n';
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Parsing

export type BinaryForm = 'grid' | 'gameid' | 'tsv';

/** Rule 3 (distinct lines) under the rules named (takuzu, binairo, all: on; unruly: off); undefined: no such rules. */
function distinctUnder(name: string): boolean | undefined {
  if (name === 'unruly') return false;
  if (name === 'takuzu' || name === 'binairo' || name === 'all') return true;
  return undefined;
}

function rulesOption(options: Record<string, string | boolean>): boolean | undefined {
  const r = options.rules;
  if (r === undefined) return undefined;
  const distinct = distinctUnder(String(r));
  if (distinct === undefined) throw new BinaryOptionError(`--rules takes takuzu (all three rules) or unruly (equal lines allowed), got '${r}'`);
  return distinct;
}

/** The grid form's line that keeps a puzzle's rules: `# rules: unruly` before an unruly puzzle's grid, else none. */
export const rulesLine = (distinct: boolean): string => (distinct ? '' : '# rules: unruly\n');

/**
 * Reads every puzzle of one input. `--rules unruly` drops the distinct-lines rule for plain grids (game ids and
 * tsv rows say it themselves by their `u`, which --rules overrides); `--format grid|gameid|tsv` forces the form.
 */
export function parseBinary(input: Uint8Array | string, file: string, options: Record<string, string | boolean> = {}): BinaryRecord[] {
  const text = typeof input === 'string' ? input : new TextDecoder().decode(input);
  const lines = text.split(/\r?\n/);
  const distinct = rulesOption(options);
  const forced = options.format === undefined ? undefined : String(options.format);
  if (forced !== undefined && !['grid', 'gameid', 'tsv'].includes(forced)) throw new BinaryOptionError(`--format takes grid, gameid or tsv for binary (got '${forced}')`);
  const firstContent = lines.find((l) => l.trim() !== '' && !l.startsWith('#')) ?? '';
  const form: BinaryForm = (forced as BinaryForm | undefined) ?? (file.endsWith('.tsv') || firstContent.includes('\t') ? 'tsv' : 'grid');
  const records = form === 'tsv' ? parseTsv(lines, file, distinct) : parseLines(lines, file, form === 'gameid', distinct);
  // a known difficulty from the file name (STPPC tables: unruly_8x8dn.tsv)
  const level = /d([ten])\.tsv$/.exec(file)?.[1];
  if (level) for (const r of records) if (r.puzzle && !r.puzzle.stppcLevel) r.puzzle.stppcLevel = level;
  return records;
}

/** A `# rules: R` line, which sets the rules of the grids after it. */
const RULES_LINE = /^#\s*rules\s*:\s*(\S*)/i;

function parseLines(lines: string[], file: string, gameIdsOnly: boolean, distinct: boolean | undefined): BinaryRecord[] {
  const records: BinaryRecord[] = [];
  let block: { text: string; line: number; cols: number[] }[] = [];
  // the grids' rules as the file's `# rules:` lines say (--rules wins over them)
  let fileDistinct = true;
  const flush = () => {
    if (block.length === 0) return;
    const first = block[0];
    try {
      records.push({ file, line: first.line, form: 'grid', puzzle: gridFromRows(block, distinct ?? fileDistinct) });
    } catch (e) {
      if (!(e instanceof BinaryFormatError)) throw e;
      records.push({ file, line: first.line, form: 'grid', error: at(file, e) });
    }
    block = [];
  };
  lines.forEach((raw, i) => {
    const line = i + 1;
    const rules = RULES_LINE.exec(raw);
    if (rules) {
      flush();
      const named = distinctUnder(rules[1].toLowerCase());
      if (named !== undefined) fileDistinct = named;
      // a misspelt rule would silently solve the grids after it under the other rules
      else records.push({ file, line, form: 'grid', error: at(file, new BinaryFormatError(line, raw.indexOf(rules[1], raw.indexOf(':')) + 1, `unknown rules '${rules[1]}' (takuzu, binairo, all or unruly)`)) });
      return;
    }
    if (raw.startsWith('#')) return;
    const trimmed = raw.trim();
    if (trimmed === '') return flush();
    if (gameIdsOnly || looksLikeGameId(trimmed)) {
      flush();
      const column = raw.indexOf(trimmed) + 1;
      try {
        records.push({ file, line, form: 'gameid', puzzle: parseGameId(trimmed, line, column, distinct) });
      } catch (e) {
        if (!(e instanceof BinaryFormatError)) throw e;
        records.push({ file, line, form: 'gameid', error: at(file, e) });
      }
      return;
    }
    // grid row: symbols with optional blanks between them; remember each symbol's column for error messages
    let text = '';
    const cols: number[] = [];
    for (let c = 0; c < raw.length; c++) {
      const ch = raw[c];
      if (ch === ' ' || ch === '\t') continue;
      text += ch;
      cols.push(c + 1);
    }
    block.push({ text, line, cols });
  });
  flush();
  return records;
}

function gridFromRows(rows: { text: string; line: number; cols: number[] }[], distinct: boolean): BinaryPuzzle {
  const width = rows[0].text.length;
  const height = rows.length;
  const cells = new Uint8Array(width * height);
  rows.forEach((r, y) => {
    for (let x = 0; x < r.text.length; x++) {
      const ch = r.text[x];
      if (x >= width) throw new BinaryFormatError(r.line, r.cols[x], `row ${y + 1} has ${r.text.length} cells, the first row (line ${rows[0].line}) has ${width}`);
      if (ch === '0') cells[y * width + x] = 0;
      else if (ch === '1') cells[y * width + x] = 1;
      else if (ch === '.') cells[y * width + x] = UNKNOWN;
      else throw new BinaryFormatError(r.line, r.cols[x], `'${ch}' is not a cell: use 0, 1 or . (unknown)`);
    }
    if (r.text.length < width) {
      const col = (r.cols[r.cols.length - 1] ?? 0) + 1;
      throw new BinaryFormatError(r.line, col, `row ${y + 1} has ${r.text.length} cells, the first row (line ${rows[0].line}) has ${width}`);
    }
  });
  const problem = sizeProblem(width, height, distinct);
  if (problem) {
    // an odd width is the first row's fault; an odd height or too many rows, the last row's
    const row = width % 2 ? rows[0] : rows[rows.length - 1];
    throw new BinaryFormatError(row.line, row.cols[0] ?? 1, problem);
  }
  return { width, height, cells, distinct };
}

const TSV_COLUMNS = ['game_id', 'w', 'h', 'unique', 'puzzle', 'solution', 'gen_seconds'];

function parseTsv(lines: string[], file: string, distinct: boolean | undefined): BinaryRecord[] {
  const records: BinaryRecord[] = [];
  let header: string | undefined;
  let first = true;
  lines.forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '' || raw.startsWith('#')) return;
    const fields = raw.split('\t');
    if (fields[0] === 'game_id') {
      header = raw;
      return;
    }
    const starts: number[] = [];
    let c = 1;
    for (const f of fields) {
      starts.push(c);
      c += f.length + 1;
    }
    try {
      if (fields.length < 1 || fields[0] === '') throw new BinaryFormatError(line, 1, `expected the columns ${TSV_COLUMNS.join(', ')}`);
      const puzzle = parseGameId(fields[0], line, 1, distinct);
      const num = (k: number, want: number, what: string) => {
        if (fields[k] === undefined || fields[k] === '') return;
        if (Number(fields[k]) !== want) throw new BinaryFormatError(line, starts[k], `${what} column says ${fields[k]}, the game id ${want}`);
      };
      num(1, puzzle.width, 'w');
      num(2, puzzle.height, 'h');
      if (distinct === undefined) num(3, puzzle.distinct ? 1 : 0, 'unique');
      const given = fields[4];
      if (given) {
        const cells = stringToCells(given);
        if (typeof cells === 'number') throw new BinaryFormatError(line, starts[4] + cells - 1, `'${given[cells - 1]}' is not a cell: use 0, 1 or .`);
        const diff = cells.findIndex((v, k) => v !== puzzle.cells[k]);
        if (cells.length !== puzzle.cells.length || diff >= 0) {
          throw new BinaryFormatError(line, starts[4] + Math.max(diff, 0), `puzzle column disagrees with the game id${diff >= 0 ? ` at cell ${diff}` : ` (${cells.length} cells, not ${puzzle.cells.length})`}`);
        }
      }
      let expected: string | undefined;
      const sol = fields[5];
      if (sol) {
        const bad = sol.search(/[^01]/);
        if (bad >= 0) throw new BinaryFormatError(line, starts[5] + bad, `'${sol[bad]}' in the solution column: a solution has only 0 and 1`);
        if (sol.length !== puzzle.cells.length) throw new BinaryFormatError(line, starts[5], `solution has ${sol.length} cells, the grid ${puzzle.cells.length}`);
        expected = sol;
      }
      puzzle.tsv = { columns: fields, header: first ? header : undefined };
      records.push({ file, line, form: 'tsv', puzzle, expected });
    } catch (e) {
      if (!(e instanceof BinaryFormatError)) throw e;
      records.push({ file, line, form: 'tsv', error: at(file, e) });
    }
    first = false;
  });
  return records;
}
