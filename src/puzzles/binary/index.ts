// Binary puzzles (Takuzu / Binairo / STPPC Unruly) as a puzzle kind: formats (codec.ts), methods `full` (default:
// our automaton by levels, then GPU probing and branching), `ca` (our automaton alone) and `thesis` (the thesis
// automaton of 3.3.2), the verifier and the generator (`gen binary --size 10x10 --level 3`).
import { UsageError } from '../../cli/args.ts';
import { Batch } from '../../engine/batch.ts';
import type { GpuContext } from '../../gpu/context.ts';
import { interruptedByAbort, type PuzzleKind, type SolveOptions, type SolveResult } from '../types.ts';
import { BinaryOptionError, formatGameId, formatGrid, parseBinary, rulesLine, stringToCells, type BinaryPuzzle, type BinaryRecord } from './codec.ts';
import { generatePieces } from './generate.ts';
import { verifySolution } from './reference.ts';
import { lanePipeline, solveFullLanes } from './lane.ts';
import { automatonResult, caRule, isSmall, runCa, runThesis, solveFull, thesisRule } from './solver.ts';
import type { BinaryCpuResult } from './cpu-worker.ts';
import { cpuChosen, searchStatus, solveOnCpuThreads } from '../cpu-pool.ts';

function usage<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof BinaryOptionError) throw new UsageError(e.message);
    throw e;
  }
}

/** Compiles the method's pipelines before the solve is timed (CLI.md: `ms` excludes compilation). */
async function prepare(ctx: GpuContext, puzzles: BinaryPuzzle[], opts: SolveOptions): Promise<void | false> {
  // every grid on the CPU search's threads: nothing to compile
  if (opts.method !== 'thesis' && opts.method !== 'ca' && largeOnCpu(ctx, opts) && !puzzles.some(isSmall)) return false;
  await Batch.compile(ctx, [opts.method === 'thesis' ? thesisRule : caRule]);
  if (opts.method !== 'thesis' && opts.method !== 'ca' && opts.options.lanes !== 'off') await lanePipeline(ctx);
}

async function solve(ctx: GpuContext, puzzles: BinaryPuzzle[], opts: SolveOptions): Promise<SolveResult[]> {
  const run = { maxGenerations: opts.maxGenerations, timeoutMs: opts.timeoutMs, signal: opts.signal };
  const interrupted = (r: SolveResult) => interruptedByAbort(r, opts);
  if (opts.method === 'thesis') {
    const r = await runThesis(ctx, puzzles, run);
    return r.map((x, i) => interrupted(automatonResult(puzzles[i], x)));
  }
  if (opts.method === 'ca') {
    const r = await runCa(ctx, puzzles, undefined, run);
    return r.map((x, i) => interrupted(automatonResult(puzzles[i], x)));
  }
  const probeCells = opts.options['probe-cells'] === undefined ? undefined : Number(opts.options['probe-cells']);
  // grids up to 32x32 one per GPU invocation (lane.ts: 1.4-1.5x the batch path's puzzles/s), the rest on the batch
  // path, or (`--large`) on the CPU search's threads; `--lanes off`: all on the batch path (probe copies in the
  // batch, the host deciding each round)
  const full = opts.options.lanes === 'off' ? solveFull : solveFullLanes;
  const large = largeOnCpu(ctx, opts);
  const toCpu = (p: BinaryPuzzle) => large && !isSmall(p);
  const onCpu = puzzles.flatMap((p, i) => (toCpu(p) ? [i] : []));
  const onGpu = puzzles.flatMap((p, i) => (toCpu(p) ? [] : [i]));
  const out: SolveResult[] = new Array(puzzles.length);
  // one count of answers for both sides
  let gpuDone = 0;
  let cpuDone = 0;
  const progress = () => opts.progress?.(gpuDone + cpuDone, puzzles.length);
  const cpuSide = solveOnCpuThreads<BinaryPuzzle, BinaryCpuResult>({
    from: import.meta.url,
    file: 'cpu-worker.ts',
    puzzles,
    which: onCpu,
    deadline: performance.now() + (opts.timeoutMs ?? Infinity),
    signal: opts.signal,
    job: { solutionLimit: 2 },
    answer: (_, r, ms, reason) => cpuResult(r, ms, reason),
    stopped: (_, reason, ms = 0) => ({ status: 'unsolved', generations: 0, reason, extra: { note: LARGE_NOTE }, ms }),
    report: (i, r) => {
      out[i] = r;
      cpuDone++;
      progress();
    },
  });
  if (onGpu.length) {
    const { results } = await full(ctx, onGpu.map((i) => puzzles[i]), {
      ...run,
      probeCells,
      progress: (d: number) => {
        gpuDone = d;
        progress();
      },
    });
    results.forEach((r, k) => (out[onGpu[k]] = interrupted(r)));
  }
  await cpuSide;
  return out;
}

/** The JSON `note` of a grid the CPU search answered. */
const LARGE_NOTE = 'on the CPU search: grids past 32x32 (--large)';

/**
 * Whether `full` puts grids past the lanes' 32x32 on the CPU search's threads (`--large`). `auto` does on a
 * CPU-emulated adapter (SwiftShader) in Node: there the batch path, whose probe rounds cost a dispatch and a readback
 * each, took a unique 64x64 of level 4 62 s where the search takes 0.4 s (a 34x34 10.3 s against 0.08 s). On a real
 * GPU the rounds are cheap, so it keeps the batch path, as do `--lanes off` and `--max-generations` (the search counts
 * no generations); `--large cpu` wins over `--lanes off`. Without worker threads (a page) the GPU keeps them.
 */
function largeOnCpu(ctx: GpuContext, opts: SolveOptions): boolean {
  return cpuChosen(opts.options.large, opts.options.lanes !== 'off' && opts.maxGenerations === undefined && ctx.adapter.fallback);
}

/** The CPU search's answer as a result of the command line (its solutions are verified by the CLI as any). */
function cpuResult(r: BinaryCpuResult, ms: number, reason = r.reason): SolveResult {
  const [solution, solution2] = r.solutions;
  const extra: Record<string, unknown> = { level: r.level, probes: r.probes, branches: r.branches, note: LARGE_NOTE };
  const status = searchStatus(r.solutions.length, reason);
  return { status, generations: 0, solution, solution2, extra, ms, reason: status === 'unsolved' ? reason : undefined };
}

/** Output in the input's form: grids, game ids, or tsv rows with the solution column filled. */
function format(record: BinaryRecord, result: SolveResult): string {
  const p = record.puzzle!;
  const grids = [result.solution, result.solution2].filter((s): s is string => s !== undefined).map((s) => stringToCells(s) as Uint8Array);
  const note = result.status === 'solved' ? '' : `# ${result.status}${result.reason ? ` (${result.reason})` : ''}\n`;
  if (record.form === 'tsv') {
    const cols = [...p.tsv!.columns];
    while (cols.length < 7) cols.push('');
    cols[5] = result.solution ?? '';
    return (p.tsv!.header ? p.tsv!.header + '\n' : '') + cols.join('\t') + '\n';
  }
  if (record.form === 'gameid') {
    if (grids.length === 0) return note + formatGameId(p.width, p.height, p.cells, p.distinct) + '\n';
    return note + grids.map((g) => formatGameId(p.width, p.height, g, p.distinct) + '\n').join('');
  }
  const partial = result.extra?.partial;
  // the grid form keeps an unruly puzzle's rules in a `# rules:` line, so the output reads back as the same puzzle
  const rules = rulesLine(p.distinct);
  if (grids.length === 0) return note + rules + formatGrid(p.width, typeof partial === 'string' ? (stringToCells(partial) as Uint8Array) : p.cells) + '\n';
  return note + rules + grids.map((g) => formatGrid(p.width, g)).join('\n') + '\n';
}

export const binary: PuzzleKind<BinaryPuzzle> = {
  name: 'binary',
  methods: ['full', 'ca', 'thesis'],
  defaultMethod: 'full',
  interruptible: true,
  solveOptions: [
    { name: 'rules', value: 'R', choices: ['takuzu', 'binairo', 'all', 'unruly'], help: 'takuzu/binairo/all: all three rules; unruly: equal lines allowed (default: what the input says, else all)' },
    { name: 'format', value: 'F', choices: ['grid', 'gameid', 'tsv'], help: 'read the input as this format (default: from the extension and content)' },
    { name: 'probe-cells', value: 'N', number: { whole: true, min: 1 }, help: 'full: cells probed per round and puzzle' },
    { name: 'lanes', value: 'L', choices: ['on', 'off'], help: 'full: one puzzle per GPU invocation (on, default) or the batch path (off)' },
    {
      name: 'large',
      value: 'W',
      choices: ['auto', 'gpu', 'cpu'],
      help: 'grids past 32x32 (full): gpu (the batch path), cpu (the CPU search, a thread per core; also with --lanes off), or auto (default: cpu on a CPU-emulated adapter such as SwiftShader, where it is faster; gpu on a real GPU, with --lanes off or --max-generations)',
      check: (o) => (o.large === 'cpu' && o['max-generations'] !== undefined && (o.method ?? 'full') === 'full' ? '--large cpu with --max-generations: the CPU search counts no generations to cap' : undefined),
    },
  ],
  genOptions: [
    { name: 'level', value: 'L', choices: ['1', '2', '3', '4'], help: 'exactly this level (thesis 4.3; default 2)' },
    { name: 'clues', value: 'N', number: { whole: true, min: 0 }, help: 'stop removing clues at N left (at most the grid\'s cells)' },
    { name: 'rules', value: 'R', choices: ['takuzu', 'binairo', 'all', 'unruly'], help: 'unruly: equal lines allowed (default: all three rules)' },
    { name: 'format', value: 'F', choices: ['grid', 'gameid'], help: 'output format (default grid)' },
  ],
  parse: (input, file, options) => usage(() => parseBinary(input, file, options)),
  prepare,
  solve,
  verify: verifySolution,
  format,
  *generate(opts) {
    // the options' errors come as each puzzle is made
    const pieces = generatePieces(opts)[Symbol.iterator]();
    for (let piece; !(piece = usage(() => pieces.next())).done; ) yield piece.value;
  },
};
