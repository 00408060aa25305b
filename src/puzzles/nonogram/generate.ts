// `cellsolve gen nonogram`: puzzles from random pictures (or a PNG), keeping only those with exactly one solution
// (the CPU solver counts up to two), each labelled with the weakest means that solves it: line logic alone (the
// automaton), probing, or search.
import { UsageError } from '../../cli/args.ts';
import type { GenerateOptions } from '../types.ts';
import { formatGameId, formatNon, formatTournament, formatXmlPuzzle, pictureToPuzzle, readPicture, XML_SET, type Nonogram } from './codec.ts';
import { solveCpu, type Level } from './reference.ts';

export interface Generated {
  puzzle: Nonogram;
  solution: string;
  level: Level;
  seed: number;
  /** pictures drawn before this one was unique */
  tries: number;
  /** cells of the last picture flipped to make it unique */
  flips: number;
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
/**
 * A random picture's uniqueness is checked by the CPU solver, whose line logic alone takes ~20 s on a 640x640 (at the
 * default density; `gen nonogram --size 640x640 --seed 1` 57 s, three checks) and ~33 s on a 700x700, past CHECK_MS.
 */
const MAX_GENERATED_CELLS = 640 * 640;
/** how long the CPU solver may take to tell whether a picture is unique */
const CHECK_MS = 30_000;
/** the density of random pictures up to 30x30 (defaultDensity past it) */
const SMALL_DENSITY = 0.55;
/** cells flipped in a picture with a second solution before a new picture is drawn */
const MAX_REPAIRS = 32;
/** how long one puzzle may be looked for: sparse pictures under --level line can take thousands of draws */
const GIVE_UP_MS = 60_000;

/**
 * A uniquely solvable puzzle from random pictures of the given size and density (filled share), drawn from `seed`
 * until one is unique (and, with `maxLevel`, needs no more than that level). A picture with a second solution is
 * repaired rather than dropped: one cell where the two solutions differ is flipped and the picture checked again,
 * up to `MAX_REPAIRS` times. Random pictures past ~40x40 are almost never unique as drawn (60x60: none of 8), but
 * a few flips make them so (60x60: unique after 9 and 3 flips, 15 s and 6 s, each check ~0.5-2 s). Not "exactly
 * that level": random pictures of 20x20 that are unique and need search are rare (none in 10,000 at density 0.55;
 * at 0.45 the first after 3,023 pictures and 660 s, the multiple-solution ones being slow to tell apart).
 */
export function generateRandom(width: number, height: number, seed: number, density = SMALL_DENSITY, maxLevel: Level = 'search', maxTries = 10_000): Generated {
  const rnd = random(seed);
  let timeouts = 0;
  const t0 = performance.now();
  let tries = 1;
  for (; tries <= maxTries && performance.now() - t0 < GIVE_UP_MS; tries++) {
    const cells = Array.from({ length: width * height }, () => (rnd() < density ? 1 : 0));
    for (let repairs = 0; ; repairs++) {
      const puzzle = pictureToPuzzle(cells, width, height, `random ${width}x${height} seed ${seed}`);
      const res = solveCpu(puzzle, { timeoutMs: CHECK_MS });
      if (res.status === 'solved') {
        if (levels.indexOf(res.level!) > levels.indexOf(maxLevel)) break;
        return { puzzle, solution: res.solution!, level: res.level!, seed, tries, flips: repairs };
      }
      if (res.status === 'unsolved' && ++timeouts === 2) {
        const byDefault = defaultDensity(width, height);
        const denser = density < byDefault ? ` or a higher --density (the default for ${width}x${height} is ${byDefault})` : '';
        throw new UsageError(`the CPU solver could not tell within ${CHECK_MS / 1000} s whether random ${width}x${height} pictures of density ${density} are unique (twice): try a smaller size${denser}`);
      }
      if (res.status !== 'multiple' || repairs === MAX_REPAIRS) break;
      const other = res.solution === cells.join('') ? res.solution2! : res.solution!;
      const differ = cells.flatMap((c, i) => (String(c) === other[i] ? [] : [i]));
      cells[differ[Math.floor(rnd() * differ.length)]] ^= 1;
    }
  }
  const within = tries > maxTries ? `${maxTries} random pictures` : `${GIVE_UP_MS / 1000} s (${tries - 1} random pictures)`;
  throw new UsageError(`no uniquely solvable ${width}x${height} puzzle of level ${maxLevel} or below within ${within} of density ${density}: try another size or --density`);
}

/**
 * The density of random pictures when --density is not given: 0.55 up to 30x30, denser past it (0.61 at 60x60, 0.65
 * at 100x100, 0.71 at 200x200, at most 0.8). Random pictures go through a sharp change with density (as Batenburg
 * and Kosters found): below it line logic settles almost nothing and a picture is far from unique, above it line
 * logic settles nearly every cell and a few flips make it unique. At 100x100 (seed 2; line logic's unknown cells,
 * then the CPU solver's check): 0.6 leaves 9,985 of 10,000 unknown and the check takes 20,000+ probes; 0.65 leaves 8
 * (18 probes). At 200x200: 0.65 leaves 39,981 of 40,000, 0.7 8. The change moves up with the lines' length, about
 * 0.06 for each doubling past 30 cells; at 25x25, 0.55 keeps the hard puzzles of TAAI's kind.
 */
export function defaultDensity(width: number, height: number): number {
  const n = Math.sqrt(width * height);
  return n <= 30 ? SMALL_DENSITY : Math.min(0.8, Math.round((SMALL_DENSITY + 0.06 * Math.log2(n / 30)) * 100) / 100);
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
    case 'xml':
      return formatXmlPuzzle(g.puzzle, g.solution);
    default:
      throw new UsageError(`--format: unknown '${format}' for generated nonograms (non, gameid, tournament, json, xml)`);
  }
}

/** The `gen` command: --size WxH, --seed, --count, --density, --level line|probe|search (at most), --image PNG, --format.
 * Each puzzle's text is yielded as soon as it is made. */
export function* generateCommand(opts: GenerateOptions): Iterable<string> {
  const o = opts.options;
  const format = typeof o.format === 'string' ? o.format : 'non';
  const note = (s: string) => process.stderr.write(s + '\n');
  const tooLarge = (w: number, h: number, hint = '') => {
    if (w * h > MAX_GENERATED_CELLS) throw new UsageError(`a generated nonogram has at most ${MAX_GENERATED_CELLS.toLocaleString('en-US')} cells, 640x640 (got ${w}x${h}${hint}): the CPU check of uniqueness takes minutes past it`);
  };
  if (opts.width) tooLarge(opts.width, opts.height || opts.width);
  const maxLevel = (typeof o.level === 'string' ? o.level : 'search') as Level;
  if (!levels.includes(maxLevel)) throw new UsageError(`--level: unknown '${maxLevel}' (line, probe, search)`);
  if (format === 'tournament' && opts.width && opts.width !== (opts.height || opts.width)) {
    throw new UsageError(`the tournament format holds square puzzles only (got --size ${opts.width}x${opts.height}): use --format non, json or gameid`);
  }
  if (typeof o.image === 'string') {
    const unused = ['count', 'seed', 'density'].filter((name) => o[name] !== undefined);
    if (unused.length) throw new UsageError(`--image makes one puzzle from the picture: ${unused.map((n) => `--${n}`).join(', ')} would be ignored`);
    let pic;
    try {
      pic = readPicture(opts.readFile(o.image), opts.width ? { width: opts.width, height: opts.height || opts.width } : undefined);
    } catch (e) {
      if (e instanceof UsageError) throw e;
      throw new UsageError(`${o.image}: not a readable PNG (${(e as Error).message})`);
    }
    if (format === 'tournament' && pic.width !== pic.height) {
      throw new UsageError(`the tournament format holds square puzzles only (the picture is ${pic.width}x${pic.height} cells): use --format non, json, xml or gameid`);
    }
    tooLarge(pic.width, pic.height, `: ${pic.how}; --size WxH resamples the picture`);
    const g = fromPicture(pic.cells, pic.width, pic.height, o.image.replace(/^.*\//, ''));
    const unsolved = g.status === 'contradiction' ? 'contradiction' : `not solved (${g.reason ?? g.status})`;
    const verdict =
      g.status === 'solved' ? `uniquely solvable, ${g.level === 'line' ? 'line logic alone suffices' : `needs ${g.level}`}` : g.status === 'multiple' ? 'NOT uniquely solvable (two solutions found)' : unsolved;
    note(`${o.image}: ${pic.pixels}, ${pic.width}x${pic.height} cells (${pic.how}), ${verdict}`);
    if (g.status !== 'solved') throw new UsageError(`${o.image}: ${g.status === 'multiple' ? "the picture's clues have more than one solution" : unsolved}; not kept${g.status === 'unsolved' && !opts.width ? ' (--size WxH resamples the picture to fewer cells)' : ''}`);
    if (levels.indexOf(g.level!) > levels.indexOf(maxLevel)) throw new UsageError(`${o.image}: its clues need ${g.level}, more than --level ${maxLevel}; not kept`);
    yield wrapped(formatOne(g, 0, format), true, true);
    return;
  }
  const w = opts.width || 20;
  const h = opts.height || w;
  const density = o.density === undefined ? defaultDensity(w, h) : Number(o.density);
  if (o.density === undefined && density !== SMALL_DENSITY) note(`density ${density} (denser for large sizes, where random pictures of ${SMALL_DENSITY} are far from unique; --density D sets it)`);
  for (let k = 0; k < opts.count; k++) {
    const seed = opts.seed + k;
    const g = generateRandom(w, h, seed, density, maxLevel);
    note(`seed ${seed}: ${w}x${h} uniquely solvable after ${g.tries} picture${g.tries > 1 ? 's' : ''}${g.flips ? ` and ${g.flips} cell${g.flips > 1 ? 's' : ''} flipped` : ''}; ${g.level === 'line' ? 'line logic alone suffices' : `line logic stalls, ${g.level === 'probe' ? 'probing' : 'search'} needed`}`);
    const separator = k && format === 'non' ? '====\n' : '';
    yield wrapped(separator + formatOne(g, k, format).replace(/^title "(.*)"$/m, `title "$1"\ncatalogue "cellsolve gen nonogram, level ${g.level}"`), k === 0, k === opts.count - 1);
  }
  // an XML set's puzzles sit in one <puzzleset>: its head comes with the first, its tail with the last
  function wrapped(piece: string, first: boolean, last: boolean): string {
    if (format !== 'xml') return piece;
    return (first ? XML_SET.head : '') + piece + (last ? XML_SET.tail : '');
  }
}
