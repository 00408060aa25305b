// What every puzzle kind gives the front ends (CLI, viewer, benchmarks). The front ends know a kind only through
// this interface and the registry; the engine knows no kinds at all.
import type { NumberRange } from '../cli/args.ts';
import type { GpuContext } from '../gpu/context.ts';

/**
 * Runs that honour SolveOptions.signal end on an abort (Ctrl-C) as at the deadline, so their results say `timeout`:
 * this names them `interrupted` instead, unless the deadline had passed by then.
 */
export function interruptedByAbort(r: SolveResult, opts: SolveOptions): SolveResult {
  const timedOut = opts.timeoutMs !== undefined && r.ms >= opts.timeoutMs;
  return opts.signal?.aborted && r.status === 'unsolved' && r.reason === 'timeout' && !timedOut ? { ...r, reason: 'interrupted' } : r;
}

/** One puzzle read from an input, or the error that stopped it being read (CLI.md: status `error`). */
export interface PuzzleRecord<P> {
  /** file name as given on the command line, or '-' for stdin */
  file: string;
  /** 1-based line where the puzzle starts */
  line: number;
  puzzle?: P;
  /** message naming line and column, when the record could not be read */
  error?: string;
  /** the input's form (e.g. 'grid', 'gameid', 'tsv', 'png'), so output can be written in the same form */
  form?: string;
  /** a known solution given with the input (tsv files, `goal`), in the kind's solution alphabet */
  expected?: string;
}

export type Status = 'solved' | 'multiple' | 'unsolved' | 'contradiction' | 'error';

export interface SolveResult {
  status: Status;
  /** generations the puzzle itself went through (CLI.md) */
  generations: number;
  /** row-major, no separators, the kind's own symbols */
  solution?: string;
  solution2?: string;
  /** why `unsolved`: 'stalled' | 'capped' | 'timeout' ... */
  reason?: string;
  /** kind-specific JSON fields: probes, branches, level, dispatches, pathLength ... */
  extra?: Record<string, unknown>;
  /** wall time from upload to answer */
  ms: number;
}

export interface SolveOptions {
  method: string;
  maxGenerations?: number;
  timeoutMs?: number;
  seed?: number;
  /** kind-specific options from the command line (--rules, --format ...), raw strings */
  options: Record<string, string | boolean>;
  /** an abort (Ctrl-C) stops the solve soon, puzzles not answered by then coming back unsolved ('interrupted');
   * honored by kinds that say `interruptible` */
  signal?: AbortSignal;
  /** a puzzle's result as soon as it is final (index into the batch), for output that streams during a long run;
   * optional for a kind, the returned array holds the same results */
  onResult?: (index: number, result: SolveResult) => void;
  /** progress callback: done count out of total */
  progress?: (done: number, total: number) => void;
}

export interface GenerateOptions {
  width: number;
  height: number;
  seed: number;
  count: number;
  options: Record<string, string | boolean>;
  /** reads an input file a generator names in its options (e.g. a picture); the host's I/O, so kinds stay
   * free of node:fs and load in the browser */
  readFile(path: string): Uint8Array;
  /** how far a slow generator has got (the command line draws a bar on a terminal) */
  progress?(done: number, total: number): void;
}

/** A command-line option: `--help` lists it, and an option no spec names is a usage error (a typo is not ignored). */
export interface OptionSpec {
  name: string;
  /** what its value is, for the help (`N`, `FILE`); none: a flag, which takes no value */
  value?: string;
  /** the only values it takes, checked before anything is compiled or read */
  choices?: readonly string[];
  /** the numbers it takes, checked there too (so a kind reads it with Number()) */
  number?: NumberRange;
  /** when given, what is wrong with it beside the other options (a combination the kind cannot honour): the usage
   * error's message, checked there too; undefined when nothing is */
  check?: (options: Record<string, string | boolean>) => string | undefined;
  help: string;
}

export interface PuzzleKind<P = unknown> {
  /** the CLI name: `cellsolve solve <name>` */
  name: string;
  methods: string[];
  defaultMethod: string;
  /** methods that run no automaton (a CPU search): `--max-generations` is refused with them */
  methodsWithoutGenerations?: string[];
  /** solve() honors SolveOptions.signal (its runs can be long); the command line then turns Ctrl-C into an abort */
  interruptible?: boolean;
  /** the kind's own options of `solve` (beside CLI.md's common ones) */
  solveOptions: OptionSpec[];
  /** the kind's own options of `gen` (beside --size, --seed, --count, --out) */
  genOptions?: OptionSpec[];
  /** Reads every puzzle in one input. Bytes for binary formats (PNG); never throws for bad records. */
  parse(input: Uint8Array, file: string, options: Record<string, string | boolean>): PuzzleRecord<P>[];
  /** Compiles (or takes from the cache) the pipelines `solve` will run on these puzzles, so that the host times
   * compilation apart from solving and reports it once (CLI.md: `ms` excludes pipeline compilation); false: nothing
   * to compile (a CPU method). */
  prepare?(ctx: GpuContext, puzzles: P[], opts: SolveOptions): Promise<void | false>;
  /** Solves a batch on the GPU: one result per puzzle, in order. Solutions are not yet verified here. */
  solve(ctx: GpuContext, puzzles: P[], opts: SolveOptions): Promise<SolveResult[]>;
  /** The CPU verifier: is `solution` a valid answer to `puzzle`? (checked before anything is reported solved) */
  verify(puzzle: P, solution: string): boolean;
  /** Text output in the input's form family (CLI.md "Output"); `outFile`: the --out file it goes to, whose extension
   * may name another family (a nonogram's `.non`); `position`: how many records' text precede this one in the same
   * output (0: the first), for a form whose records need a separator between them (a .nonpack's `====`). */
  format(record: PuzzleRecord<P>, result: SolveResult, outFile?: string, position?: number): string;
  /** The answer as a PNG for `--out x.png` (one file per puzzle); undefined when there is nothing to draw. */
  picture?(record: PuzzleRecord<P>, result: SolveResult): Uint8Array | undefined;
  /** gen's puzzles use the seeds S, S+1, ..., S + count - 1 (so --seed and --count are refused past MAX_SEED);
   * otherwise all are drawn from one stream seeded with S */
  seedPerPuzzle?: boolean;
  /** `gen --out x.png` writes a picture (otherwise a .png --out is refused before anything is generated) */
  genPictures?: boolean;
  /** The output, yielded piece by piece as each puzzle is made (the host writes each at once, so a puzzle that fails
   * late loses none before it): text, separators included, or bytes for a binary form (a maze PNG when --out names a
   * .png file). A generator function's errors come from the iteration. */
  generate?(opts: GenerateOptions): Iterable<string | Uint8Array>;
}
