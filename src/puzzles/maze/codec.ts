// Mazes in and out (issue 3, CLI.md). Text: `#` wall, ` ` or `.` path, `S`/`E` start and end (otherwise the two
// gaps in the outer border, thesis 3.1), `o` a path cell marked as solution (read as path); several mazes in one
// file are separated by empty lines. PNG: one pixel per cell, light = path, dark = wall; start is the open pixel
// of the top row, end the open pixel of the bottom row (the mikepound images). Errors name line and column.
import { PNG } from 'pngjs';

export interface Maze {
  width: number;
  height: number;
  /** 1 = path, 0 = wall, row-major */
  open: Uint8Array;
  /** cell indices (y * width + x) */
  start: number;
  end: number;
  /** the text rows as read, so output keeps every character that is not on the path */
  rows?: string[];
}

export class MazeError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    message: string,
  ) {
    super(`${file}:${line}:${column}: ${message}`);
  }
}

export interface ParsedMaze {
  line: number;
  maze?: Maze;
  error?: string;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47];

export function isPng(bytes: Uint8Array): boolean {
  return PNG_SIGNATURE.every((b, i) => bytes[i] === b);
}

export const MAZE_FORMATS = ['text', 'png'] as const;
export type MazeFormat = (typeof MAZE_FORMATS)[number];

/**
 * Every maze in one input: a PNG image or text with mazes separated by empty lines, told apart by the PNG signature
 * unless `format` (`--format`) says which. Never throws. A PNG's errors are placed at its line 1, column 1.
 */
export function parseMazes(bytes: Uint8Array, file = '-', format?: MazeFormat): ParsedMaze[] {
  if (format === 'png' && !isPng(bytes)) {
    return [{ line: 1, error: `${file}:1:1: not a PNG (--format png): the file does not start with the PNG signature` }];
  }
  if (format === 'png' || (format === undefined && isPng(bytes))) {
    try {
      return [{ line: 1, maze: parsePng(bytes) }];
    } catch (e) {
      return [{ line: 1, error: `${file}:1:1: ${(e as Error).message}` }];
    }
  }
  const text = new TextDecoder().decode(bytes);
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const out: ParsedMaze[] = [];
  let i = 0;
  while (i < lines.length) {
    if (lines[i] === '') {
      i++;
      continue;
    }
    const first = i;
    while (i < lines.length && lines[i] !== '') i++;
    try {
      out.push({ line: first + 1, maze: parseTextMaze(lines.slice(first, i), first + 1, file) });
    } catch (e) {
      if (!(e instanceof MazeError)) throw e;
      out.push({ line: first + 1, error: e.message });
    }
  }
  return out;
}

/** One text maze from its rows; `firstLine` is the 1-based line of rows[0] in the file (for messages). */
export function parseTextMaze(rows: string[], firstLine = 1, file = '-'): Maze {
  const height = rows.length;
  const width = rows[0].length;
  const open = new Uint8Array(width * height);
  let start = -1;
  let end = -1;
  const at = (y: number, x: number) => `${firstLine + y}:${x + 1}`;
  for (let y = 0; y < height; y++) {
    const row = rows[y];
    if (row.length !== width) {
      throw new MazeError(file, firstLine + y, Math.min(row.length, width) + 1,
        `ragged maze: this row has ${row.length} cells, the maze's first row (line ${firstLine}) has ${width}`);
    }
    for (let x = 0; x < width; x++) {
      const ch = row[x];
      const i = y * width + x;
      if (ch === '#') continue;
      if (ch === ' ' || ch === '.' || ch === 'o') open[i] = 1;
      else if (ch === 'S' || ch === 'E') {
        open[i] = 1;
        if (ch === 'S') {
          if (start >= 0) throw new MazeError(file, firstLine + y, x + 1, `a second start 'S' (the first is at ${at(Math.floor(start / width), start % width)})`);
          start = i;
        } else {
          if (end >= 0) throw new MazeError(file, firstLine + y, x + 1, `a second end 'E' (the first is at ${at(Math.floor(end / width), end % width)})`);
          end = i;
        }
      } else {
        throw new MazeError(file, firstLine + y, x + 1, `unexpected ${JSON.stringify(ch)} in a maze (use # wall, space or . path, S start, E end)`);
      }
    }
  }
  if (start < 0 || end < 0) {
    // thesis 3.1: the entrance and exit are the gaps in the outer border
    const gaps = borderGaps(open, width, height).filter((i) => i !== start && i !== end);
    const need = (start < 0 ? 1 : 0) + (end < 0 ? 1 : 0);
    if (gaps.length !== need) {
      const what = need === 2 ? 'no S and E, so the outer border needs exactly 2 gaps (entrance and exit)' : `no ${start < 0 ? 'S' : 'E'}, so the outer border needs exactly 1 gap besides the ${start < 0 ? 'E' : 'S'}`;
      const list = gaps.slice(0, 12).map((g) => at(Math.floor(g / width), g % width)).join(', ');
      throw new MazeError(file, firstLine, 1, `${what}; found ${gaps.length}${gaps.length ? `: ${list}${gaps.length > 12 ? ', ...' : ''}` : ''}`);
    }
    if (start < 0) start = gaps.shift()!;
    if (end < 0) end = gaps.shift()!;
  }
  return { width, height, open, start, end, rows: rows.slice() };
}

/** Open cells of the outer border in reading order (top row, then the sides row by row, then the bottom row). */
export function borderGaps(open: Uint8Array, width: number, height: number): number[] {
  const out: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (y !== 0 && y !== height - 1 && x !== 0 && x !== width - 1) continue;
      if (open[y * width + x]) out.push(y * width + x);
    }
  }
  return out;
}

export function parsePng(bytes: Uint8Array): Maze {
  let png: PNG;
  try {
    png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (e) {
    throw new Error(`unreadable PNG (${(e as Error).message})`);
  }
  const { width, height, data } = png;
  const open = new Uint8Array(width * height);
  for (let i = 0; i < width * height; i++) {
    const r = data[4 * i], g = data[4 * i + 1], b = data[4 * i + 2];
    // light (or coloured: a solution drawn in red) pixels are path, dark ones wall; pngjs has already expanded
    // palettes and grey levels to RGBA
    open[i] = Math.max(r, g, b) >= 128 ? 1 : 0;
  }
  const top: number[] = [];
  const bottom: number[] = [];
  for (let x = 0; x < width; x++) {
    if (open[x]) top.push(x);
    if (open[(height - 1) * width + x]) bottom.push((height - 1) * width + x);
  }
  const list = (xs: number[]) => xs.slice(0, 8).map((i) => `x=${i % width}`).join(', ') + (xs.length > 8 ? ', ...' : '');
  if (top.length !== 1) throw new Error(top.length ? `the top row has ${top.length} open pixels (${list(top)}); the start must be the only one` : 'no start: the top row has no open (white) pixel');
  if (height < 2) throw new Error('no end: the image has a single row');
  if (bottom.length !== 1) throw new Error(bottom.length ? `the bottom row has ${bottom.length} open pixels (${list(bottom)}); the end must be the only one` : 'no end: the bottom row has no open (white) pixel');
  return { width, height, open, start: top[0], end: bottom[0] };
}

/** Marks the path cells (start and end included) with `o`, keeping every other character. */
export function formatText(maze: Maze, path: number[] | null): string {
  const { width, height } = maze;
  const marked = new Uint8Array(width * height);
  if (path) for (const i of path) marked[i] = 1;
  return gridText(width, height, (i) => (marked[i] ? O : maze.rows ? maze.rows[(i / width) | 0].charCodeAt(i % width) : maze.open[i] ? SPACE : WALL));
}

/** Plain text for a generated maze: `#`, ` `, with S and E marked only where they are not border gaps. */
export function mazeToText(maze: Maze, markEnds = false): string {
  return gridText(maze.width, maze.height, (i) => (markEnds && i === maze.start ? S : markEnds && i === maze.end ? E : maze.open[i] ? SPACE : WALL));
}

const [SPACE, WALL, O, S, E] = Array.from(' #oSE', (c) => c.charCodeAt(0));

/**
 * Rows of one character code per cell, each ending in a newline. Built a row of codes at a time: adding characters
 * one by one made a rope of small strings that took 2.4 GB for an 8001x8001 maze.
 */
function gridText(width: number, height: number, code: (i: number) => number): string {
  const row = new Uint16Array(width);
  const lines: string[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) row[x] = code(y * width + x);
    let line = '';
    for (let x = 0; x < width; x += 8192) line += String.fromCharCode(...row.subarray(x, Math.min(width, x + 8192)));
    lines.push(line);
  }
  return lines.join('\n') + '\n';
}

/** PNG: white path, black wall, and the solution path (if any) in red. */
export function formatPng(maze: Maze, path: number[] | null): Uint8Array {
  const png = new PNG({ width: maze.width, height: maze.height });
  const d = png.data;
  for (let i = 0; i < maze.width * maze.height; i++) {
    const v = maze.open[i] ? 255 : 0;
    d[4 * i] = d[4 * i + 1] = d[4 * i + 2] = v;
    d[4 * i + 3] = 255;
  }
  if (path) {
    for (const i of path) {
      d[4 * i] = 255;
      d[4 * i + 1] = 0;
      d[4 * i + 2] = 0;
    }
  }
  return new Uint8Array(PNG.sync.write(png));
}

const STEP: Record<string, [number, number]> = { U: [0, -1], D: [0, 1], L: [-1, 0], R: [1, 0] };

/** A path of cell indices as moves from the start (`U`, `D`, `L`, `R`): the kind's solution string. */
export function pathToMoves(path: number[], width: number): string {
  let s = '';
  for (let k = 1; k < path.length; k++) {
    // by rows and columns, not by the index step: in a maze 1 wide a step down is +1 as well
    const dy = Math.floor(path[k] / width) - Math.floor(path[k - 1] / width);
    const dx = (path[k] % width) - (path[k - 1] % width);
    s += dy === 0 && dx === 1 ? 'R' : dy === 0 && dx === -1 ? 'L' : dx === 0 && dy === 1 ? 'D' : dx === 0 && dy === -1 ? 'U' : '?';
  }
  return s;
}

/** The cells a move string visits from the start, or null if it leaves the grid or has a bad symbol. */
export function movesToPath(maze: Maze, moves: string): number[] | null {
  let x = maze.start % maze.width;
  let y = Math.floor(maze.start / maze.width);
  const path = [maze.start];
  for (const m of moves) {
    const s = STEP[m];
    if (!s) return null;
    x += s[0];
    y += s[1];
    if (x < 0 || y < 0 || x >= maze.width || y >= maze.height) return null;
    path.push(y * maze.width + x);
  }
  return path;
}
