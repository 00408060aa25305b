// Maze benchmark (issue 3). Cases, each beside a CPU breadth-first search measured in the same run:
// - perfect4k (mikepound, 16 M cells; perfect2k with --quick; a generated maze when ../shared is absent):
//   dead-end filling in place (multi-gen), time from the parsed maze to the path, dispatches, the synchronous
//   generation count (from the CPU twin: one generation per dispatch is not affordable at this size);
// - one-gen vs multi-gen dead-end filling on a generated 301x301 depth-first maze (synchronous generations
//   measured on the GPU);
// - a batch of 10,000 generated 31x31 mazes (1,000 with --quick), mazes/s, multi-gen (atlas grids), and
//   one-gen on a tenth of it (one workgroup per maze per generation);
// - the wavefront on a maze with loops (combo400), one-gen vs multi-gen.
import { existsSync, readFileSync } from 'node:fs';
import type { Mode } from '../src/engine/batch.ts';
import type { GpuContext } from '../src/gpu/context.ts';
import { parseMazes, type Maze } from '../src/puzzles/maze/codec.ts';
import { generateMaze } from '../src/puzzles/maze/generate.ts';
import { mazeKind } from '../src/puzzles/maze/index.ts';
import { bfsPath, deadendFill, OPEN, TERMINAL } from '../src/puzzles/maze/reference.ts';
import { labelReader } from '../src/puzzles/maze/pack.ts';
import { deadendPath, lastRun, runDeadend, runWavefront, traceBack } from '../src/puzzles/maze/solver.ts';
import { BenchReport, fmt, type BenchArgs } from './_report.ts';
import type { OptionSpec } from '../src/puzzles/types.ts';

const mikepound = new URL('../../shared/data/maze/mikepound/', import.meta.url).pathname;

function loadMaze(name: string, fallback: () => Maze): { maze: Maze; source: string } {
  const file = `${mikepound}${name}.png`;
  if (existsSync(file)) return { maze: parseMazes(readFileSync(file), file)[0].maze!, source: `mikepound ${name}.png` };
  return { maze: fallback(), source: 'generated (../shared absent)' };
}

/** best of `runs` wall times of `f` in seconds, and its last result */
function timeCpu<T>(f: () => T, runs = 3): { seconds: number; result: T } {
  let best = Infinity;
  let result!: T;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    result = f();
    best = Math.min(best, (performance.now() - t0) / 1000);
  }
  return { seconds: best, result };
}

/** the options this benchmark takes beside --json and --quick (`cellsolve bench` rejects others) */
export const options: OptionSpec[] = [];

export async function bench(ctx: GpuContext, args: BenchArgs): Promise<void> {
  const q = args.quick;
  const report = new BenchReport('maze', ctx, args);
  await mazeKind.solve(ctx, [generateMaze({ width: 31, height: 31, seed: 1 })], { method: 'auto', options: {} }); // compile + warm up

  // ---- one large perfect maze: dead-end filling in place vs CPU BFS ----
  {
    const name = q ? 'perfect2k' : 'perfect4k';
    const { maze, source } = loadMaze(name, () => generateMaze({ width: q ? 2001 : 4001, height: q ? 2001 : 4001, seed: 4 }));
    const cells = maze.width * maze.height;
    const bfs = timeCpu(() => bfsPath(maze), q ? 1 : 3);
    const sync = deadendFill(maze).generations;
    let best = Infinity;
    let gpuSeconds = Infinity;
    let info!: Awaited<ReturnType<typeof runDeadend>>[number];
    let path: number[] | null = null;
    for (let i = 0; i < (q ? 1 : 3); i++) {
      const t0 = performance.now();
      [info] = await runDeadend(ctx, [maze], { mode: 'multi-gen' });
      path = deadendPath(maze, info.words);
      const s = (performance.now() - t0) / 1000;
      if (s < best) {
        best = s;
        gpuSeconds = lastRun.seconds;
      }
    }
    const ok = path !== null && path.length === bfs.result!.length;
    report.add(
      {
        case: `${name}-deadend`,
        source,
        mode: 'multi-gen',
        cells,
        grids: 1,
        generations: info.outcome.generations,
        synchronousGenerations: sync,
        seconds: best,
        gpuSeconds,
        dispatches: info.dispatches,
        readbacks: lastRun.readbacks,
        cellUpdates: info.cellUpdates,
        cellUpdatesPerSec: (info.cellUpdates ?? 0) / best,
        pathLength: path?.length,
        solved: ok,
        peer: { name: 'CPU BFS (TypeScript, typed arrays)', perSec: 1 / bfs.seconds, seconds: bfs.seconds },
        ratio: bfs.seconds / best,
      },
      [
        ['solve', `${(best * 1000).toFixed(0)} ms`],
        ['(GPU run', `${(gpuSeconds * 1000).toFixed(0)} ms)`],
        ['CPU BFS', `${(bfs.seconds * 1000).toFixed(0)} ms`],
        ['GPU/CPU time', `${(best / bfs.seconds).toFixed(2)}x`],
        ['dispatches', String(info.dispatches)],
        ['changing dispatches', String(info.outcome.generations)],
        ['sync generations', String(sync)],
        ['path', ok ? `${path!.length} ok` : 'WRONG'],
      ],
    );
  }

  // ---- one-gen vs multi-gen dead-end filling ----
  {
    const size = q ? 151 : 301;
    const maze = generateMaze({ width: size, height: size, seed: 5 });
    const bfs = timeCpu(() => bfsPath(maze), 5);
    const perMode: Record<string, number> = {};
    for (const mode of ['one-gen', 'multi-gen'] as Mode[]) {
      const t0 = performance.now();
      const [r] = await runDeadend(ctx, [maze], { mode });
      const path = deadendPath(maze, r.words);
      const s = (performance.now() - t0) / 1000;
      perMode[mode] = s;
      report.add(
        {
          case: `dfs${size}-deadend`,
          mode,
          cells: size * size,
          grids: 1,
          generations: r.outcome.generations,
          seconds: s,
          gpuSeconds: lastRun.seconds,
          dispatches: r.dispatches,
          readbacks: lastRun.readbacks,
          solved: path?.length === bfs.result?.length,
          peer: { name: 'CPU BFS', perSec: 1 / bfs.seconds, seconds: bfs.seconds },
          ratio: bfs.seconds / s,
          ...(mode === 'multi-gen' ? { speedupOverOneGen: perMode['one-gen'] / s } : {}),
        },
        [
          ['mode', mode.padEnd(9)],
          ['solve', `${(s * 1000).toFixed(0)} ms`],
          ['generations', String(r.outcome.generations)],
          ['dispatches', String(r.dispatches)],
          ['CPU BFS', `${(bfs.seconds * 1000).toFixed(1)} ms`],
          ...(mode === 'multi-gen' ? [['multi/one', `${(perMode['one-gen'] / s).toFixed(1)}x`] as [string, string]] : []),
        ],
      );
    }
  }

  // ---- a batch of small mazes ----
  {
    const count = q ? 1000 : 10_000;
    // one generation per dispatch launches a workgroup per maze per generation: measured on a tenth of the batch
    const oneGenCount = count / 10;
    const all = Array.from({ length: count }, (_, i) => generateMaze({ width: 31, height: 31, seed: 1000 + i }));
    const perMode: Record<string, number> = {};
    for (const mode of ['one-gen', 'multi-gen'] as Mode[]) {
      const n = mode === 'one-gen' ? oneGenCount : count;
      const mazes = all.slice(0, n);
      const bfs = timeCpu(() => mazes.map((m) => bfsPath(m)), q ? 1 : 3);
      const maxSync = mazes.reduce((k, m) => Math.max(k, deadendFill(m).generations), 0);
      const t0 = performance.now();
      const res = await mazeKind.solve(ctx, mazes, { method: 'deadend', options: { mode } });
      const s = (performance.now() - t0) / 1000;
      perMode[mode] = n / s;
      const solved = res.filter((r, i) => r.status === 'solved' && mazeKind.verify(mazes[i], r.solution!)).length;
      const dispatches = res.reduce((k, r) => Math.max(k, Number(r.extra!.dispatches)), 0);
      const generations = res.reduce((k, r) => Math.max(k, r.generations), 0);
      report.add(
        {
          case: `batch${n}-31x31`,
          mode,
          cells: 31 * 31 * n,
          grids: n,
          puzzles: n,
          generations,
          synchronousGenerations: maxSync,
          seconds: s,
          puzzlesPerSec: n / s,
          solved,
          dispatches,
          peer: { name: 'CPU BFS (TypeScript)', perSec: n / bfs.seconds },
          ratio: bfs.seconds / s,
          ...(mode === 'multi-gen' ? { speedupOverOneGen: perMode['multi-gen'] / perMode['one-gen'] } : {}),
        },
        [
          ['mode', mode.padEnd(9)],
          ['mazes/s', fmt(n / s).padStart(6)],
          ['CPU BFS mazes/s', fmt(n / bfs.seconds).padStart(6)],
          ['GPU/CPU', `${fmt(bfs.seconds / s)}x`],
          ['solved', `${solved}/${n}`],
          ['generations', String(generations)],
          ['sync generations', String(maxSync)],
          ['dispatches', String(dispatches)],
          ...(mode === 'multi-gen' ? [['multi/one', `${(perMode['multi-gen'] / perMode['one-gen']).toFixed(1)}x`] as [string, string]] : []),
        ],
      );
    }
  }

  // ---- the wavefront on a maze with loops ----
  {
    const { maze, source } = loadMaze('combo400', () => generateMaze({ width: 401, height: 401, seed: 6, loops: 2000 }));
    const bfs = timeCpu(() => bfsPath(maze), 5);
    const left = deadendFill(maze).state.map((v) => (v === OPEN || v === TERMINAL ? 1 : 0));
    for (const mode of ['one-gen', 'multi-gen'] as Mode[]) {
      const t0 = performance.now();
      const [r] = await runWavefront(ctx, [maze], { mode, open: [left] });
      const t = traceBack(maze, labelReader(r.words, maze.width, maze.height));
      const s = (performance.now() - t0) / 1000;
      report.add(
        {
          case: 'combo400-wavefront',
          source,
          mode,
          cells: maze.width * maze.height,
          grids: 1,
          generations: r.outcome.generations,
          seconds: s,
          gpuSeconds: lastRun.seconds,
          dispatches: r.dispatches,
          readbacks: lastRun.readbacks,
          solved: t?.path.length === bfs.result?.length,
          peer: { name: 'CPU BFS', perSec: 1 / bfs.seconds, seconds: bfs.seconds },
          ratio: bfs.seconds / s,
        },
        [
          ['mode', mode.padEnd(9)],
          ['solve', `${(s * 1000).toFixed(0)} ms`],
          ['generations', String(r.outcome.generations)],
          ['dispatches', String(r.dispatches)],
          ['CPU BFS', `${(bfs.seconds * 1000).toFixed(1)} ms`],
        ],
      );
    }
  }
  report.save();
}
