// The maze puzzle kind (issue 3): `cellsolve solve maze [--method auto|deadend|wavefront|walker]`.
// Every method is a CA rule with a CPU twin; what the GPU leaves is read back and turned into a path (a walk
// along what dead-end filling or the walker left, or the trace-back over wavefront labels), which the CLI
// verifies on the CPU before it says solved.
import { numberOption, UsageError } from '../../cli/args.ts';
import type { GpuContext } from '../../gpu/context.ts';
import { Batch, type Mode } from '../../engine/batch.ts';
import type { Rule } from '../../engine/rule.ts';
import { interruptedByAbort, type GenerateOptions, type PuzzleKind, type PuzzleRecord, type SolveOptions, type SolveResult } from '../types.ts';
import { formatPng, formatText, MAZE_FORMATS, mazeToText, movesToPath, parseMazes, pathToMoves, type Maze, type MazeFormat } from './codec.ts';
import { generateMaze, maxLoops, mazeSizeProblem, type Algorithm } from './generate.ts';
import { labelReader, planeReader } from './pack.ts';
import { traceBack, verifyMoves, W } from './reference.ts';
import { deadendChainsRule, deadendPath, deadendSmallRule, deadendSyncRule, runDeadend, runWalker, runWavefront, walkerPath, walkerRule, wavefrontRule } from './solver.ts';

export type { Maze };

function modeOption(options: Record<string, string | boolean>, fallback: Mode): Mode {
  const m = options.mode;
  if (m === undefined) return fallback;
  if (m !== 'one-gen' && m !== 'multi-gen') throw new UsageError(`--mode takes one-gen or multi-gen (got '${m}')`);
  return m;
}

/**
 * The wavefront's default dispatch mode by grid size: measured on SwiftShader (bench/maze.ts), one generation per
 * dispatch wins on small grids (combo400: 1.2 s vs 1.8 s) and 16 per dispatch on large ones, where every dispatch
 * checks every region (braid2k: 106 s vs 162 s under the same load).
 */
export const WAVEFRONT_MULTI_GEN_CELLS = 1 << 20;

interface Partial {
  status?: SolveResult['status'];
  reason?: string;
  path?: number[];
  generations: number;
  dispatches: number;
  extra: Record<string, unknown>;
}

function neighboursOpen(maze: Maze, i: number, open: (j: number) => boolean): number {
  const { width: w, height: h } = maze;
  const x = i % w;
  return (x > 0 && open(i - 1) ? 1 : 0) + (x < w - 1 && open(i + 1) ? 1 : 0) + (i >= w && open(i - w) ? 1 : 0) + (i + w < w * h && open(i + w) ? 1 : 0);
}

/** What dead-end filling (or the walker) left: one simple path, nothing between start and end, or loops. */
function judgeLeftover(maze: Maze, path: number[] | null, open: (j: number) => boolean): Pick<Partial, 'status' | 'reason' | 'path'> {
  if (path) return { status: 'solved', path };
  // in what is left, a start or end with no open neighbour is cut off: no path exists
  if (maze.start !== maze.end && (neighboursOpen(maze, maze.start, open) === 0 || neighboursOpen(maze, maze.end, open) === 0)) {
    return { status: 'contradiction' };
  }
  return { status: 'unsolved', reason: 'loops remain (use --method wavefront or auto)' };
}

async function solveAll(ctx: GpuContext, mazes: Maze[], opts: SolveOptions): Promise<Partial[]> {
  const method = opts.method;
  const run = { maxGenerations: opts.maxGenerations, timeoutMs: opts.timeoutMs, signal: opts.signal };
  const parts: Partial[] = mazes.map(() => ({ generations: 0, dispatches: 0, extra: {} }));
  if (method === 'walker') {
    const res = await runWalker(ctx, mazes, run);
    res.forEach((r, i) => {
      const m = mazes[i];
      const on = (j: number) => r.state[j] !== W.WALL && r.state[j] !== W.FAKE && r.state[j] !== W.PATH && r.state[j] !== W.CROSS;
      Object.assign(parts[i], { generations: r.outcome.generations, dispatches: r.dispatches });
      // stopped by the cap or the timeout: a walker that has walked one path from start to exit has its answer (a cap
      // equal to the generations an uncapped run reports was 'capped')
      const path = walkerPath(m, r.state);
      if (r.outcome.status !== 'fixpoint') Object.assign(parts[i], path ? { status: 'solved', path } : { status: 'unsolved', reason: r.outcome.status });
      else Object.assign(parts[i], judgeLeftover(m, path, on));
    });
    return parts;
  }
  let open: (Uint8Array | Uint32Array)[] = mazes.map((m) => m.open);
  let toWave = mazes.map((_, i) => i);
  if (method === 'deadend' || method === 'auto') {
    const res = await runDeadend(ctx, mazes, { ...run, mode: modeOption(opts.options, 'multi-gen') });
    toWave = [];
    res.forEach((r, i) => {
      const m = mazes[i];
      const bit = planeReader(r.words, m.width);
      const on = (j: number) => bit(j) === 1;
      Object.assign(parts[i], { generations: r.outcome.generations, dispatches: r.dispatches });
      parts[i].extra.deadendGenerations = r.outcome.generations;
      if (r.cellUpdates !== undefined) parts[i].extra.cellUpdates = r.cellUpdates;
      if (r.outcome.status !== 'fixpoint') {
        // stopped by the cap or the timeout: when what is left is one path already, that is the answer
        const path = deadendPath(m, r.words);
        Object.assign(parts[i], path ? { status: 'solved', path } : { status: 'unsolved', reason: r.outcome.status });
        return;
      }
      const judged = judgeLeftover(m, deadendPath(m, r.words), on);
      if (method === 'auto' && judged.status === 'unsolved') {
        // what is left open (plane A of the dead-end state) is the wavefront's maze, still packed
        open[i] = r.words;
        toWave.push(i);
      } else Object.assign(parts[i], judged);
    });
  }
  // --max-generations caps the puzzle's generations, dead-end filling's and the wavefront's together: the wavefront
  // gets what dead-end filling left (at least 1, as a fill that reached its fixpoint stopped short of its cap)
  const cap = (i: number) => (opts.maxGenerations === undefined ? undefined : opts.maxGenerations - parts[i].generations);
  toWave = toWave.filter((i) => {
    const left = cap(i);
    if (left === undefined || left > 0) return true;
    Object.assign(parts[i], { status: 'unsolved', reason: 'capped' });
    return false;
  });
  if (toWave.length && (method === 'wavefront' || method === 'auto')) {
    const sub = toWave.map((i) => mazes[i]);
    // one batch per dispatch mode: small grids one generation per dispatch, large ones WAVE_GENERATIONS
    const res: Awaited<ReturnType<typeof runWavefront>> = new Array(sub.length);
    for (const mode of ['one-gen', 'multi-gen'] as Mode[]) {
      const pick = sub.map((m, k) => k).filter((k) => modeOption(opts.options, sub[k].width * sub[k].height >= WAVEFRONT_MULTI_GEN_CELLS ? 'multi-gen' : 'one-gen') === mode);
      if (!pick.length) continue;
      const part = await runWavefront(ctx, pick.map((k) => sub[k]), { ...run, mode, open: pick.map((k) => open[toWave[k]]), caps: pick.map((k) => cap(toWave[k])) });
      pick.forEach((k, j) => (res[k] = part[j]));
    }
    res.forEach((r, k) => {
      const i = toWave[k];
      const p = parts[i];
      p.generations += r.outcome.generations;
      p.dispatches += r.dispatches;
      p.extra.wavefrontGenerations = r.outcome.generations;
      // a wavefront stopped by the cap or the timeout after it reached the end has its answer: a cell is labelled
      // once, with its distance, so the labels up to the end's are final
      const traced = traceBack(mazes[i], labelReader(r.words, mazes[i].width, mazes[i].height));
      if (!traced) Object.assign(p, r.outcome.status === 'fixpoint' ? { status: 'contradiction' } : { status: 'unsolved', reason: r.outcome.status });
      else {
        p.status = 'solved';
        p.path = traced.path;
        p.extra.unique = traced.unique;
      }
    });
  }
  return parts;
}

/** The rules a method runs (compiled by `prepare` before the solve is timed). */
function rulesFor(method: string): Rule[] {
  const deadend = [deadendChainsRule, deadendSmallRule, deadendSyncRule];
  return method === 'walker' ? [walkerRule] : method === 'deadend' ? deadend : method === 'wavefront' ? [wavefrontRule] : [...deadend, wavefrontRule];
}

export const mazeKind: PuzzleKind<Maze> = {
  name: 'maze',
  methods: ['auto', 'deadend', 'wavefront', 'walker'],
  defaultMethod: 'auto',
  interruptible: true,
  solveOptions: [
    { name: 'mode', value: 'M', choices: ['one-gen', 'multi-gen'], help: 'one generation per dispatch, or several (default: by maze size)' },
    { name: 'format', value: 'F', choices: MAZE_FORMATS, help: 'read the input as this format (default: a PNG by its signature, else text)' },
  ],
  genOptions: [
    { name: 'loops', value: 'N', number: { whole: true, min: 0 }, help: 'walls knocked out after the perfect maze, making N loops (default 0; at most the walls the perfect maze leaves closed: 4 on 7x7, 9,801 on 201x201)' },
    { name: 'algorithm', value: 'A', choices: ['dfs', 'kruskal'], help: 'the perfect maze: depth-first (long corridors, default) or Kruskal (many short dead ends)' },
  ],
  prepare: (ctx, _puzzles, opts) => Batch.compile(ctx, rulesFor(opts.method)),

  parse(input: Uint8Array, file: string, options: Record<string, string | boolean>): PuzzleRecord<Maze>[] {
    // --format was checked against its choices before any input was read
    const format = options.format === undefined ? undefined : (String(options.format) as MazeFormat);
    return parseMazes(input, file, format).map((r) => ({ file, line: r.line, puzzle: r.maze, error: r.error, form: r.maze?.rows ? 'text' : 'png' }));
  },

  async solve(ctx: GpuContext, puzzles: Maze[], opts: SolveOptions): Promise<SolveResult[]> {
    const t0 = performance.now();
    const parts = await solveAll(ctx, puzzles, opts);
    const ms = performance.now() - t0;
    opts.progress?.(puzzles.length, puzzles.length);
    return parts.map((p, i) => {
      const solution = p.path ? pathToMoves(p.path, puzzles[i].width) : undefined;
      const result: SolveResult = {
        status: p.status ?? 'unsolved',
        generations: p.generations,
        solution,
        reason: p.reason,
        ms,
        extra: { dispatches: p.dispatches, ...(p.path ? { pathLength: p.path.length } : {}), ...p.extra },
      };
      return interruptedByAbort(result, opts);
    });
  },

  verify(puzzle: Maze, solution: string): boolean {
    return verifyMoves(puzzle, solution);
  },

  format(record: PuzzleRecord<Maze>, result: SolveResult): string {
    const maze = record.puzzle!;
    const path = result.solution !== undefined ? movesToPath(maze, result.solution) : null;
    return formatText(maze, path) + '\n';
  },

  picture(record: PuzzleRecord<Maze>, result: SolveResult): Uint8Array {
    const maze = record.puzzle!;
    return formatPng(maze, result.solution !== undefined ? movesToPath(maze, result.solution) : null);
  },

  genPictures: true,
  seedPerPuzzle: true,

  *generate(opts: GenerateOptions): Iterable<string | Uint8Array> {
    const width = opts.width || 31;
    const height = opts.height || width;
    const problem = mazeSizeProblem(width, height);
    if (problem) throw new UsageError(problem);
    // each loop opens a wall the perfect maze left closed: no more than there are (it stopped there silently)
    const loops = numberOption(opts.options, 'loops', 0, { whole: true, min: 0, max: maxLoops(width, height) }, `for a ${width}x${height} maze`);
    const algorithm = String(opts.options.algorithm ?? 'dfs'); // one of the option's choices
    const maze = (k: number) => generateMaze({ width, height, seed: opts.seed + k, loops, algorithm: algorithm as Algorithm });
    const out = opts.options.out;
    if (typeof out === 'string' && out.toLowerCase().endsWith('.png')) {
      if (opts.count !== 1) throw new UsageError('a PNG holds one maze: use --count 1 or a text --out file');
      yield formatPng(maze(0), null);
      return;
    }
    for (let k = 0; k < opts.count; k++) yield (k ? '\n' : '') + mazeToText(maze(k));
  },
};
