// Nonogram formats in and out. Every reader returns records, never throws for a bad record: a record that cannot
// be read carries an error naming `file:line:column` (CLI.md, status `error`).
//
// In:  .non/.nonpack (mikix-nonogram-db FORMAT.md), .nin (jwilk), the TAAI tournament batch format ($k, then N
//      column lines, then N row lines, tab-separated), STPPC Pattern game ids (`WxH:cols/rows[,givens]`) and .tsv,
//      JSON {"rows": [[3,1],[2],[]], "columns": [...]}, and pictures (PNG, or a `#`/`.` grid with --format grid)
//      whose clues are read off the picture.
// Out: `#`/`.` grid text, .non with `goal`, tournament solutions ($k + rows of 0/1), PNG.
import { PNG } from 'pngjs';
import type { PuzzleRecord } from '../types.ts';
import { UsageError } from '../../cli/args.ts';
import { nodeBuiltin } from '../node-builtin.ts';

export interface Nonogram {
  width: number;
  height: number;
  /** clue lists of the rows, top to bottom, each read left to right; [] = empty row */
  rows: number[][];
  /** clue lists of the columns, left to right, each read top to bottom */
  columns: number[][];
  /** cells given in advance (STPPC's optional clue squares): row-major, 0 unknown, 1 filled, 2 empty */
  givens?: Uint8Array;
  title?: string;
}

export type NonogramForm = 'non' | 'nin' | 'tournament' | 'gameid' | 'tsv' | 'json' | 'xml' | 'png' | 'grid';
export const FORMS: NonogramForm[] = ['non', 'nin', 'tournament', 'gameid', 'tsv', 'json', 'xml', 'png', 'grid'];

/** A reading error at a place in the input; becomes a record's `error` as `file:line:col: message`. */
export class ClueError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
  }
}

interface Line {
  text: string;
  /** 1-based line number */
  no: number;
}

const decoder = new TextDecoder('utf-8');

function toLines(text: string): Line[] {
  return text.split(/\r?\n/).map((t, i) => ({ text: t.replace(/\r$/, ''), no: i + 1 }));
}

const isPng = (b: Uint8Array) => b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47;

/** The form of an input: forced by `--format`, else from the extension, else from the content. */
export function detectForm(bytes: Uint8Array, file: string, forced?: string): NonogramForm {
  if (forced) {
    if (!FORMS.includes(forced as NonogramForm)) throw new ClueError(`unknown nonogram format '${forced}' (one of ${FORMS.join(', ')})`, 1, 1);
    return forced as NonogramForm;
  }
  if (isPng(bytes)) return 'png';
  const ext = /\.([a-z]+)$/i.exec(file)?.[1]?.toLowerCase();
  if (ext === 'non' || ext === 'nonpack') return 'non';
  if (ext === 'nin') return 'nin';
  if (ext === 'tsv') return 'tsv';
  if (ext === 'json' || ext === 'jsonl') return 'json';
  if (ext === 'xml' || ext === 'pbn') return 'xml';
  const text = decoder.decode(bytes.subarray(0, 4096)).replace(/^\uFEFF/, '');
  if (/^\s*<(\?xml|!DOCTYPE|puzzleset|puzzle)\b/i.test(text) || (/^\s*<!--/.test(text) && /<puzzle(set)?\b/i.test(text))) return 'xml';
  const lines = toLines(text).filter((l) => l.text.trim() !== '');
  // a picture whose rows all start with a filled cell is not a file of comments: its comments are the '#' lines with
  // anything but cells in them ('# a frame'), and every other line is a row of cells
  const rows = lines.filter((l) => !(l.text.trimStart().startsWith('#') && !/^[#.]+$/.test(l.text.trim())));
  if (rows.length && rows.slice(0, -1).concat(bytes.length <= 4096 ? rows.slice(-1) : []).every((l) => /^[#.]+$/.test(l.text.trim()))) return 'grid';
  const first = lines.find((l) => !l.text.trimStart().startsWith('#'));
  const t = first?.text.trim() ?? '';
  // only tournament files have `$k` headers (one that lost its first header is still one: its reader says so)
  if (/^\$\d+\$?$/.test(t) || lines.some((l) => /^\s*\$\d+\$?\s*$/.test(l.text))) return 'tournament';
  if (/^\d+x\d+:/.test(t)) return 'gameid';
  if (/^game_id\t/.test(t)) return 'tsv';
  if (t.startsWith('{') || t.startsWith('[')) return 'json';
  if (/^\d+\s+\d+$/.test(t)) return 'nin';
  if (/^(width|height|rows|columns|title|catalogue|by|copyright|license|goal|color)\b/.test(t)) return 'non';
  if (/^[#.]+$/.test(t)) return 'grid';
  if (!first) return 'non'; // comments alone: no puzzle
  const shown = t.length > 40 ? `${t.slice(0, 40)}...` : t;
  throw new ClueError(`cannot tell the nonogram format from the name or from '${shown}' (.non, .nin, .json, .xml, .tsv, a tournament '$k' header, a WxH: game id, a #/. picture; or name it with --format)`, first.no, 1);
}

/** Reads every puzzle in one input. */
export function parseNonograms(bytes: Uint8Array, file: string, options: Record<string, string | boolean> = {}): PuzzleRecord<Nonogram>[] {
  let form: NonogramForm;
  try {
    form = detectForm(bytes, file, typeof options.format === 'string' ? options.format : undefined);
  } catch (e) {
    return [errorRecord(file, e)];
  }
  if (form === 'png') return [parsePngRecord(bytes, file)];
  const text = decoder.decode(bytes).replace(/^\uFEFF/, '');
  // comments and blank lines alone are no puzzle (CLI.md); in a grid picture `#` is a filled cell
  if (form !== 'grid' && contentLines(text).length === 0) return [];
  const records = (() => {
    switch (form) {
      case 'non':
        return parseNon(text, file);
      case 'nin':
        return parseNin(text, file);
      case 'tournament':
        return parseTournament(text, file);
      case 'gameid':
        return parseGameIds(text, file);
      case 'tsv':
        return parseTsv(text, file);
      case 'json':
        return parseJson(text, file);
      case 'xml':
        return parseXml(text, file);
      case 'grid':
        return parseGridPictures(text, file);
    }
  })();
  if (typeof options.solutions === 'string') attachSolutions(records, options.solutions);
  return records;
}

/** A record that could not be read: `line` is where its puzzle starts (CLI.md), the message names the bad spot. */
function errorRecord(file: string, e: unknown, line?: number, form?: NonogramForm): PuzzleRecord<Nonogram> {
  if (e instanceof ClueError) return { file, line: line ?? e.line, form, error: `${file}:${e.line}:${e.column}: ${e.message}` };
  throw e;
}

/** Reads one record with `read`; a ClueError becomes the record's error. */
function record(file: string, line: number, form: NonogramForm, read: () => { puzzle: Nonogram; expected?: string }): PuzzleRecord<Nonogram> {
  try {
    const { puzzle, expected } = read();
    return { file, line, form, puzzle, expected };
  } catch (e) {
    return errorRecord(file, e, line, form);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Clue lines and checks

/**
 * Reads one clue line: numbers separated by `sep` (a regexp). An empty line, or a single `0`, is an empty line.
 * `colour` accepts one trailing letter per number (.non colour designators); they are returned so that a
 * multi-colour puzzle can be refused.
 */
function readClueLine(line: Line, sep: RegExp, colour = false, colours?: Set<string>): number[] {
  const out: number[] = [];
  const text = line.text;
  const tokenRe = new RegExp(`[^${sep.source}]+`, 'g');
  let m: RegExpExecArray | null;
  while ((m = tokenRe.exec(text))) {
    const token = m[0];
    const col = m.index + 1;
    const tm = colour ? /^(\d+)([a-z]?)$/.exec(token) : /^(\d+)$/.exec(token);
    if (!tm) throw new ClueError(`bad clue token '${quote(token)}': expected a whole number`, line.no, col);
    if (tm[2]) colours?.add(tm[2]);
    // no line is a billion cells long: a number that long is a typo (and would print as 1e+23)
    if (tm[1].length > 9) throw new ClueError(`clue ${quote(tm[1])} is larger than any line`, line.no, col);
    const n = Number(tm[1]);
    if (n === 0) {
      // `0` alone means an empty line; a 0 among other numbers is a mistake
      if (out.length > 0 || tokenRe.exec(text)) throw new ClueError(`clue 0 in a list of several clues`, line.no, col);
      return [];
    }
    out.push(n);
  }
  return out;
}

/** Input text inside a message, cut short: a 200,000-number clue line is not echoed whole. */
const quote = (text: string, max = 40) => (text.length > max ? `${text.slice(0, max)}...` : text);
const clueText = (clue: number[]) => quote(clue.join(' '));

const need = (clue: number[]) => (clue.length === 0 ? 0 : clue.reduce((a, b) => a + b, 0) + clue.length - 1);
const sum = (clue: number[]) => clue.reduce((a, b) => a + b, 0);

/** A place in the input: 1-based line and column. */
interface Place {
  line: number;
  column: number;
}

/** Where each clue line came from, for errors found after reading (line of each row/column clue). */
interface Places {
  rows: Place[];
  columns: Place[];
  /** where the puzzle starts */
  start: Place;
}

/** Where an offset into `text` is, as line:column (the JSON and XML readers place their errors by offset). */
function placeFinder(text: string): (offset: number) => Place {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    for (let hi = starts.length - 1; lo < hi; ) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo] + 1 };
  };
}

/** Checks a puzzle's clues: each fits its line, and the rows and the columns fill the same number of cells. */
export function checkClues(p: Nonogram, places?: Places): void {
  const at = (kind: 'rows' | 'columns', i: number) => places?.[kind][i] ?? places?.start ?? { line: 1, column: 1 };
  if (!(p.width >= 1 && p.height >= 1)) {
    const s = places?.start ?? { line: 1, column: 1 };
    throw new ClueError(`the grid must be at least 1x1 (got ${p.width}x${p.height})`, s.line, s.column);
  }
  p.rows.forEach((clue, i) => {
    if (need(clue) > p.width) {
      const a = at('rows', i);
      throw new ClueError(`row ${i + 1}: clue ${clueText(clue)} needs ${need(clue)} cells but the row has ${p.width}`, a.line, a.column);
    }
  });
  p.columns.forEach((clue, i) => {
    if (need(clue) > p.height) {
      const a = at('columns', i);
      throw new ClueError(`column ${i + 1}: clue ${clueText(clue)} needs ${need(clue)} cells but the column has ${p.height}`, a.line, a.column);
    }
  });
  const rs = p.rows.reduce((a, c) => a + sum(c), 0);
  const cs = p.columns.reduce((a, c) => a + sum(c), 0);
  if (rs !== cs) {
    const s = places?.start ?? { line: 1, column: 1 };
    throw new ClueError(`the row clues fill ${rs} cells but the column clues fill ${cs}`, s.line, s.column);
  }
}

/** A 0/1 (or any-non-0 = filled) solution string of the right length, or an error at `line:col`. */
function readGoal(goal: string, p: Nonogram, line: number, col: number): string {
  if (goal.length !== p.width * p.height) {
    throw new ClueError(`goal has ${goal.length} cells, the grid ${p.width}x${p.height} has ${p.width * p.height}`, line, col);
  }
  return goal.replace(/[^0]/g, '1');
}

// ---------------------------------------------------------------------------------------------------------------
// .non (mikix-nonogram-db FORMAT.md): keys in any order, `width`/`height` before `rows`/`columns`/`goal`;
// unknown lines are ignored; `====` separates puzzles of a .nonpack.

function parseNon(text: string, file: string): PuzzleRecord<Nonogram>[] {
  const lines = toLines(text);
  const chunks: Line[][] = [[]];
  for (const l of lines) {
    if (/^====\s*$/.test(l.text)) chunks.push([]);
    else chunks[chunks.length - 1].push(l);
  }
  // a part of comments alone (a pack's header, a note after its last puzzle) holds no puzzle (CLI.md)
  return chunks
    .filter((c) => c.some((l) => l.text.trim() !== '' && !l.text.trimStart().startsWith('#')))
    .map((chunk) => {
      // its line is its first key's, not a comment's above it
      const start = chunk.find((l) => l.text.trim() !== '' && !l.text.trimStart().startsWith('#'))!.no;
      return record(file, start, 'non', () => readNon(chunk, start));
    });
}

function readNon(lines: Line[], start: number): { puzzle: Nonogram; expected?: string } {
  let width = -1;
  let height = -1;
  let rows: number[][] | null = null;
  let columns: number[][] | null = null;
  const places: Places = { rows: [], columns: [], start: { line: start, column: 1 } };
  let goal: { text: string; line: number; col: number } | null = null;
  let title: string | undefined;
  const colours = new Set<string>();
  const definedColours = new Set<string>();
  let i = 0;
  const intValue = (l: Line, key: string) => {
    const m = new RegExp(`^\\s*${key}\\s+(\\S+)\\s*$`).exec(l.text);
    const v = m?.[1] ?? '';
    if (!/^\d+$/.test(v)) throw new ClueError(`${key} must be a whole number, got '${quote(v)}'`, l.no, l.text.indexOf(key) + key.length + 2);
    if (v.length > 9) throw new ClueError(`${key} ${quote(v)} is larger than any puzzle`, l.no, l.text.indexOf(key) + key.length + 2);
    return Number(v);
  };
  while (i < lines.length) {
    const l = lines[i];
    const key = /^\s*([a-z]+)\b/.exec(l.text)?.[1];
    if (key === 'width') width = intValue(l, 'width');
    else if (key === 'height') height = intValue(l, 'height');
    else if (key === 'title') title = /"(.*)"/.exec(l.text)?.[1];
    else if (key === 'color') {
      const m = /^\s*color\s+([a-z])\s/.exec(l.text);
      if (m) definedColours.add(m[1]);
    } else if (key === 'goal') {
      const m = /"([^"]*)"/.exec(l.text) ?? /^\s*goal\s+(\S+)/.exec(l.text);
      if (!m) throw new ClueError(`goal must be a quoted string of cells`, l.no, 6);
      goal = { text: m[1], line: l.no, col: l.text.indexOf(m[1]) + 1 };
    } else if (key === 'rows' || key === 'columns') {
      const n = key === 'rows' ? height : width;
      if (n < 0) throw new ClueError(`'${key}' before '${key === 'rows' ? 'height' : 'width'}'`, l.no, 1);
      if (l.text.trim() !== key) throw new ClueError(`'${key}' must stand alone on its line`, l.no, l.text.indexOf(key) + key.length + 1);
      if ((key === 'rows' ? rows : columns) !== null) throw new ClueError(`a second '${key}' block (the first is at line ${places[key][0]?.line ?? '?'})`, l.no, 1);
      const clues: number[][] = [];
      for (let k = 0; k < n; k++) {
        const cl = lines[++i];
        if (!cl) throw new ClueError(`${key}: expected ${n} clue lines, the input ends after ${k}`, l.no, 1);
        // comment lines (CLI.md) may sit among the clue lines
        if (cl.text.trimStart().startsWith('#')) {
          k--;
          continue;
        }
        if (/^\s*[a-z]/.test(cl.text)) throw new ClueError(`${key}: expected ${n} clue lines, found ${k} before '${quote(cl.text.trim().split(/\s/)[0])}'`, cl.no, 1);
        const empty = /(^|,)\s*(,|$)/.exec(cl.text.trim());
        if (empty && cl.text.trim() !== '') throw new ClueError(`an empty clue between commas`, cl.no, cl.text.indexOf(cl.text.trim()) + empty.index + 1);
        clues.push(readClueLine(cl, /,\s/, true, colours));
        places[key].push({ line: cl.no, column: 1 });
      }
      if (key === 'rows') rows = clues;
      else columns = clues;
    }
    // every other line is ignored (FORMAT.md: parsers must ignore any line that they don't recognise)
    i++;
  }
  const where = places.start;
  if (width < 0 || height < 0) throw new ClueError(`missing ${width < 0 ? 'width' : 'height'}`, where.line, 1);
  if (!rows || !columns) throw new ClueError(`missing ${rows ? 'columns' : 'rows'}`, where.line, 1);
  if (colours.size > 1 || definedColours.size > 1) throw new ClueError(`multi-colour puzzles are not supported`, where.line, 1);
  const puzzle: Nonogram = { width, height, rows, columns, title };
  checkClues(puzzle, places);
  return { puzzle, expected: goal ? readGoal(goal.text, puzzle, goal.line, goal.col) : undefined };
}

// ---------------------------------------------------------------------------------------------------------------
// webpbn XML (webpbn.com/pbn_fmt.html, versions 0.1-0.3; what webpbn.com exports and pbnsolve reads): a <puzzleset>
// of <puzzle type="grid"> elements, each with <clues type="columns"> and <clues type="rows"> holding one <line> of
// <count> elements per line (an empty or self-closed <line/> is an empty line), an optional <title>, and an optional
// <solution type="goal"> (or "solution") whose <image> draws the picture as |X..X.| rows in the colours' chars.
// Elements it does not know are skipped, as the format's readers are asked to; puzzles in more than one colour beside
// the background, triddlers and saved partial solutions are not nonograms of ours: the first two are errors.

interface XmlTag {
  name: string;
  close: boolean;
  selfClose: boolean;
  attrs: Record<string, string>;
  /** offset of '<' and just past '>' */
  at: number;
  end: number;
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", copy: '\u00a9' };
/** Text content or an attribute's value: CDATA sections as they are, entities decoded (a character reference past
 * Unicode, which XML forbids, stays as written rather than crashing the reader). */
const xmlText = (raw: string) =>
  raw
    .split(/(<!\[CDATA\[[\s\S]*?\]\]>)/)
    .map((part) =>
      part.startsWith('<![CDATA[')
        ? part.slice(9, -3)
        : part.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, e: string) => {
            if (e[0] !== '#') return XML_ENTITIES[e.toLowerCase()] ?? all;
            const code = e[1].toLowerCase() === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1));
            return code >= 1 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
          }),
    )
    .join('')
    .trim();

function parseXml(text: string, file: string): PuzzleRecord<Nonogram>[] {
  const placeOf = placeFinder(text);
  const fail = (message: string, offset: number): never => {
    const at = placeOf(offset);
    throw new ClueError(message, at.line, at.column);
  };
  // the tags, in order; comments, declarations and CDATA are skipped. A lexical error ends the tags there: the
  // puzzles closed before it are still read, and the error is the last record
  const tags: XmlTag[] = [];
  let lexical: ClueError | undefined;
  try {
    const re = /<!--[\s\S]*?-->|<!--|<!\[CDATA\[[\s\S]*?\]\]>|<![^>]*>|<\?[\s\S]*?\?>|<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[\w.:-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|</g;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (m[0] === '<') fail(`a '<' that opens no tag (a tag's name and quoted attributes, or &lt; in text)`, m.index);
      if (m[0] === '<!--') fail('a comment that is never closed (no -->)', m.index);
      if (!m[2]) continue;
      const attrs: Record<string, string> = {};
      for (const a of m[3].matchAll(/([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) attrs[a[1].toLowerCase()] = xmlText(a[2] ?? a[3]);
      tags.push({ name: m[2].toLowerCase(), close: m[1] === '/', selfClose: m[4] === '/', attrs, at: m.index, end: m.index + m[0].length });
    }
  } catch (e) {
    if (!(e instanceof ClueError)) throw e;
    lexical = e;
  }
  const records: PuzzleRecord<Nonogram>[] = [];
  // the element path, to check that every tag is closed where it should be
  const open: XmlTag[] = [];
  let puzzleAt = -1;
  // an error record's line: that of the puzzle it falls in, if any (CLI.md: where the puzzle starts)
  const puzzleLine = () => (puzzleAt >= 0 ? placeOf(tags[puzzleAt].at).line : undefined);
  for (let k = 0; k < tags.length; k++) {
    const t = tags[k];
    if (t.close) {
      const top = open.pop();
      if (!top || top.name !== t.name) {
        const where = placeOf(t.at);
        records.push(errorRecord(file, new ClueError(top ? `</${t.name}> closes <${top.name}> (line ${placeOf(top.at).line})` : `</${t.name}> closes nothing`, where.line, where.column), puzzleLine()));
        return records;
      }
      if (t.name === 'puzzle') {
        records.push(record(file, puzzleLine()!, 'xml', () => readXmlPuzzle(text, tags.slice(puzzleAt, k + 1), placeOf, fail)));
        puzzleAt = -1;
      }
      continue;
    }
    if (t.name === 'puzzle') {
      if (puzzleAt >= 0) {
        const where = placeOf(t.at);
        records.push(errorRecord(file, new ClueError(`a <puzzle> inside a <puzzle> (line ${placeOf(tags[puzzleAt].at).line})`, where.line, where.column)));
        return records;
      }
      puzzleAt = k;
    }
    if (!t.selfClose) open.push(t);
  }
  if (lexical) {
    records.push(errorRecord(file, lexical, puzzleLine()));
  } else if (open.length) {
    const top = open[open.length - 1];
    const where = placeOf(top.at);
    records.push(errorRecord(file, new ClueError(`<${top.name}> is never closed`, where.line, where.column), puzzleLine()));
  } else if (records.length === 0) {
    records.push(errorRecord(file, new ClueError('no <puzzle> element in this XML', 1, 1)));
  }
  return records;
}

/** One <puzzle> element's tags (from <puzzle> to </puzzle>, well nested) as a puzzle. */
function readXmlPuzzle(text: string, tags: XmlTag[], placeOf: (offset: number) => Place, fail: (message: string, offset: number) => never): { puzzle: Nonogram; expected?: string } {
  const head = tags[0];
  const type = head.attrs.type ?? 'grid';
  if (type !== 'grid') fail(`a puzzle of type '${quote(type)}' (only type="grid" puzzles are nonograms)`, head.at);
  const background = head.attrs.backgroundcolor ?? 'white';
  const defaultInk = head.attrs.defaultcolor ?? 'black';
  // the ink is the one colour the counts use (an exporter may name it on every count, over any defaultcolor)
  let ink: string | undefined;
  const chars = new Map<string, string>([[background, '.'], [defaultInk, 'X']]);
  const clues: Record<'rows' | 'columns', number[][] | undefined> = { rows: undefined, columns: undefined };
  const places: Places = { rows: [], columns: [], start: placeOf(head.at) };
  let title: string | undefined;
  let goal: { text: string; at: number } | undefined;
  // what the tags so far are inside of
  let kind: 'rows' | 'columns' | undefined;
  let line: number[] | undefined;
  let solution = false;
  const inner = (k: number) => text.slice(tags[k].end, tags[k + 1].at);
  for (let k = 1; k < tags.length - 1; k++) {
    const t = tags[k];
    if (t.close) {
      if (t.name === 'clues') kind = undefined;
      else if (t.name === 'solution') solution = false;
      else if (t.name === 'line' && kind && line) {
        clues[kind]!.push(line);
        line = undefined;
      }
      continue;
    }
    switch (t.name) {
      case 'color':
        if (t.attrs.name && t.attrs.char) chars.set(t.attrs.name, t.attrs.char);
        break;
      case 'title':
        if (!t.selfClose) title = xmlText(inner(k)) || undefined;
        break;
      case 'clues': {
        const which = t.attrs.type === 'rows' ? 'rows' : t.attrs.type === 'columns' ? 'columns' : fail(`<clues> needs type="rows" or type="columns" (got '${quote(t.attrs.type ?? '')}')`, t.at);
        if (clues[which]) fail(`a second <clues type="${which}">`, t.at);
        clues[which] = [];
        if (!t.selfClose) kind = which;
        break;
      }
      case 'line':
        if (!kind) fail('a <line> outside <clues>', t.at);
        places[kind!].push(placeOf(t.at));
        if (t.selfClose) clues[kind!]!.push([]);
        else line = [];
        break;
      case 'count': {
        if (!line) fail('a <count> outside <line>', t.at);
        const colour = t.attrs.color ?? defaultInk;
        ink ??= colour;
        if (colour !== ink) fail(`clues in colours '${quote(ink)}' and '${quote(colour)}': multi-colour puzzles are not supported`, t.at);
        const value = t.selfClose ? '' : xmlText(inner(k));
        if (!/^\d{1,9}$/.test(value)) fail(`a <count> must hold a whole number, got '${quote(value)}'`, t.end);
        if (Number(value) === 0) fail('a <count> of 0 (an empty line is a <line> with no counts)', t.end);
        line!.push(Number(value));
        break;
      }
      case 'solution':
        solution = !t.selfClose && ['goal', 'solution', undefined].includes(t.attrs.type);
        break;
      case 'image':
        if (solution && !t.selfClose && !goal) goal = { text: inner(k), at: t.end };
        break;
    }
  }
  if (!clues.rows || !clues.columns) fail(`missing <clues type="${clues.rows ? 'columns' : 'rows'}">`, head.at);
  const puzzle: Nonogram = { width: clues.columns!.length, height: clues.rows!.length, rows: clues.rows!, columns: clues.columns!, title };
  checkClues(puzzle, places);
  if (!goal) return { puzzle };
  // the image: one |...| row per grid row, a char per cell (the ink's char filled, anything else not)
  const rows = [...goal.text.matchAll(/\|([^|\n]*)\|/g)];
  if (rows.length !== puzzle.height) fail(`the solution image has ${rows.length} rows, the grid ${puzzle.height}`, goal.at);
  const inkChar = chars.get(ink ?? defaultInk) ?? 'X';
  let cells = '';
  for (const r of rows) {
    if (r[1].length !== puzzle.width) fail(`a solution image row of ${r[1].length} cells, the grid is ${puzzle.width} wide`, goal.at + r.index!);
    for (const ch of r[1]) cells += ch === inkChar ? '1' : '0';
  }
  return { puzzle, expected: cells };
}

// ---------------------------------------------------------------------------------------------------------------
// .nin (jwilk): `W H`, then H row lines, then W column lines, numbers separated by spaces, `0` = empty line.
// One puzzle per file: like jwilk's reader we stop after the last column line (data142.nin carries copies of its
// puzzle after it, glued together without line breaks).

function contentLines(text: string): Line[] {
  return toLines(text).filter((l) => l.text.trim() !== '' && !l.text.trimStart().startsWith('#'));
}

function parseNin(text: string, file: string): PuzzleRecord<Nonogram>[] {
  const lines = contentLines(text);
  if (lines.length === 0) return [];
  const head = lines[0];
  return [
    record(file, head.no, 'nin', () => {
      const m = /^\s*(\d+)\s+(\d+)\s*$/.exec(head.text);
      if (!m) throw new ClueError(`expected 'width height', got '${quote(head.text.trim())}'`, head.no, 1);
      const w = Number(m[1]);
      const h = Number(m[2]);
      const body = lines.slice(1, 1 + h + w);
      if (body.length < h + w) throw new ClueError(`expected ${h} row and ${w} column lines, the input ends after ${body.length}`, head.no, 1);
      const places: Places = { rows: [], columns: [], start: { line: head.no, column: 1 } };
      const rows = body.slice(0, h).map((l) => (places.rows.push({ line: l.no, column: 1 }), readClueLine(l, /\s/)));
      const columns = body.slice(h).map((l) => (places.columns.push({ line: l.no, column: 1 }), readClueLine(l, /\s/)));
      const puzzle = { width: w, height: h, rows, columns };
      checkClues(puzzle, places);
      return { puzzle };
    }),
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Tournament batch (TAAI/TCGA, github NonogramRecord): `$k`, then N column clue lines (top to bottom), then N row
// clue lines (left to right), tab-separated. N is 25 in these sets; we take it from the number of lines.

function tournamentBlocks(text: string): { head: Line; body: Line[] }[] {
  const blocks: { head: Line; body: Line[] }[] = [];
  for (const l of toLines(text)) {
    if (/^\s*\$/.test(l.text)) blocks.push({ head: l, body: [] });
    else if (l.text.trim() !== '' && !l.text.trimStart().startsWith('#') && blocks.length) blocks[blocks.length - 1].body.push(l);
  }
  return blocks;
}

function parseTournament(text: string, file: string): PuzzleRecord<Nonogram>[] {
  // clue lines before the first `$k` belong to no puzzle: a lost header, not lines to skip
  const stray = toLines(text).find((l) => l.text.trim() !== '' && !l.text.trimStart().startsWith('#'));
  if (stray && !/^\s*\$/.test(stray.text)) {
    return [errorRecord(file, new ClueError(`a clue line before any '$k' header (a tournament file starts each puzzle with '$k')`, stray.no, 1))];
  }
  return tournamentBlocks(text).map(({ head, body }) =>
    record(file, head.no, 'tournament', () => {
      if (!/^\s*\$\d+\$?\s*$/.test(head.text)) throw new ClueError(`expected '$number', got '${quote(head.text.trim())}'`, head.no, 1);
      if (body.length === 0 || body.length % 2) throw new ClueError(`expected 2N clue lines (N columns, then N rows), found ${body.length}`, head.no, 1);
      const n = body.length / 2;
      const places: Places = { rows: [], columns: [], start: { line: head.no, column: 1 } };
      const columns = body.slice(0, n).map((l) => (places.columns.push({ line: l.no, column: 1 }), readClueLine(l, /\s/)));
      const rows = body.slice(n).map((l) => (places.rows.push({ line: l.no, column: 1 }), readClueLine(l, /\s/)));
      const puzzle: Nonogram = { width: n, height: n, rows, columns, title: head.text.trim().replace(/\$$/, '') };
      checkClues(puzzle, places);
      return { puzzle };
    }),
  );
}

/** A tournament solution file (`$k`, then N rows of N 0/1 numbers): solution strings by puzzle number k. */
export function parseTournamentSolutions(text: string): Map<number, string> {
  const out = new Map<number, string>();
  for (const { head, body } of tournamentBlocks(text)) {
    const k = Number(/\$(\d+)/.exec(head.text)?.[1]);
    out.set(k, body.map((l) => l.text.replace(/[^01]/g, '')).join(''));
  }
  return out;
}

/** `--solutions FILE`: expected solutions for tournament records, matched by their `$k` number. */
function attachSolutions(records: PuzzleRecord<Nonogram>[], path: string): void {
  // read lazily so that the browser bundle never needs node:fs unless this option is used
  const fs = nodeBuiltin<typeof import('node:fs')>('node:fs');
  if (!fs) throw new UsageError('--solutions needs a file system');
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read --solutions '${path}': ${(e as { code?: string }).code ?? (e as Error).message}`);
  }
  const sols = parseTournamentSolutions(text);
  for (const r of records) {
    const k = Number(/\$(\d+)/.exec(r.puzzle?.title ?? '')?.[1]);
    const s = sols.get(k);
    if (r.puzzle && s && s.length === r.puzzle.width * r.puzzle.height) r.expected = s;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// STPPC Pattern game ids: `WxH:` + W column lists then H row lists, lists separated by `/`, numbers by `.`, an
// empty list = empty line; an optional `,` suffix gives clue squares as a run-length grid (pattern.c new_game:
// a-y = that many unknown squares then one empty square, A-Y = ... then one filled square, z = 25 unknown).

export function readGameId(id: string, line: number, col0 = 1): Nonogram {
  const m = /^(\d+)x(\d+):/.exec(id);
  if (!m) throw new ClueError(`expected a game id 'WxH:...'`, line, col0);
  const width = Number(m[1]);
  const height = Number(m[2]);
  let pos = m[0].length;
  const comma = id.indexOf(',', pos);
  const body = comma < 0 ? id.slice(pos) : id.slice(pos, comma);
  const lists = body.split('/');
  if (lists.length !== width + height) {
    throw new ClueError(`a ${width}x${height} game id needs ${width + height} clue lists, found ${lists.length}`, line, col0 + pos);
  }
  const places: Places = { rows: [], columns: [], start: { line, column: col0 } };
  const clues: number[][] = lists.map((list, i) => {
    const here = { line, column: col0 + pos };
    (i < width ? places.columns : places.rows).push(here);
    const out: number[] = [];
    if (list !== '') {
      let at = pos;
      for (const t of list.split('.')) {
        if (!/^\d+$/.test(t) || Number(t) === 0) throw new ClueError(`bad clue token '${quote(t)}': expected a number from 1 up`, line, col0 + at);
        out.push(Number(t));
        at += t.length + 1;
      }
    }
    pos += list.length + 1;
    return out;
  });
  const puzzle: Nonogram = { width, height, columns: clues.slice(0, width), rows: clues.slice(width) };
  if (comma >= 0) puzzle.givens = readGivens(id.slice(comma + 1), width * height, line, col0 + comma + 1);
  checkClues(puzzle, places);
  return puzzle;
}

function readGivens(s: string, cells: number, line: number, col: number): Uint8Array {
  // the same walk as pattern.c's validate_desc/new_game: the letters must take the index exactly to the end
  const g = new Uint8Array(cells);
  let i = 0;
  let k = 0;
  while (i < cells) {
    if (k >= s.length) throw new ClueError(`too little data in the clue squares`, line, col + k);
    const c = s[k];
    if (!/[a-zA-Z]/.test(c)) throw new ClueError(`bad character '${c}' in the clue squares`, line, col + k);
    const len = c.toLowerCase().charCodeAt(0) - 97;
    i += len;
    if (len < 25 && i < cells) g[i++] = c === c.toUpperCase() ? 1 : 2;
    if (i > cells) throw new ClueError(`too much data in the clue squares`, line, col + k);
    k++;
  }
  if (k < s.length) throw new ClueError(`too much data in the clue squares`, line, col + k);
  return g;
}

function parseGameIds(text: string, file: string): PuzzleRecord<Nonogram>[] {
  return contentLines(text).map((l) => {
    const col = l.text.length - l.text.trimStart().length + 1;
    return record(file, l.no, 'gameid', () => ({ puzzle: readGameId(l.text.trim(), l.no, col) }));
  });
}

/** STPPC .tsv (../shared/data): a header naming `game_id` (and maybe `solution`), one puzzle per line. */
function parseTsv(text: string, file: string): PuzzleRecord<Nonogram>[] {
  const lines = contentLines(text);
  if (lines.length === 0) return [];
  const header = lines[0].text.split('\t').map((h) => h.trim().replace(/\(.*$/, ''));
  const idCol = header.indexOf('game_id');
  if (idCol < 0) return [errorRecord(file, new ClueError(`a .tsv needs a header with a 'game_id' column`, lines[0].no, 1), lines[0].no, 'tsv')];
  const solCol = header.indexOf('solution');
  return lines.slice(1).map((l) => {
    const cells = l.text.split('\t');
    const col = cells.slice(0, idCol).reduce((a, c) => a + c.length + 1, 1);
    return record(file, l.no, 'tsv', () => {
      if (cells[idCol] === undefined) throw new ClueError(`missing game_id column`, l.no, 1);
      const puzzle = readGameId(cells[idCol].trim(), l.no, col);
      const sol = solCol >= 0 ? cells[solCol]?.trim() : undefined;
      return { puzzle, expected: sol && /^[01]+$/.test(sol) && sol.length === puzzle.width * puzzle.height ? sol : undefined };
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------
// JSON: {"rows": [[3,1],[2],[]], "columns": [...]} (optional "width", "height", "title", "goal"/"solution");
// one object, an array of them, or one object per line.

function parseJson(source: string, file: string): PuzzleRecord<Nonogram>[] {
  // comment lines are skipped (CLI.md) as blanks of the same length, so every offset keeps its line and column (a
  // line starting with '#' cannot be inside a JSON value: strings do not span lines)
  const text = source.replace(/^[ \t]*#[^\n]*/gm, (c) => ' '.repeat(c.length));
  const placeOf = placeFinder(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    // JSON lines: one object per line
    const lines = contentLines(text);
    if (lines.length > 1 && lines.every((l) => l.text.trim().startsWith('{'))) {
      return lines.map((l) =>
        record(file, l.no, 'json', () => {
          const place = (offset: number): Place => ({ line: l.no, column: offset + 1 });
          let v: unknown;
          try {
            v = JSON.parse(l.text);
          } catch (err) {
            const at = place(jsonErrorOffset(l.text));
            throw new ClueError(`bad JSON: ${jsonErrorMessage(err as Error)}`, at.line, at.column);
          }
          return readJsonPuzzle(v, placesOf(once(() => placesIn(l.text)), '', place));
        }),
      );
    }
    const at = placeOf(jsonErrorOffset(text));
    return [errorRecord(file, new ClueError(`bad JSON: ${jsonErrorMessage(e as Error)}`, at.line, at.column), at.line, 'json')];
  }
  // a record's line is where its object starts; the places of its parts are found only for an error
  const tops = new Map<string, number>();
  walkJson(text, (path, offset) => tops.set(path.join('/'), offset), 1);
  const offsets = once(() => placesIn(text));
  if (!Array.isArray(value)) return [record(file, placeOf(tops.get('')!).line, 'json', () => readJsonPuzzle(value, placesOf(offsets, '', placeOf)))];
  return value.map((v, i) => record(file, placeOf(tops.get(`${i}`)!).line, 'json', () => readJsonPuzzle(v, placesOf(offsets, `${i}/`, placeOf))));
}

/**
 * The place of a puzzle's value by its path below `prefix` ('' the object, 'rows/3' a clue list). `offsets` walks
 * the text on its first call only: the places serve error messages.
 */
function placesOf(offsets: () => Map<string, number>, prefix: string, placeOf: (offset: number) => Place): (path: string) => Place {
  const top = prefix.slice(0, -1);
  return (path) => placeOf(offsets().get(path === '' ? top : prefix + path) ?? offsets().get(top) ?? 0);
}

function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** V8's message without its position or its quote of the text (the error's line and column say where). */
function jsonErrorMessage(e: Error): string {
  // V8's wording: "... in JSON at position 60 (line 1 column 61)", "... after JSON at position 60", "Unexpected token
  // 'x', ..."s": [[1],[x]], "colu"... is not valid JSON": the place is in our own line:column
  return e.message.replace(/ at position \d+.*$/s, '').replace(/ in JSON$/, '').replace(/, (\.\.\.)?".*"(\.\.\.)? is not valid JSON$/s, '');
}

/**
 * Where JSON.parse gave up on `text`: V8 names a position for some errors only ("Unexpected token 'x', ..." has
 * none), so the text is walked again by the grammar. The text's length when it is cut short.
 */
export function jsonErrorOffset(text: string): number {
  try {
    walkJson(text);
  } catch (at) {
    if (typeof at !== 'number') throw at;
    return at;
  }
  return text.length;
}

/** The offset of every value of `text` (valid JSON) to three levels deep, by path: '' the top, 'rows/3', '0/rows/3'. */
function placesIn(text: string): Map<string, number> {
  const offsets = new Map<string, number>();
  walkJson(text, (path, offset) => offsets.set(path.join('/'), offset), 3);
  return offsets;
}

/**
 * JSON's grammar over `text`, calling `onValue` at each value down to `depth` levels below the top; throws the offset
 * (a number) where the text fails it.
 */
function walkJson(text: string, onValue?: (path: (string | number)[], offset: number) => void, depth = 0): void {
  let i = 0;
  const fail = (): never => {
    throw i;
  };
  const ws = () => {
    for (let c = text.charCodeAt(i); c === 32 || c === 9 || c === 10 || c === 13; c = text.charCodeAt(++i));
  };
  const isDigit = (at: number) => {
    const c = text.charCodeAt(at);
    return c >= 48 && c <= 57;
  };
  const expect = (c: string) => (text[i] === c ? i++ : fail());
  const string = (keep: boolean): string => {
    const from = i;
    expect('"');
    while (i < text.length && text[i] !== '"') {
      if (text.charCodeAt(i) < 0x20) fail();
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          for (let k = 0; k < 4; k++) if (!/[0-9a-fA-F]/.test(text[++i] ?? '')) fail();
        } else if (!'"\\/bfnrt'.includes(text[i] ?? '')) fail();
      }
      i++;
    }
    expect('"');
    return keep ? (JSON.parse(text.slice(from, i)) as string) : '';
  };
  const digits = () => {
    if (!isDigit(i)) fail();
    while (isDigit(i)) i++;
  };
  // path: null below the depth tracked (the values there are walked, not reported: reported under their parent's
  // path, they overwrote its place, and a multi-line object's record named its last line)
  const value = (path: (string | number)[] | null): void => {
    ws();
    const tracked = onValue !== undefined && path !== null && path.length <= depth;
    if (tracked) onValue(path, i);
    const c = text[i];
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      ws();
      if (text[i] === close) return void i++;
      for (let n = 0; ; n++) {
        let key: string | number = n;
        if (c === '{') {
          ws();
          key = string(tracked && path!.length < depth);
          ws();
          expect(':');
        }
        value(tracked && path!.length < depth ? [...path!, key] : null);
        ws();
        if (text[i] === ',') i++;
        else return void expect(close);
      }
    }
    if (c === '"') return void string(false);
    for (const word of ['true', 'false', 'null']) {
      if (c === word[0]) {
        for (const w of word) expect(w);
        return;
      }
    }
    if (c === '-') i++;
    if (text[i] === '0') i++;
    else digits();
    if (text[i] === '.') {
      i++;
      digits();
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      digits();
    }
  };
  value([]);
  ws();
  if (i < text.length) fail();
}

/** `at` places a value of the puzzle's object by its path (placesOf). */
function readJsonPuzzle(v: unknown, at: (path: string) => Place): { puzzle: Nonogram; expected?: string } {
  const fail = (msg: string, path = ''): never => {
    const p = at(path);
    throw new ClueError(msg, p.line, p.column);
  };
  if (!v || typeof v !== 'object' || Array.isArray(v)) fail(`expected an object with "rows" and "columns"`);
  const o = v as Record<string, unknown>;
  const lists = (key: string): { clues: number[][]; name: string } => {
    const name = o[key] === undefined && key === 'columns' && o.cols !== undefined ? 'cols' : key;
    const a = o[name];
    if (!Array.isArray(a)) return fail(`"${key}" must be a list of clue lists`, a === undefined ? '' : name);
    const clues = a.map((c, i) => {
      const list = typeof c === 'number' ? [c] : c;
      if (!Array.isArray(list) || !list.every((n) => Number.isInteger(n) && n >= 0)) {
        return fail(`"${key}"[${i}]: bad clue ${JSON.stringify(c)}: expected a list of whole numbers`, `${name}/${i}`);
      }
      if (list.length === 1 && list[0] === 0) return [];
      if (list.includes(0)) return fail(`"${key}"[${i}]: clue 0 in a list of several clues`, `${name}/${i}`);
      return list as number[];
    });
    return { clues, name };
  };
  const rows = lists('rows');
  const columns = lists('columns');
  // a size given as anything but a whole number is a mistake, not a key to skip
  for (const key of ['width', 'height'] as const) {
    if (o[key] !== undefined && !(Number.isInteger(o[key]) && (o[key] as number) >= 0)) fail(`"${key}" must be a whole number, got ${JSON.stringify(o[key])}`, key);
  }
  const width = typeof o.width === 'number' ? o.width : columns.clues.length;
  const height = typeof o.height === 'number' ? o.height : rows.clues.length;
  if (width !== columns.clues.length || height !== rows.clues.length) fail(`width ${width} and height ${height} do not match ${columns.clues.length} columns and ${rows.clues.length} rows`);
  const puzzle: Nonogram = { width, height, rows: rows.clues, columns: columns.clues, title: typeof o.title === 'string' ? o.title : undefined };
  try {
    checkClues(puzzle);
  } catch {
    // the same error again, placed
    const places = (l: typeof rows) => l.clues.map((_, i) => at(`${l.name}/${i}`));
    checkClues(puzzle, { rows: places(rows), columns: places(columns), start: at('') });
  }
  const goalKey = o.goal !== undefined ? 'goal' : o.solution !== undefined ? 'solution' : undefined;
  if (goalKey === undefined) return { puzzle };
  if (typeof o[goalKey] !== 'string') fail(`"${goalKey}" must be a string of 0s and 1s, row by row`, goalKey);
  const g = at(goalKey);
  return { puzzle, expected: readGoal(o[goalKey] as string, puzzle, g.line, g.column) };
}

// ---------------------------------------------------------------------------------------------------------------
// Pictures: the clues are read off a picture (a PNG, dark pixels filled; or `#`/`.` text), and the picture is the
// expected solution. Used to check that an image makes a uniquely solvable puzzle (and by `gen --image`).

/** Row and column clues of a row-major 0/1 picture. */
export function cluesOf(cells: ArrayLike<number>, width: number, height: number): { rows: number[][]; columns: number[][] } {
  const runs = (get: (i: number) => number, n: number) => {
    const out: number[] = [];
    let run = 0;
    for (let i = 0; i < n; i++) {
      if (get(i)) run++;
      else if (run) out.push(run), (run = 0);
    }
    if (run) out.push(run);
    return out;
  };
  const rows = Array.from({ length: height }, (_, r) => runs((i) => cells[r * width + i], width));
  const columns = Array.from({ length: width }, (_, c) => runs((i) => cells[i * width + c], height));
  return { rows, columns };
}

export function pictureToPuzzle(cells: ArrayLike<number>, width: number, height: number, title?: string): Nonogram {
  return { width, height, ...cluesOf(cells, width, height), title };
}

function parseGridPictures(text: string, file: string): PuzzleRecord<Nonogram>[] {
  const out: PuzzleRecord<Nonogram>[] = [];
  let block: Line[] = [];
  const flush = () => {
    if (!block.length) return;
    const b = block;
    block = [];
    out.push(
      record(file, b[0].no, 'grid', () => {
        const width = b[0].text.trim().length;
        const cells: number[] = [];
        for (const l of b) {
          const t = l.text.trim();
          const bad = /[^#.]/.exec(t);
          if (bad) throw new ClueError(`bad cell '${bad[0]}': expected '#' or '.'`, l.no, l.text.indexOf(t) + bad.index + 1);
          if (t.length !== width) throw new ClueError(`row of ${t.length} cells, the first row has ${width}`, l.no, 1);
          for (const ch of t) cells.push(ch === '#' ? 1 : 0);
        }
        const puzzle = pictureToPuzzle(cells, width, b.length);
        return { puzzle, expected: cells.join('') };
      }),
    );
  };
  for (const l of toLines(text)) {
    if (l.text.trim() === '' || l.text.trimStart().startsWith('//')) flush();
    else if (!/^\s*#\s/.test(l.text) || /^[#.]+$/.test(l.text.trim())) block.push(l);
  }
  flush();
  return out;
}

/** A PNG as a 0/1 picture: a pixel is filled when it is darker than mid-grey (and not transparent). */
/** A picture as cells, row-major, 1 dark. */
export type Picture = { width: number; height: number; cells: Uint8Array };

export function readPngPicture(bytes: Uint8Array): Picture {
  const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const cells = new Uint8Array(png.width * png.height);
  for (let i = 0; i < cells.length; i++) {
    const [r, g, b, a] = png.data.subarray(i * 4, i * 4 + 4);
    cells[i] = a >= 128 && 0.299 * r + 0.587 * g + 0.114 * b < 128 ? 1 : 0;
  }
  return { width: png.width, height: png.height, cells };
}

/**
 * The side of the square blocks a picture is drawn in, 1 if it is not: a picture scaled up without smoothing (as
 * `solve --out x.png` draws one) changes colour only on block edges along its rows and columns.
 */
export function blockSide(pic: Picture): number {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const { width: w, height: h, cells } = pic;
  let side = gcd(w, h);
  for (let y = 0; y < h && side > 1; y++) {
    for (let x = 0; x < w; x++) {
      const c = cells[y * w + x];
      if (x > 0 && c !== cells[y * w + x - 1]) side = gcd(side, x);
      if (y > 0 && c !== cells[(y - 1) * w + x]) side = gcd(side, y);
    }
  }
  return side;
}

/** The picture at width x height cells: a cell is filled when at least half of the area it covers is dark. */
export function resamplePicture(pic: Picture, width: number, height: number): Picture {
  const sx = pic.width / width;
  const sy = pic.height / height;
  // how much of pixel p falls in [from, to)
  const overlap = (p: number, from: number, to: number) => Math.max(0, Math.min(p + 1, to) - Math.max(p, from));
  const cells = new Uint8Array(width * height);
  for (let cy = 0; cy < height; cy++) {
    const y0 = cy * sy;
    const y1 = y0 + sy;
    for (let cx = 0; cx < width; cx++) {
      const x0 = cx * sx;
      const x1 = x0 + sx;
      let dark = 0;
      for (let y = Math.floor(y0); y < Math.min(pic.height, Math.ceil(y1)); y++) {
        for (let x = Math.floor(x0); x < Math.min(pic.width, Math.ceil(x1)); x++) {
          if (pic.cells[y * pic.width + x]) dark += overlap(x, x0, x1) * overlap(y, y0, y1);
        }
      }
      cells[cy * width + cx] = dark * 2 >= sx * sy ? 1 : 0;
    }
  }
  return { width, height, cells };
}

/**
 * A PNG as the cells it draws: resampled to `size` when one is given, else one cell per block of a picture scaled
 * up (blockSide), else one per pixel; `pixels` and `how` say which, for messages.
 */
export function readPicture(bytes: Uint8Array, size?: { width: number; height: number }): Picture & { pixels: string; how: string } {
  const raw = readPngPicture(bytes);
  const pixels = `${raw.width}x${raw.height} pixels`;
  if (size) return { ...resamplePicture(raw, size.width, size.height), pixels, how: 'resampled' };
  const named = cellCountOf(bytes);
  if (named && raw.width % named.width === 0 && raw.width / named.width === raw.height / named.height) {
    const side = raw.width / named.width;
    return { ...resamplePicture(raw, named.width, named.height), pixels, how: side > 1 ? `one cell per ${side}x${side} block` : 'one cell per pixel' };
  }
  const side = blockSide(raw);
  if (side > 1) return { ...resamplePicture(raw, raw.width / side, raw.height / side), pixels, how: `one cell per ${side}x${side} block` };
  return { ...raw, pixels, how: 'one cell per pixel' };
}

function parsePngRecord(bytes: Uint8Array, file: string): PuzzleRecord<Nonogram> {
  try {
    const { width, height, cells } = readPicture(bytes);
    return { file, line: 1, form: 'png', puzzle: pictureToPuzzle(cells, width, height), expected: Array.from(cells).join('') };
  } catch (e) {
    return { file, line: 1, form: 'png', error: `${file}:1:1: not a readable PNG: ${(e as Error).message}` };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Output

/** A solution (row-major 0/1) as `#`/`.` rows. */
export function formatGrid(solution: string, width: number): string {
  const out: string[] = [];
  for (let i = 0; i < solution.length; i += width) out.push(solution.slice(i, i + width).replace(/1/g, '#').replace(/0/g, '.'));
  return out.join('\n') + '\n';
}

/** The puzzle in .non form, with `goal` when a solution is given. */
export function formatNon(p: Nonogram, solution?: string): string {
  const lines: string[] = [];
  // one line (a title read from XML may span several); the reader takes everything between the outer quotes
  if (p.title) lines.push(`title "${p.title.replace(/\s+/g, ' ').trim()}"`);
  lines.push(`width ${p.width}`, `height ${p.height}`, '', 'rows', ...p.rows.map((c) => c.join(',')), '', 'columns', ...p.columns.map((c) => c.join(',')));
  if (solution) lines.push('', `goal "${solution}"`);
  return lines.join('\n') + '\n';
}

/** A solution in the tournament solution form: `$k`, then rows of tab-separated 0/1. */
export function formatTournamentSolution(k: string, solution: string, width: number): string {
  const rows: string[] = [k];
  for (let i = 0; i < solution.length; i += width) rows.push(solution.slice(i, i + width).split('').join('\t'));
  return rows.join('\n') + '\n';
}

/** The puzzle as an STPPC Pattern game id. */
export function formatGameId(p: Nonogram): string {
  const list = (c: number[]) => c.join('.');
  return `${p.width}x${p.height}:${[...p.columns, ...p.rows].map(list).join('/')}`;
}

const xmlEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A <puzzleset>'s head and tail in webpbn XML (webpbn.com/pbn_fmt.html), around formatXmlPuzzle's elements. */
export const XML_SET = { head: '<?xml version="1.0"?>\n<!DOCTYPE pbn SYSTEM "https://webpbn.com/pbn-0.3.dtd">\n<puzzleset>\n', tail: '</puzzleset>\n' };

/** One puzzle as a webpbn XML <puzzle> element, with its solution as the goal image when given. */
export function formatXmlPuzzle(p: Nonogram, solution?: string): string {
  const lines = (clues: number[][]) => clues.map((c) => (c.length ? `<line>${c.map((n) => `<count>${n}</count>`).join('')}</line>` : '<line/>')).join('\n');
  const out = ['<puzzle type="grid" defaultcolor="black">'];
  if (p.title) out.push(`<title>${xmlEscape(p.title)}</title>`);
  out.push('<color name="white" char=".">fff</color>', '<color name="black" char="X">000</color>');
  out.push('<clues type="columns">', lines(p.columns), '</clues>', '<clues type="rows">', lines(p.rows), '</clues>');
  if (solution) {
    const rows = Array.from({ length: p.height }, (_, r) => `|${solution.slice(r * p.width, (r + 1) * p.width).replace(/1/g, 'X').replace(/0/g, '.')}|`);
    out.push('<solution type="goal">', '<image>', ...rows, '</image>', '</solution>');
  }
  out.push('</puzzle>');
  return out.join('\n') + '\n';
}

/** The puzzle in the tournament question form (columns first, then rows; tab-separated, 0 = empty line). */
export function formatTournament(k: number, p: Nonogram): string {
  const list = (c: number[]) => (c.length ? c.join('\t') : '0');
  return [`$${k}`, ...p.columns.map(list), ...p.rows.map(list)].join('\n') + '\n';
}

/** A solution as a PNG: `scale` pixels per cell, filled cells black. */
export function solutionPng(solution: string, width: number, height: number, scale = 8): Uint8Array {
  const png = new PNG({ width: width * scale, height: height * scale });
  for (let y = 0; y < height * scale; y++) {
    for (let x = 0; x < width * scale; x++) {
      const filled = solution[Math.floor(y / scale) * width + Math.floor(x / scale)] === '1';
      const v = filled ? 0 : 255;
      png.data.set([v, v, v, 255], (y * width * scale + x) * 4);
    }
  }
  return withCellCount(new Uint8Array(PNG.sync.write(png)), width, height);
}

// Our PNGs name their cells in a tEXt chunk: the picture alone cannot tell a 4x4 of 2x2 blocks from a 2x2, nor an
// empty 3x3 from a 1x1, so it reads back as the same puzzle only with it.
const CELLS_KEY = 'cellsolve-cells';
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Uint8Array) => (bytes.reduce((c, b) => CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8), 0xffffffff) ^ 0xffffffff) >>> 0;

/** The PNG with a tEXt chunk `cellsolve-cells` = `WxH` after its header (IHDR: bytes 8-32). */
function withCellCount(png: Uint8Array, width: number, height: number): Uint8Array {
  const body = new TextEncoder().encode(`tEXt${CELLS_KEY}\0${width}x${height}`);
  const chunk = new Uint8Array(body.length + 8);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, body.length - 4);
  chunk.set(body, 4);
  view.setUint32(body.length + 4, crc32(body));
  const out = new Uint8Array(png.length + chunk.length);
  out.set(png.subarray(0, 33));
  out.set(chunk, 33);
  out.set(png.subarray(33), 33 + chunk.length);
  return out;
}

/** The cells a PNG of ours names (withCellCount), if it names any. */
function cellCountOf(png: Uint8Array): { width: number; height: number } | undefined {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  for (let at = 8; at + 8 <= png.length; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    if (type === 'IDAT' || type === 'IEND') return undefined;
    if (type === 'tEXt') {
      const m = new RegExp(`^${CELLS_KEY}\\0(\\d+)x(\\d+)$`).exec(String.fromCharCode(...png.subarray(at + 8, at + 8 + length)));
      if (m) return { width: Number(m[1]), height: Number(m[2]) };
    }
    at += length + 12;
  }
  return undefined;
}
