// Nonograms as a puzzle kind: formats (codec.ts), methods `full` (default: the line automaton, then probing and
// search on the GPU, uniqueness proven), `line` (the automaton alone) and `cpu` (the CPU reference solver), and the
// generator (generate.ts).
import { UsageError } from '../../cli/args.ts';
import type { GpuContext } from '../../gpu/context.ts';
import type { PuzzleKind, PuzzleRecord, SolveOptions, SolveResult } from '../types.ts';
import { formatGrid, formatNon, formatTournamentSolution, parseNonograms, solutionPng, type Nonogram } from './codec.ts';
import { generateCommand } from './generate.ts';
import { lineSolve, solveCpu, verify } from './reference.ts';
import { gpuLimitError } from './pack.ts';
import { compileNonogramRules, SEARCHES, solveNonograms, type NonogramResult, type Search } from './solver.ts';

function toResult(r: NonogramResult): SolveResult {
  const extra: Record<string, unknown> = { probes: r.probes, branches: r.branches, level: r.level };
  if (r.search) extra.search = r.search;
  if (r.branchScore) extra.branchScore = r.branchScore;
  if (r.search === 'cdcl') Object.assign(extra, { conflicts: r.conflicts, decisions: r.decisions, learned: r.learned });
  if (r.unique === false) extra.unique = false;
  if (r.status === 'unsolved' && r.cells) extra.partial = Array.from(r.cells, (c) => '?10'[c]).join('');
  return { status: r.status, generations: r.generations, solution: r.solution, solution2: r.solution2, reason: r.reason, extra, ms: r.ms };
}

function maxSolutionsOption(options: Record<string, string | boolean>): number {
  const v = options['max-solutions'];
  if (v === undefined) return 2;
  if (v !== '1' && v !== '2') throw new UsageError(`--max-solutions takes 1 (the first solution) or 2 (uniqueness; the default), got '${v}'`);
  return Number(v);
}

function lanesOption(options: Record<string, string | boolean>): boolean {
  const v = options.lanes;
  if (v === undefined || v === 'on') return true;
  if (v === 'off') return false;
  throw new UsageError(`--lanes takes on (the default: one puzzle per GPU invocation) or off (the rounds solver), got '${v}'`);
}

function searchOption(options: Record<string, string | boolean>): Search {
  const v = options.search ?? 'probing';
  if (typeof v !== 'string' || !SEARCHES.includes(v as Search)) throw new UsageError(`--search takes ${SEARCHES.join(', ')} (probing, the default: probing and depth-first search; cdcl: learned clauses; race: both on the hard puzzles, the first answer counts), got '${v}'`);
  return v as Search;
}

function cpuResult(p: Nonogram, opts: SolveOptions, t0: number, note?: string): SolveResult {
  if (opts.method === 'line') {
    const l = lineSolve(p);
    const status = l.status === 'stalled' ? 'unsolved' : l.status;
    const solution = l.status === 'solved' ? Array.from(l.cells, (c) => (c === 1 ? '1' : '0')).join('') : undefined;
    const extra: Record<string, unknown> = { probes: 0, branches: 0, level: 'line', note };
    if (status === 'unsolved') extra.partial = Array.from(l.cells, (c) => '?10'[c]).join('');
    return { status, generations: l.generations, solution, reason: status === 'unsolved' ? 'stalled' : undefined, extra, ms: performance.now() - t0 };
  }
  const r = solveCpu(p, { timeoutMs: opts.timeoutMs, maxSolutions: maxSolutionsOption(opts.options) });
  const extra: Record<string, unknown> = { probes: r.probes, branches: r.branches, level: r.level, settles: r.settles };
  if (note) extra.note = note;
  return { status: r.status, generations: r.generations, solution: r.solution, solution2: r.solution2, reason: r.reason, extra, ms: performance.now() - t0 };
}

async function solve(ctx: GpuContext, puzzles: Nonogram[], opts: SolveOptions): Promise<SolveResult[]> {
  if (opts.method === 'cpu') {
    const t0 = performance.now();
    return puzzles.map((p, i) => {
      const r = cpuResult(p, opts, t0);
      opts.progress?.(i + 1, puzzles.length);
      return r;
    });
  }
  // puzzles past the GPU settle's limits (lines over 127 cells, clues over 64 blocks) go to the CPU solver
  const gpu = puzzles.filter((p) => !gpuLimitError(p));
  // compiled by prepare() when the CLI runs (it times compilation apart); from the cache then
  const method = opts.method === 'line' ? 'line' : 'full';
  const lanes = lanesOption(opts.options);
  const search = searchOption(opts.options);
  await compileNonogramRules(ctx, gpu, { method, lanes, search });
  const mode = opts.options.mode === 'one-gen' ? 'one-gen' : 'multi-gen';
  const res = await solveNonograms(ctx, gpu, {
    method,
    mode,
    timeoutMs: opts.timeoutMs,
    maxGenerations: opts.maxGenerations,
    // --max-solutions 1: stop at the first solution, as tournament solvers do (`unique: false`: not proven)
    maxSolutions: maxSolutionsOption(opts.options),
    // `--lanes off`: the rounds solver for every puzzle (probe copies in a batch, the host deciding each round)
    lanes,
    search,
    progress: opts.progress,
  });
  let k = 0;
  const t1 = performance.now();
  return puzzles.map((p) => {
    const why = gpuLimitError(p);
    return why ? cpuResult(p, opts, t1, `solved on the CPU: ${why}`) : toResult(res[k++]);
  });
}

/** `#`/`.` rows with `?` for cells line logic left open. */
function partialGrid(partial: string, width: number): string {
  return formatGrid(partial.replace(/1/g, 'F').replace(/0/g, 'E'), width).replace(/F/g, '#').replace(/E/g, '.');
}

function format(record: PuzzleRecord<Nonogram>, result: SolveResult): string {
  const p = record.puzzle!;
  const where = `${record.file}:${record.line}`;
  if (result.status !== 'solved' && result.status !== 'multiple') {
    const head = `# ${where}: ${result.status}${result.reason ? ` (${result.reason})` : ''}\n`;
    const partial = result.extra?.partial as string | undefined;
    return head + (partial ? partialGrid(partial, p.width) : '') + '\n';
  }
  const sols = [result.solution!, ...(result.solution2 ? [result.solution2] : [])];
  if (record.form === 'non') {
    return sols.map((s, i) => (i ? '====\n' : '') + formatNon(p, s)).join('') + '\n';
  }
  if (record.form === 'tournament') {
    const k = p.title ?? `$${record.line}`;
    return sols.map((s) => formatTournamentSolution(k, s, p.width)).join('');
  }
  const head = result.status === 'multiple' ? `# ${where}: multiple solutions, two of them:\n` : '';
  return head + sols.map((s) => formatGrid(s, p.width)).join('\n') + '\n';
}

function formatFile(record: PuzzleRecord<Nonogram>, result: SolveResult, outFile: string): Uint8Array | string {
  const p = record.puzzle!;
  if (/\.png$/i.test(outFile)) {
    if (!result.solution) throw new Error(`${record.file}:${record.line}: no solution to draw (${result.status})`);
    return solutionPng(result.solution, p.width, p.height, Math.max(1, Math.floor(512 / Math.max(p.width, p.height))));
  }
  if (/\.non$/i.test(outFile)) return formatNon(p, result.solution);
  return format(record, result);
}

export const nonogram: PuzzleKind<Nonogram> = {
  name: 'nonogram',
  methods: ['full', 'line', 'cpu'],
  defaultMethod: 'full',
  parse: parseNonograms,
  // the GPU methods' pipelines (CLI.md: `ms` excludes compilation; the CLI reports it once)
  prepare: async (ctx, puzzles, opts) => {
    if (opts.method !== 'cpu') {
      const gpu = puzzles.filter((p) => !gpuLimitError(p));
      await compileNonogramRules(ctx, gpu, { method: opts.method === 'line' ? 'line' : 'full', lanes: lanesOption(opts.options), search: searchOption(opts.options) });
    }
  },
  solve,
  verify,
  format,
  formatFile,
  generate: generateCommand,
};
