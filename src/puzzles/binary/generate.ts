// Puzzle generation at a chosen level of the thesis' difficulty model (4.3): a random solution grid (the CPU
// search with random value order), then clues removed in random order while the puzzle stays solvable by that
// level's methods (level 4: Methods 1-4 and probing). The result is kept when it really needs the level: not
// solvable with the level below. Every puzzle is therefore solved by deduction: its solution is unique.
// Deterministic for a seed.
import { BinaryOptionError, formatGameId, formatGrid, sizeProblem, UNKNOWN, type BinaryPuzzle } from './codec.ts';
import { LEVEL_METHODS } from './reference.ts';
import { BinarySearch, gradeCpu } from './search.ts';

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
 * A random valid solution grid: the CPU search on the empty grid with random values at its branch points. Random
 * early choices can doom a search that only fails deep down, so each try has a budget of branch points and a new
 * try starts over with other random choices (restarts beat backtracking here: 14x14 in milliseconds).
 */
export function randomSolution(width: number, height: number, distinct: boolean, random: () => number): Uint8Array {
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
export function generatePuzzle(width: number, height: number, level: number, distinct: boolean, random: () => number, maxAttempts = 200, clues?: number): GeneratedPuzzle {
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
    for (const phase of level === 4 ? [3, 4] : [level]) {
      for (const i of order) {
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
  throw new BinaryOptionError(`no ${width}x${height} puzzle of level ${level} found in ${maxAttempts} attempts`);
}

/** `cellsolve gen binary`: text in the grid form (default) or as game ids (`--format gameid`). */
export function generateText(opts: { width: number; height: number; seed: number; count: number; options: Record<string, string | boolean> }): string {
  const o = opts.options;
  const width = opts.width || 10;
  const height = opts.height || width;
  const level = o.level === undefined ? 2 : Number(o.level);
  const clues = o.clues === undefined ? undefined : Number(o.clues);
  const distinct = o.rules !== 'unruly';
  const form = o.format === undefined ? 'grid' : String(o.format);
  if (form !== 'grid' && form !== 'gameid') throw new BinaryOptionError(`gen binary --format takes grid or gameid (got '${form}')`);
  const random = rng(opts.seed);
  const out: string[] = [];
  for (let i = 0; i < opts.count; i++) {
    const g = generatePuzzle(width, height, level, distinct, random, 200, clues);
    out.push(form === 'gameid' ? formatGameId(width, height, g.puzzle.cells, distinct) + '\n' : `# ${width}x${height} level ${level} seed ${opts.seed} #${i + 1}\n` + formatGrid(width, g.puzzle.cells));
  }
  return out.join(form === 'gameid' ? '' : '\n');
}
