// `cellsolve gen nonogram`: puzzles from random pictures (or a PNG), keeping only those with exactly one solution
// (the CPU solver counts up to two), each labelled with the weakest means that solves it: line logic alone (the
// automaton), probing, or search.
import { UsageError } from '../../cli/args.ts';
import type { GenerateOptions } from '../types.ts';
import { formatGameId, formatNon, formatTournament, pictureToPuzzle, readPicture, type Nonogram } from './codec.ts';
import { solveCpu, type Level } from './reference.ts';

export interface Generated {
  puzzle: Nonogram;
  solution: string;
  level: Level;
  seed: number;
  /** pictures drawn before this one was unique */
  tries: number;
}

/** xorshift32 over a seed: deterministic pictures per seed */
function random(seed: number) {
  let s = (seed * 2654435761) >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

const levels: Level[] = ['line', 'probe', 'search'];
/** A random picture's uniqueness is checked by the CPU solver; past this it is out of reach (200x200 took minutes). */
const MAX_GENERATED_CELLS = 1 << 20;

/**
 * A uniquely solvable puzzle from random pictures of the given size and density (filled share), drawn from `seed`
 * until one is unique (and, with `maxLevel`, needs no more than that level). Not "exactly that level": random
 * pictures of 20x20 that are unique and need search are rare (none in 10,000 at density 0.55; at 0.45 the first
 * after 3,023 pictures and 660 s, the multiple-solution ones being slow to tell apart).
 */
export function generateRandom(width: number, height: number, seed: number, density = 0.55, maxLevel: Level = 'search', maxTries = 10_000): Generated {
  const rnd = random(seed);
  for (let tries = 1; tries <= maxTries; tries++) {
    const cells = Array.from({ length: width * height }, () => (rnd() < density ? 1 : 0));
    const puzzle = pictureToPuzzle(cells, width, height, `random ${width}x${height} seed ${seed}`);
    const res = solveCpu(puzzle, { timeoutMs: 30_000 });
    if (res.status !== 'solved' || levels.indexOf(res.level!) > levels.indexOf(maxLevel)) continue;
    return { puzzle, solution: res.solution!, level: res.level!, seed, tries };
  }
  throw new UsageError(`no uniquely solvable ${width}x${height} puzzle of level ${maxLevel} or below within ${maxTries} random pictures of density ${density}: try another size or --density`);
}

/** The puzzle of a picture, and whether it is uniquely solvable (and by what). */
export function fromPicture(cells: ArrayLike<number>, width: number, height: number, title?: string) {
  const puzzle = pictureToPuzzle(cells, width, height, title);
  const res = solveCpu(puzzle, { timeoutMs: 60_000 });
  return { puzzle, solution: Array.from(cells).join(''), status: res.status, level: res.level, reason: res.reason };
}

function formatOne(g: { puzzle: Nonogram; solution: string }, k: number, format: string): string {
  switch (format) {
    case 'gameid':
      return formatGameId(g.puzzle) + '\n';
    case 'tournament':
      return formatTournament(k + 1, g.puzzle);
    case 'json':
      return JSON.stringify({ title: g.puzzle.title, rows: g.puzzle.rows, columns: g.puzzle.columns, goal: g.solution }) + '\n';
    case 'non':
      return formatNon(g.puzzle, g.solution);
    default:
      throw new UsageError(`--format: unknown '${format}' for generated nonograms (non, gameid, tournament, json)`);
  }
}

/** The `gen` command: --size WxH, --seed, --count, --density, --level line|probe|search (at most), --image PNG, --format. */
export function generateCommand(opts: GenerateOptions): string {
  const o = opts.options;
  const format = typeof o.format === 'string' ? o.format : 'non';
  const out: string[] = [];
  const note = (s: string) => process.stderr.write(s + '\n');
  const tooLarge = (w: number, h: number, hint = '') => {
    if (w * h > MAX_GENERATED_CELLS) throw new UsageError(`a generated nonogram has at most ${MAX_GENERATED_CELLS.toLocaleString('en-US')} cells, 1024x1024 (got ${w}x${h}${hint})`);
  };
  if (opts.width) tooLarge(opts.width, opts.height || opts.width);
  if (typeof o.image === 'string') {
    const pic = readPicture(opts.readFile(o.image), opts.width ? { width: opts.width, height: opts.height || opts.width } : undefined);
    tooLarge(pic.width, pic.height, `: ${pic.how}; --size WxH resamples the picture`);
    const g = fromPicture(pic.cells, pic.width, pic.height, o.image.replace(/^.*\//, ''));
    const unsolved = g.status === 'contradiction' ? 'contradiction' : `not solved (${g.reason ?? g.status})`;
    const verdict =
      g.status === 'solved' ? `uniquely solvable, ${g.level === 'line' ? 'line logic alone suffices' : `needs ${g.level}`}` : g.status === 'multiple' ? 'NOT uniquely solvable (two solutions found)' : unsolved;
    note(`${o.image}: ${pic.pixels}, ${pic.width}x${pic.height} cells (${pic.how}), ${verdict}`);
    if (g.status !== 'solved') throw new UsageError(`${o.image}: ${g.status === 'multiple' ? "the picture's clues have more than one solution" : unsolved}; not kept${g.status === 'unsolved' && !opts.width ? ' (--size WxH resamples the picture to fewer cells)' : ''}`);
    return formatOne(g, 0, format);
  }
  const density = Number(o.density ?? 0.55);
  const maxLevel = (typeof o.level === 'string' ? o.level : 'search') as Level;
  if (!levels.includes(maxLevel)) throw new UsageError(`--level: unknown '${maxLevel}' (line, probe, search)`);
  const w = opts.width || 20;
  const h = opts.height || w;
  for (let k = 0; k < opts.count; k++) {
    const seed = opts.seed + k;
    const g = generateRandom(w, h, seed, density, maxLevel);
    note(`seed ${seed}: ${w}x${h} uniquely solvable after ${g.tries} picture${g.tries > 1 ? 's' : ''}; ${g.level === 'line' ? 'line logic alone suffices' : `line logic stalls, ${g.level === 'probe' ? 'probing' : 'search'} needed`}`);
    out.push(formatOne(g, k, format).replace(/^title "(.*)"$/m, `title "$1"\ncatalogue "cellsolve gen nonogram, level ${g.level}"`));
  }
  return out.join(format === 'non' ? '====\n' : '');
}
