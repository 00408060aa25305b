// Puzzle generation at a chosen level of the thesis' difficulty model (4.3): a random solution grid (the CPU
// search with random value order), then clues removed in random order while the puzzle stays solvable by that
// level's methods (level 4: Methods 1-4 and probing). The result is kept when it really needs the level: not
// solvable with the level below. Every puzzle is therefore solved by deduction: its solution is unique.
// Deterministic for a seed.
import { BinaryOptionError, formatGameId, formatGrid, rulesLine, sizeProblem, UNKNOWN, type BinaryPuzzle } from './codec.ts';
import { LEVEL_METHODS } from './reference.ts';
import { BinarySearch, gradeCpu } from './search.ts';
import { attemptsFor } from '../random.ts';
import { numberOption } from '../../cli/args.ts';

/** xorshift32: small, fast, reproducible across platforms */
export function rng(seed: number): () => number {
  let s = (seed >>> 0) ^ 0x9e3779b9 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

/**
 * A random valid grid by flips. A flip turns a rectangle whose corners read 01/10 into 10/01, which keeps every
 * row's and column's counts. Random flips from the alternating grid give a random balanced grid; then flips that
 * do not add trios (three alike in a row or column), each with a corner in a trio, remove the trios; under the
 * distinct-lines rule, flips that add neither trios nor equal lines then part equal rows and columns. Null when
 * that does not end within the budget (small grids near Rule 3's limit): the caller falls back to the search.
 */
function flippedGrid(width: number, height: number, distinct: boolean, random: () => number): Uint8Array | null {
  const g = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) g[y * width + x] = (x + y) & 1;
  if (width < 2 || height < 2) return g;
  const pick = (n: number) => Math.floor(random() * n);
  const at = (x: number, y: number) => g[y * width + x];
  /** trios among the windows of three through the four corners of rectangle (r1, r2) x (c1, c2), each once */
  const windows: number[] = [];
  const triosNear = (r1: number, r2: number, c1: number, c2: number): number => {
    windows.length = 0;
    for (const y of [r1, r2]) for (const x of [c1, c2]) {
      for (let s = Math.max(0, x - 2); s <= Math.min(width - 3, x); s++) windows.push(2 * (y * width + s));
      for (let s = Math.max(0, y - 2); s <= Math.min(height - 3, y); s++) windows.push(2 * (s * width + x) + 1);
    }
    let trios = 0;
    windows.sort((p, q) => p - q);
    for (let k = 0; k < windows.length; k++) {
      if (k > 0 && windows[k] === windows[k - 1]) continue;
      const i = windows[k] >> 1;
      const step = windows[k] & 1 ? width : 1;
      if (g[i] === g[i + step] && g[i] === g[i + 2 * step]) trios++;
    }
    return trios;
  };
  const alternates = (r1: number, r2: number, c1: number, c2: number) => {
    const a = at(c1, r1);
    return at(c2, r1) !== a && at(c1, r2) !== a && at(c2, r2) === a;
  };
  const flip = (r1: number, r2: number, c1: number, c2: number) => {
    for (const i of [r1 * width + c1, r1 * width + c2, r2 * width + c1, r2 * width + c2]) g[i] ^= 1;
  };
  const cells = width * height;
  // a random balanced grid
  for (let k = 0; k < 8 * cells; k++) {
    const r1 = pick(height), r2 = pick(height), c1 = pick(width), c2 = pick(width);
    if (r1 !== r2 && c1 !== c2 && alternates(r1, r2, c1, c2)) flip(r1, r2, c1, c2);
  }
  let noise = 0;
  // a flip with corner (x, y) that adds no trio (or, with `noise`, one) and, with `equal`, no equal lines
  const tryFlip = (x: number, y: number, equal: (() => number) | null): boolean => {
    const r2 = (y + 1 + pick(height - 1)) % height;
    const c2 = (x + 1 + pick(width - 1)) % width;
    if (!alternates(y, r2, x, c2)) return false;
    const before = triosNear(y, r2, x, c2);
    const equalBefore = equal ? equal() : 0;
    flip(y, r2, x, c2);
    const worse = triosNear(y, r2, x, c2) - before;
    if ((worse <= 0 || (!equal && worse === 1 && random() < noise)) && (!equal || equal() <= equalBefore)) return true;
    flip(y, r2, x, c2);
    return false;
  };
  const inTrio = (x: number, y: number): boolean => {
    const v = at(x, y);
    for (let s = Math.max(0, x - 2); s <= Math.min(width - 3, x); s++) if (at(s, y) === v && at(s + 1, y) === v && at(s + 2, y) === v) return true;
    for (let s = Math.max(0, y - 2); s <= Math.min(height - 3, y); s++) if (at(x, s) === v && at(x, s + 1) === v && at(x, s + 2) === v) return true;
    return false;
  };
  // passes over the cells in trios; after a pass that leaves no fewer than the fewest yet, the next one takes a
  // flip that adds a trio now and then (to leave a local minimum; more noise stalls large grids on a plateau)
  let fewest = Infinity;
  for (let pass = 0; ; pass++) {
    const trioCells: number[] = [];
    for (let i = 0; i < cells; i++) if (inTrio(i % width, (i / width) | 0)) trioCells.push(i);
    if (trioCells.length === 0) break;
    if (pass === 20 * (width + height)) return null;
    noise = trioCells.length < fewest ? 0 : 0.005;
    fewest = Math.min(fewest, trioCells.length);
    for (const i of trioCells) for (let k = 0; k < 32 && !tryFlip(i % width, (i / width) | 0, null); k++);
  }
  if (!distinct) return g;
  // lines equal to an earlier line of their direction: a row y as y, a column x as -1 - x
  const lineKey = (l: number) => (l >= 0 ? g.subarray(l * width, (l + 1) * width).join('') : Array.from({ length: height }, (_, y) => at(-1 - l, y)).join(''));
  const equalLines = (): number[] => {
    const out: number[] = [];
    for (const [n, line] of [[height, (k: number) => k], [width, (k: number) => -1 - k]] as const) {
      const seen = new Set<string>();
      for (let k = 0; k < n; k++) {
        const key = lineKey(line(k));
        if (seen.has(key)) out.push(line(k));
        seen.add(key);
      }
    }
    return out;
  };
  for (let round = 0; round < 50 * (width + height); round++) {
    const equal = equalLines();
    if (equal.length === 0) return g;
    const line = equal[pick(equal.length)];
    const [x, y] = line >= 0 ? [pick(width), line] : [-1 - line, pick(height)];
    for (let k = 0; k < 8 && !tryFlip(x, y, () => equalLines().length); k++);
  }
  return null;
}

/**
 * A random valid solution grid: by flips (flippedGrid); when that fails (small grids near Rule 3's limit), the CPU
 * search on the empty grid with random values at its branch points, which also proves that no grid exists. Random
 * early choices can doom a search that only fails deep down, so each try has a budget of branch points and a new
 * try starts over with other random choices. The search alone took seconds on 40x40 and minutes on 64x64, whose
 * random branches doom a column far below; flips take 0.1 s on 64x64 and ~3.5 s on 254x254.
 */
export function randomSolution(width: number, height: number, distinct: boolean, random: () => number): Uint8Array {
  const flipped = flippedGrid(width, height, distinct, random);
  if (flipped) return flipped;
  const empty: BinaryPuzzle = { width, height, cells: new Uint8Array(width * height).fill(UNKNOWN), distinct };
  for (let budget = 4 * width * height; ; budget *= 2) {
    for (let tries = 0; tries < 8; tries++) {
      const r = new BinarySearch(empty, { random, probe: false }).solve(1, budget);
      if (r && r.count === 0) throw new BinaryOptionError(`no ${width}x${height} grid satisfies the rules`);
      if (r) return r.solutions[0];
    }
  }
}

/** Is the puzzle solved by `level`'s methods alone (1-3: propagation; 4: propagation and probing)? */
function solvableAt(p: BinaryPuzzle, level: number): boolean {
  const cells = level <= 3 ? new BinarySearch(p, { methods: LEVEL_METHODS[level] }).closure() : new BinarySearch(p).deduce();
  return cells !== null && !cells.includes(UNKNOWN);
}

export interface GeneratedPuzzle {
  puzzle: BinaryPuzzle;
  solution: Uint8Array;
  level: number;
  attempts: number;
}

/**
 * A puzzle of exactly `level`; with `clues`, removal stops once that many clues are left (a puzzle less bare than
 * the minimal ones, like most published puzzles), if it gets there.
 */
export function generatePuzzle(
  width: number,
  height: number,
  level: number,
  distinct: boolean,
  random: () => number,
  maxAttempts = attemptsFor(width * height, 100, 10), // 200 up to 10x10, 10 at 64x64
  clues?: number,
  /** the share of this attempt's clue removal done, 0..1 (large grids take seconds to minutes) */
  progress?: (share: number) => void,
): GeneratedPuzzle {
  if (level < 1 || level > 4 || !Number.isInteger(level)) throw new BinaryOptionError(`--level takes 1, 2, 3 or 4 (got ${level})`);
  if (level === 3 && !distinct) throw new BinaryOptionError('level 3 needs Method 4, which needs the distinct-lines rule (not with --rules unruly)');
  const problem = sizeProblem(width, height, distinct);
  if (problem) throw new BinaryOptionError(problem);
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const solution = randomSolution(width, height, distinct, random);
    const p: BinaryPuzzle = { width, height, cells: solution.slice(), distinct };
    const order = Array.from(solution.keys());
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    // Level 4 (Method 5: probing) first removes what Methods 1-4 still solve without (cheap closures), then tries
    // the remaining clues against propagation with probing. Search is not a method: a puzzle that only search
    // solves is beyond level 4 here (on 14x14, minimal unique puzzles need hundreds of branch points each).
    let left = p.cells.length;
    const phases = level === 4 ? [3, 4] : [level];
    for (const [k, phase] of phases.entries()) {
      for (const [tried, i] of order.entries()) {
        if (progress && tried % 64 === 0) progress((k + tried / order.length) / phases.length);
        const v = p.cells[i];
        if (v === UNKNOWN || (clues !== undefined && left <= clues)) continue;
        p.cells[i] = UNKNOWN;
        if (!solvableAt(p, phase)) p.cells[i] = v;
        else left--;
      }
    }
    const got = gradeCpu(p);
    if (got === level) return { puzzle: p, solution, level, attempts: attempt };
  }
  // Method 4 needs a line two cells short of a complete one it would repeat: on long lines that seldom decides
  // anything the other methods do not (level 3, seed 1: 20x20 in 6 attempts, 30x30 none in 40)
  const hint = level === 3 && width * height > 400 ? ': level 3 puzzles are rare past 20x20, where Method 4 is seldom needed' : '';
  throw new BinaryOptionError(`no ${width}x${height} puzzle of level ${level} found in ${maxAttempts} attempts${hint}`);
}

type GenerateTextOptions = { width: number; height: number; seed: number; count: number; options: Record<string, string | boolean>; progress?(done: number, total: number): void };

/** `cellsolve gen binary`: text in the grid form (default) or as game ids (`--format gameid`). */
export function generateText(opts: GenerateTextOptions): string {
  return [...generatePieces(opts)].join('');
}

/** generateText's output puzzle by puzzle, each as soon as it is made (separators included). */
export function* generatePieces(opts: GenerateTextOptions): Iterable<string> {
  const o = opts.options;
  const width = opts.width || 10;
  const height = opts.height || width;
  const level = o.level === undefined ? 2 : Number(o.level);
  // removal stops at --clues left: more than the grid's cells would leave every cell (it did so silently)
  const clues = o.clues === undefined ? undefined : numberOption(o, 'clues', 0, { whole: true, min: 0, max: width * height }, `for a ${width}x${height} grid`);
  const distinct = o.rules !== 'unruly';
  const form = o.format === undefined ? 'grid' : String(o.format);
  if (form !== 'grid' && form !== 'gameid') throw new BinaryOptionError(`gen binary --format takes grid or gameid (got '${form}')`);
  const random = rng(opts.seed);
  for (let i = 0; i < opts.count; i++) {
    const g = generatePuzzle(width, height, level, distinct, random, undefined, clues, (share) => opts.progress?.(Math.round((i + share) * 100), opts.count * 100));
    // the grid form keeps the rules in a `# rules:` line (a game id has its `u`)
    const header = `${i ? '\n' : ''}# ${width}x${height} level ${level} seed ${opts.seed} #${i + 1}\n${rulesLine(distinct)}`;
    yield form === 'gameid' ? formatGameId(width, height, g.puzzle.cells, distinct) + '\n' : header + formatGrid(width, g.puzzle.cells);
  }
}
