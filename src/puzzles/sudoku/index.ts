// Sudoku as a puzzle kind: formats (codec.ts), methods `full` (default: elimination automaton + branching on the
// GPU), `ca` (the automaton alone, its rules logged per generation) and `ilca` (the paper's learning automaton),
// and the generator.
import { UsageError } from '../../cli/args.ts';
import type { GpuContext } from '../../gpu/context.ts';
import { interruptedByAbort, type GenerateOptions, type PuzzleKind, type SolveOptions, type SolveResult } from '../types.ts';
import { boxShape, formatRecord, parseSudoku, SUDOKU_FORMS } from './codec.ts';
import { emptyPuzzle, formatGenerated, generate } from './generate.ts';
import { compileIlca, hash32, ILCA_PRESETS, runIlca, type IlcaParams } from './ilca.ts';
import { RULE_HIDDEN, RULE_LOCKED, RULE_NAKED, RULES_ALL, shapeError, verify, type SudokuPuzzle } from './reference.ts';
import { Batch } from '../../engine/batch.ts';
import { cpuChosen } from '../cpu-pool.ts';
import { caToResult, compileFull, runCa, solutionString, solveFull, sudokuRule } from './solver.ts';

export function parseRules(spec: string | boolean | undefined): number {
  if (spec === undefined || spec === true) return RULES_ALL;
  let rules = 0;
  for (const name of String(spec).split(',')) {
    const r = { naked: RULE_NAKED, hidden: RULE_HIDDEN, locked: RULE_LOCKED, all: RULES_ALL }[name.trim()];
    if (r === undefined) throw new UsageError(`--rules: unknown rule '${name}' (naked, hidden, locked, all)`);
    rules |= r;
  }
  return rules;
}

export function ilcaParams(options: Record<string, string | boolean>): IlcaParams {
  const preset = String(options.preset ?? 'base');
  const base = ILCA_PRESETS[preset];
  if (!base) throw new UsageError(`--preset: unknown '${preset}' (${Object.keys(ILCA_PRESETS).join(', ')})`);
  const num = (k: string, d: number) => Number(options[k] ?? d);
  return { lr: num('lr', base.lr), lp: num('lp', base.lp), sr: num('sr', base.sr), steps: num('steps', base.steps), eliminate: base.eliminate || options.eliminate === 'true', capped: base.capped || options.capped === 'true' };
}

/** run r of puzzle i under a base seed: the ILCA's seed (same seed, same result) */
export function ilcaSeed(seed: number, index: number, run: number): number {
  return hash32((seed + hash32(index * 64 + run)) >>> 0);
}

/** Compiles the method's pipelines before the solve is timed. */
async function prepare(ctx: GpuContext, puzzles: SudokuPuzzle[], opts: SolveOptions): Promise<void> {
  if (opts.method === 'ca') await Batch.compile(ctx, [sudokuRule]);
  else if (opts.method === 'ilca') await compileIlca(ctx, puzzles);
  else await compileFull(ctx, puzzles, parseRules(opts.options.rules));
}

async function solve(ctx: GpuContext, puzzles: SudokuPuzzle[], opts: SolveOptions): Promise<SolveResult[]> {
  const rules = parseRules(opts.options.rules);
  if (opts.method === 'ca') {
    const r = await runCa(ctx, puzzles, { rules, timeoutMs: opts.timeoutMs, signal: opts.signal, maxGenerations: opts.maxGenerations });
    return r.map((x, i) => interruptedByAbort(caToResult(puzzles[i], x), opts));
  }
  if (opts.method === 'ilca') {
    const params = ilcaParams(opts.options);
    if (opts.maxGenerations) params.steps = opts.maxGenerations;
    const runs = Number(opts.options.runs ?? 1);
    const seed = opts.seed ?? 1;
    const jobs = puzzles.flatMap((puzzle, i) => Array.from({ length: runs }, (_, run) => ({ puzzle, seed: ilcaSeed(seed, i, run) })));
    const deadline = opts.timeoutMs !== undefined ? performance.now() + opts.timeoutMs : undefined;
    const r = await runIlca(ctx, jobs, params, opts.progress, { deadline, signal: opts.signal });
    return puzzles.map((p, i): SolveResult => {
      const mine = r.slice(i * runs, (i + 1) * runs);
      const won = mine.filter((x) => x.solved);
      const first = won[0];
      const ran = mine.filter((x) => !x.stopped);
      const extra = { runs, resolved: won.length, steps: ran.map((x) => x.steps), seed, lr: params.lr, lp: params.lp, sr: params.sr };
      const ms = Math.max(...mine.map((x) => x.ms));
      if (first) return { status: 'solved', generations: first.steps, solution: solutionString(p, first.values), extra, ms };
      const partial = ran.length ? { partial: solutionString(p, ran[0].values) } : {};
      // runs the deadline or Ctrl-C kept from starting: not capped, stopped (interruptedByAbort names an abort)
      if (ran.length < runs) return interruptedByAbort({ status: 'unsolved', reason: 'timeout', generations: Math.max(0, ...ran.map((x) => x.steps)), extra: { ...extra, ...partial }, ms }, opts);
      return { status: 'unsolved', reason: 'capped', generations: params.steps, extra: { ...extra, ...partial }, ms };
    });
  }
  const { results } = await solveFull(ctx, puzzles, { rules, timeoutMs: opts.timeoutMs, signal: opts.signal, progress: opts.progress, handedBack: handedBackTo(ctx, opts) });
  return results.map((r) => interruptedByAbort(r, opts));
}

/**
 * Where `full` sends the puzzles the lanes hand back (`--handed-back`): `auto` takes the CPU search's threads on a
 * CPU-emulated adapter (SwiftShader) in Node, where the rounds solver's dispatches and readbacks cost more than the
 * search (an empty 25x25: 40 s against 0.05 s), and the rounds solver on a real GPU or without worker threads.
 */
function handedBackTo(ctx: GpuContext, opts: SolveOptions): 'rounds' | 'cpu' {
  return cpuChosen(opts.options['handed-back'], ctx.adapter.fallback) ? 'cpu' : 'rounds';
}

function* gen(opts: GenerateOptions): Iterable<string> {
  const n = opts.width || 9;
  if (opts.height && opts.height !== n) throw new UsageError(`a sudoku is square: give --size N (got ${opts.width}x${opts.height})`);
  let box: { boxW: number; boxH: number };
  try {
    box = boxShape(n, typeof opts.options.box === 'string' ? opts.options.box : undefined, 1);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const shape = emptyPuzzle(n, box.boxW, box.boxH);
  const unsupported = shapeError(shape);
  if (unsupported) throw new UsageError(unsupported);
  // Random removal leaves 9x9 grids at ~23-25 clues (28-31%), 16x16 at 92-98 (36-38%): 32% is a target only up to
  // 9x9; past it the default is as few as one grid's removal reaches, which takes a second instead of 200 grids.
  const given = opts.options.clues !== undefined;
  const clues = given ? Number(opts.options.clues) : n <= 9 ? Math.round(n * n * 0.32) : 0;
  for (let k = 0; k < opts.count; k++) {
    const seed = opts.seed + k;
    const g = generate(shape, clues, seed, given || n <= 9 ? undefined : 1);
    if (given && g.clues > clues) process.stderr.write(`seed ${seed}: kept the fewest clues reached, ${g.clues}, not the ${clues} asked for\n`);
    yield formatGenerated(g, seed) + '\n';
  }
}

export const sudoku: PuzzleKind<SudokuPuzzle> = {
  name: 'sudoku',
  methods: ['full', 'ca', 'ilca'],
  defaultMethod: 'full',
  interruptible: true,
  solveOptions: [
    { name: 'rules', value: 'R,...', help: 'the automaton\'s rules: naked, hidden, locked, all (default all)' },
    { name: 'box', value: 'WxH', help: 'box shape (default: as square as possible, wider than tall)' },
    { name: 'diagonal', help: 'X-sudoku: the two diagonals hold every value too' },
    { name: 'x', help: 'the same as --diagonal' },
    {
      name: 'handed-back',
      value: 'W',
      choices: ['auto', 'gpu', 'cpu'],
      help: 'full: puzzles past the lanes\' stack or node cap (sparse large grids) go to gpu (the rounds solver), cpu (the CPU search, a thread per core), or auto (default: cpu on a CPU-emulated adapter such as SwiftShader, where it is faster; gpu on a real GPU)',
    },
    { name: 'format', value: 'F', choices: SUDOKU_FORMS, help: 'read the input as this format (default: from the text: grids drawn over n lines, one puzzle per line, Solo game ids, puzz.link URLs, .tsv rows)' },
    { name: 'preset', value: 'P', choices: Object.keys(ILCA_PRESETS), help: 'ilca: the paper\'s parameters (default base)' },
    { name: 'lr', value: 'X', number: { min: 0 }, help: 'ilca: reward rate' },
    { name: 'lp', value: 'X', number: { min: 0 }, help: 'ilca: penalty rate' },
    { name: 'sr', value: 'N', number: { whole: true, min: 0 }, help: 'ilca: reset every N steps (0: never)' },
    { name: 'steps', value: 'N', number: { whole: true, min: 1 }, help: 'ilca: time-steps per run' },
    { name: 'runs', value: 'N', number: { whole: true, min: 1 }, help: 'ilca: runs per puzzle, each with its own seed (default 1)' },
    { name: 'eliminate', value: 'B', choices: ['true', 'false'], help: 'ilca: start from the elimination automaton\'s candidates' },
    { name: 'capped', value: 'B', choices: ['true', 'false'], help: 'ilca: weights capped at 1 instead of normalised' },
  ],
  genOptions: [
    { name: 'box', value: 'WxH', help: 'box shape (default: as square as possible)' },
    { name: 'clues', value: 'N', number: { whole: true, min: 0 }, help: 'clues to keep (default 32% of the cells up to 9x9, else as few as removal reaches)' },
  ],
  parse: parseSudoku,
  prepare,
  solve,
  verify,
  format: (record, result) => formatRecord(record, result) + '\n',
  generate: gen,
  seedPerPuzzle: true,
};
