// Nonograms as a puzzle kind: formats (codec.ts), methods `full` (default: the line automaton, then probing and
// search on the GPU, uniqueness proven), `line` (the automaton alone) and `cpu` (the CPU reference solver), and the
// generator (generate.ts).
import type { GpuContext } from '../../gpu/context.ts';
import type { PuzzleKind, PuzzleRecord, SolveOptions, SolveResult } from '../types.ts';
import { FORMS, formatGrid, formatNon, formatTournamentSolution, parseNonograms, solutionPng, type Nonogram } from './codec.ts';
import { generateCommand } from './generate.ts';
import { lineSolve, solveCpu, verify, type CpuSolveResult } from './reference.ts';
import { gpuLimitError } from './pack.ts';
import { compileNonogramRules, SEARCHES, solveNonograms, type NonogramResult, type Search } from './solver.ts';
import { laneTakes } from './lane.ts';
import { hasCpuThreads, solveOnCpuThreads } from '../cpu-pool.ts';

/** The JSON `partial` of a run that stopped: `1` filled, `0` empty, `?` unknown, row-major. */
const partialOf = (cells: ArrayLike<number>) => Array.from(cells, (c) => '?10'[c]).join('');

function toResult(r: NonogramResult): SolveResult {
  const extra: Record<string, unknown> = { probes: r.probes, branches: r.branches, level: r.level };
  if (r.search) extra.search = r.search;
  if (r.branchScore) extra.branchScore = r.branchScore;
  if (r.search === 'cdcl') Object.assign(extra, { conflicts: r.conflicts, decisions: r.decisions, learned: r.learned, decayShift: r.decayShift, filledFirst: r.filledFirst, rootProbing: r.rootProbing, targetPhases: r.targetPhases });
  if (r.cpuThread) extra.note = 'CDCL on a CPU thread beside the GPU';
  // (the thread's copy of the puzzle transposed answered: cdcl.ts CdclPortfolioRace)
  if (r.transposed) extra.transposed = true;
  if (r.unique === false) extra.unique = false;
  if (r.status === 'unsolved' && r.cells) extra.partial = partialOf(r.cells);
  return { status: r.status, generations: r.generations, solution: r.solution, solution2: r.solution2, reason: r.reason, extra, ms: r.ms };
}

// the values were checked against solveOptions' choices by the command line
const maxSolutionsOption = (options: Record<string, string | boolean>) => Number(options['max-solutions'] ?? 2);
// --max-generations caps the line automaton's generations, which the rounds solver counts (the lanes kernel runs
// line logic to its fixpoint inside a search)
const lanesOption = (opts: SolveOptions) => opts.options.lanes !== 'off' && opts.maxGenerations === undefined;
const searchOption = (options: Record<string, string | boolean>) => (options.search ?? 'auto') as Search;

/** What the GPU side runs, as prepare() compiles it and solve() runs it (the one-gen pipeline too when a cap may
 * end a run between multi-generation dispatches: compiled in the solve, it was counted in `ms`). */
function rulesOf(opts: SolveOptions) {
  return {
    method: opts.method === 'line' ? ('line' as const) : ('full' as const),
    lanes: lanesOption(opts),
    search: searchOption(opts.options),
    mode: opts.options.mode === 'one-gen' ? ('one-gen' as const) : ('multi-gen' as const),
    maxGenerations: opts.maxGenerations,
  };
}

/**
 * Under `full`, puzzles the lanes kernel cannot hold (lines past 31 cells) go to the GPU's rounds solver or to the
 * CPU solver's threads (`--long-lines`). `auto` takes the threads on a CPU-emulated adapter (SwiftShader) where
 * there are threads (Node): there the rounds solver, which decides every search node on the host between rounds,
 * ran 4-10x slower than the threads (README, "Where it stands"). In a page the CPU solver would block it, and on a
 * real GPU the rounds are cheap, so both keep the rounds solver. Under `auto`, `--lanes off` and `--max-generations`
 * ask for the rounds solver by name; an explicit `--long-lines cpu` wins over `--lanes off` (the other puzzles stay
 * on the rounds solver), and with `--max-generations`, which the CPU solver cannot honour, it is a usage error.
 */
function longLinesOnCpu(ctx: GpuContext, opts: SolveOptions): boolean {
  const choice = opts.options['long-lines'] ?? 'auto';
  if (opts.method === 'line' || opts.method === 'cpu' || choice === 'gpu') return false;
  if (choice === 'cpu') return true;
  return lanesOption(opts) && ctx.adapter.fallback && hasCpuThreads();
}

/** Why a puzzle runs on the CPU solver under `full` (the JSON's `note`), or undefined when it runs on the GPU. */
function cpuReason(p: Nonogram, longOnCpu: boolean): string | undefined {
  const limit = gpuLimitError(p);
  if (limit) return `on the CPU solver: ${limit}`;
  if (longOnCpu && !laneTakes(p)) return 'on the CPU solver: lines past 31 cells (--long-lines)';
  return undefined;
}

/** Line logic alone on the CPU (`--method line` for lines past the GPU settle's limits). */
function lineResult(p: Nonogram, note?: string): SolveResult {
  const t0 = performance.now();
  const l = lineSolve(p);
  const status = l.status === 'stalled' ? 'unsolved' : l.status;
  const solution = l.status === 'solved' ? Array.from(l.cells, (c) => (c === 1 ? '1' : '0')).join('') : undefined;
  const extra: Record<string, unknown> = { probes: 0, branches: 0, level: 'line', note };
  if (status === 'unsolved') extra.partial = partialOf(l.cells);
  return { status, generations: l.generations, solution, reason: status === 'unsolved' ? 'stalled' : undefined, extra, ms: performance.now() - t0 };
}

/** The CPU solver's answer as a result of the command line. */
function searchResult(r: CpuSolveResult, maxSolutions: number, ms: number, note?: string): SolveResult {
  const extra: Record<string, unknown> = { probes: r.probes, branches: r.branches, level: r.level, settles: r.settles };
  // stopped at its first solution, only line logic's is proven unique (as the GPU paths say)
  if (r.status === 'solved' && (maxSolutions < 2 || r.reason) && r.level !== 'line') extra.unique = false;
  if (note) extra.note = note;
  return { status: r.status, generations: r.generations, solution: r.solution, solution2: r.solution2, reason: r.reason, extra, ms };
}

/** A puzzle stopped before an answer: by the deadline or Ctrl-C, `ms` 0 if it never started. */
const stopped = (reason: string, note?: string, ms = 0): SolveResult => ({ status: 'unsolved', generations: 0, reason, extra: { probes: 0, branches: 0, ...(note ? { note } : {}) }, ms });

/**
 * The CPU solver on `which` puzzles within the call's deadline, each result reported as it comes: on a thread per
 * core in Node (../cpu-pool.ts); elsewhere (and for line logic alone, which is quick) here, one after another.
 */
async function solveOnCpu(puzzles: Nonogram[], which: number[], opts: SolveOptions, deadline: number, out: SolveResult[], notes: (string | undefined)[] = []): Promise<void> {
  const maxSolutions = maxSolutionsOption(opts.options);
  const noteOf = (i: number) => notes[i];
  let done = 0;
  const report = (i: number, r: SolveResult) => {
    out[i] = r;
    opts.onResult?.(i, r);
    opts.progress?.(++done, which.length);
  };
  if (opts.method !== 'line' && hasCpuThreads()) {
    return solveOnCpuThreads<Nonogram, CpuSolveResult>({
      from: import.meta.url,
      file: 'cpu-worker.ts',
      puzzles,
      which,
      deadline,
      signal: opts.signal,
      job: { maxSolutions },
      answer: (i, r, ms, reason) => searchResult(reason ? { ...r, reason } : r, maxSolutions, ms, noteOf(i)),
      stopped: (i, reason, ms) => stopped(reason, noteOf(i), ms),
      report,
    });
  }
  for (const i of which) {
    const left = deadline - performance.now();
    if (opts.signal?.aborted || left <= 0) report(i, stopped(opts.signal?.aborted ? 'interrupted' : 'timeout', noteOf(i)));
    else if (opts.method === 'line') report(i, lineResult(puzzles[i], noteOf(i)));
    else {
      const t0 = performance.now();
      const r = solveCpu(puzzles[i], { timeoutMs: Math.min(left, 2 ** 31), maxSolutions });
      report(i, searchResult(r, maxSolutions, performance.now() - t0, noteOf(i)));
    }
    // a turn for Ctrl-C and the GPU's rounds between puzzles (setTimeout: a page has no setImmediate)
    await new Promise((next) => setTimeout(next, 0));
  }
}

async function solve(ctx: GpuContext, puzzles: Nonogram[], opts: SolveOptions): Promise<SolveResult[]> {
  const deadline = performance.now() + (opts.timeoutMs ?? Infinity);
  const out: SolveResult[] = new Array(puzzles.length);
  if (opts.method === 'cpu') {
    await solveOnCpu(puzzles, puzzles.map((_, i) => i), opts, deadline, out);
    return out;
  }
  // puzzles past the GPU settle's limits (lines over 127 cells, clues over 64 blocks), and under `--long-lines` those
  // past the lanes kernel's, go to the CPU solver, beside the GPU's work
  const longOnCpu = longLinesOnCpu(ctx, opts);
  const reasons = puzzles.map((p) => cpuReason(p, longOnCpu));
  const onGpu = puzzles.flatMap((_, i) => (reasons[i] ? [] : [i]));
  const onCpu = puzzles.flatMap((_, i) => (reasons[i] ? [i] : []));
  const gpu = onGpu.map((i) => puzzles[i]);
  // one count of answers for both sides
  let done = 0;
  const progress = opts.progress && (() => opts.progress!(++done, puzzles.length));
  const cpuSide = solveOnCpu(puzzles, onCpu, { ...opts, progress }, deadline, out, reasons);
  // compiled by prepare() when the CLI runs (it times compilation apart); from the cache then
  const rules = rulesOf(opts);
  await compileNonogramRules(ctx, gpu, rules);
  // (`--lanes off`: the rounds solver for every puzzle, probe copies in a batch, the host deciding each round)
  const res = await solveNonograms(ctx, gpu, {
    ...rules,
    timeoutMs: opts.timeoutMs,
    signal: opts.signal,
    // --max-solutions 1: stop at the first solution, as tournament solvers do (`unique: false`: not proven)
    maxSolutions: maxSolutionsOption(opts.options),
    progress,
    onResult: opts.onResult && ((k, r) => opts.onResult!(onGpu[k], toResult(r))),
  });
  onGpu.forEach((i, k) => (out[i] = toResult(res[k])));
  await cpuSide;
  return out;
}

/** `#`/`.` rows with `?` for cells line logic left open. */
function partialGrid(partial: string, width: number): string {
  return formatGrid(partial.replace(/1/g, 'F').replace(/0/g, 'E'), width).replace(/F/g, '#').replace(/E/g, '.');
}

/** `#`/`.`/`?` rows as comment lines: a .non reader skips them. */
const commented = (rows: string) => rows.replace(/^(?=.)/gm, '# ');

/**
 * `position`: how many records' text come before this one in the same output. In .non form every record is the
 * puzzle (with `goal` when solved), `====` between them as in a .nonpack, so an output of several puzzles reads back
 * puzzle by puzzle and one puzzle's stays a plain .non; a second solution and line logic's partial grid are comments.
 */
function format(record: PuzzleRecord<Nonogram>, result: SolveResult, outFile?: string, position = 0): string {
  const p = record.puzzle!;
  const where = `${record.file}:${record.line}`;
  const answered = result.status === 'solved' || result.status === 'multiple';
  const head = answered
    ? result.status === 'multiple' ? `# ${where}: multiple solutions, two of them:\n` : ''
    : `# ${where}: ${result.status}${result.reason ? ` (${result.reason})` : ''}\n`;
  const partial = result.extra?.partial as string | undefined;
  if (record.form === 'non' || (outFile && /\.non(pack)?$/i.test(outFile))) {
    const notes = result.solution2
      ? `# ${where}: multiple solutions, the goal below and\n# goal "${result.solution2}"\n`
      : head + (partial ? commented(partialGrid(partial, p.width)) : '');
    return (position ? '====\n' : '') + notes + formatNon(p, answered ? result.solution : undefined) + '\n';
  }
  if (!answered) return head + (partial ? partialGrid(partial, p.width) : '') + '\n';
  const sols = [result.solution!, ...(result.solution2 ? [result.solution2] : [])];
  if (record.form === 'tournament') {
    const k = p.title ?? `$${record.line}`;
    return head + sols.map((s) => formatTournamentSolution(k, s, p.width)).join('');
  }
  return head + sols.map((s) => formatGrid(s, p.width)).join('\n') + '\n';
}

function picture(record: PuzzleRecord<Nonogram>, result: SolveResult): Uint8Array | undefined {
  const p = record.puzzle!;
  if (!result.solution) return undefined;
  return solutionPng(result.solution, p.width, p.height, Math.max(1, Math.floor(512 / Math.max(p.width, p.height))));
}

export const nonogram: PuzzleKind<Nonogram> = {
  name: 'nonogram',
  methods: ['full', 'line', 'cpu'],
  defaultMethod: 'full',
  methodsWithoutGenerations: ['cpu'],
  // a TAAI-sized batch runs for minutes: Ctrl-C stops it after the rounds in flight, with what was answered
  interruptible: true,
  solveOptions: [
    { name: 'search', value: 'S', choices: SEARCHES, help: 'past probing (full): auto (default: probing and depth-first search, and CDCL on CPU threads on puzzles still open after 25 rounds, or after one once the run is 1 s old on a CPU adapter such as SwiftShader; where there are no threads, the CDCL kernel after 1,000 rounds), probing (alone), cdcl (learned clauses alone), or race (both on the hard puzzles, CDCL after 80 rounds)' },
    { name: 'max-solutions', value: 'N', choices: ['1', '2'], help: '1: stop at the first solution (tournament rules); 2: prove uniqueness (default)' },
    { name: 'lanes', value: 'L', choices: ['on', 'off'], help: 'on: one puzzle per GPU invocation (default); off: the rounds solver' },
    {
      name: 'long-lines',
      value: 'W',
      choices: ['auto', 'gpu', 'cpu'],
      help: 'puzzles with lines past 31 cells (full): gpu (the rounds solver), cpu (the CPU solver, a thread per core; also with --lanes off), or auto (default: cpu on a CPU-emulated adapter such as SwiftShader, where it is faster; gpu on a real GPU; the rounds solver with --lanes off or --max-generations)',
      check: (o) =>
        o['long-lines'] === 'cpu' && o['max-generations'] !== undefined && (o.method ?? 'full') === 'full'
          ? '--long-lines cpu with --max-generations: the CPU solver counts no generations to cap (its line logic runs inside its search); --long-lines gpu caps them on the rounds solver'
          : undefined,
    },
    { name: 'mode', value: 'M', choices: ['one-gen', 'multi-gen'], help: 'line: one generation per dispatch, or to the fixpoint in one (default)' },
    { name: 'format', value: 'F', choices: FORMS, help: 'read the input as this format (default: from the extension and content)' },
    { name: 'solutions', value: 'FILE', help: 'a tournament solution file: its answers become the expected solutions' },
  ],
  genOptions: [
    { name: 'density', value: 'D', number: { above: 0, below: 1 }, help: 'share of filled cells in the random pictures (default 0.55 up to 30x30, denser past it: 0.65 at 100x100)' },
    { name: 'level', value: 'L', choices: ['line', 'probe', 'search'], help: 'the most a puzzle may need: line logic alone, probing, or search (default search: any unique puzzle)' },
    { name: 'image', value: 'PNG', help: 'the clues of this picture instead of random ones: one cell per pixel, or per block of a picture scaled up; with --size, resampled to WxH cells' },
    { name: 'format', value: 'F', choices: ['non', 'gameid', 'tournament', 'json', 'xml'], help: 'output format (default non; xml: webpbn XML, a <puzzleset>)' },
  ],
  parse: parseNonograms,
  // the GPU methods' pipelines (CLI.md: `ms` excludes compilation; the CLI reports it once)
  prepare: async (ctx, puzzles, opts) => {
    if (opts.method === 'cpu') return false;
    const longOnCpu = longLinesOnCpu(ctx, opts);
    const gpu = puzzles.filter((p) => !cpuReason(p, longOnCpu));
    if (gpu.length === 0) return false;
    await compileNonogramRules(ctx, gpu, rulesOf(opts));
  },
  solve,
  verify,
  format,
  picture,
  generate: generateCommand,
  seedPerPuzzle: true,
};
