// Life benchmark (issue: engine foundation). Cases: 256^2, 4096^2, 16384^2, a batch of 16 64x64 grids (the
// dispatch-bound case) and a batch of 10,000 64x64 grids; each in one-generation and multi-generation dispatch,
// beside the CPU reference and a copy kernel's bandwidth measured in the same run.
import { Batch } from '../src/engine/batch.ts';
import type { Mode } from '../src/engine/batch.ts';
import type { GpuContext } from '../src/gpu/context.ts';
import { lifeBatchInputs, lifeInput, lifeRule, LIFE_GENERATIONS_PER_DISPATCH } from '../src/life/rule.ts';
import { lifeStep, randomLife } from '../src/life/reference.ts';
import { copyKernelBytesPerSec } from './_copy-kernel.ts';
import { BenchReport, fmt, type BenchArgs } from './_report.ts';
import type { OptionSpec } from '../src/puzzles/types.ts';

/** what a generation must move at the least: read and write one u32 per 32 cells */
const BYTES_PER_CELL_GENERATION = 8 / 32;

interface LifeCase {
  name: string;
  size: number;
  grids: number;
  generations: number;
  /** generations between readbacks */
  readbackEvery: number;
}

function cpuCellUpdatesPerSec(size: number): number {
  const g = randomLife(Math.min(size, 512), Math.min(size, 512), 3);
  const t0 = performance.now();
  let cells = 0;
  let grid = g;
  while (performance.now() - t0 < 400) {
    grid = lifeStep(grid, false);
    cells += g.width * g.height;
  }
  return cells / ((performance.now() - t0) / 1000);
}

async function measure(ctx: GpuContext, c: LifeCase, mode: Mode) {
  const t0 = performance.now();
  const batch = await Batch.create(ctx, lifeRule);
  const compileSeconds = (performance.now() - t0) / 1000;
  const t1 = performance.now();
  const grids = Array.from({ length: c.grids }, (_, i) => randomLife(c.size, c.size, 1 + i));
  // torus keeps random soups from dying out at the borders; multi-gen needs widths that are multiples of 32
  for (const input of lifeBatchInputs(ctx, grids, c.size % 32 === 0, c.generations)) batch.add(input);
  await ctx.device.queue.onSubmittedWorkDone();
  const uploadSeconds = (performance.now() - t1) / 1000;
  // warm-up: one short run on a separate batch so first-dispatch costs are not timed
  const warm = await Batch.create(ctx, lifeRule);
  warm.add(lifeInput(randomLife(64, 64, 9), true, 16));
  await warm.run({ mode, maxGenerations: 16 });
  warm.destroy();
  const outcomes = await batch.run({ mode, maxGenerations: c.generations, readbackEvery: mode === 'multi-gen' ? Math.ceil(c.readbackEvery / LIFE_GENERATIONS_PER_DISPATCH) : c.readbackEvery });
  const s = batch.stats;
  batch.destroy();
  const cellUpdates = outcomes.reduce((n, o) => n + o.generations * c.size * c.size, 0);
  return { compileSeconds, uploadSeconds, seconds: s.seconds, generations: s.generations, dispatches: s.dispatches, readbacks: s.readbacks, cellUpdates };
}

/** the options this benchmark takes beside --json and --quick (`cellsolve bench` rejects others) */
export const options: OptionSpec[] = [];

export async function bench(ctx: GpuContext, args: BenchArgs): Promise<void> {
  const q = args.quick;
  const cases: LifeCase[] = [
    { name: 'life-256', size: 256, grids: 1, generations: q ? 256 : 2048, readbackEvery: 1024 },
    { name: 'life-4096', size: 4096, grids: 1, generations: q ? 8 : 64, readbackEvery: 64 },
    { name: 'life-16384', size: 16384, grids: 1, generations: q ? 0 : 8, readbackEvery: 8 },
    { name: 'life-batch16-64', size: 64, grids: 16, generations: q ? 1024 : 8192, readbackEvery: 4096 },
    { name: 'life-batch10000-64', size: 64, grids: 10_000, generations: q ? 8 : 32, readbackEvery: 32 },
  ].filter((c) => c.generations > 0);
  const report = new BenchReport('life', ctx, args);
  const copyBytes = await copyKernelBytesPerSec(ctx, 4096 * 4096 / 8);
  process.stdout.write(`copy kernel: ${fmt(copyBytes)}B/s (read + write) on a 2 MiB buffer\n`);
  const cpuCache = new Map<number, number>();
  for (const c of cases) {
    const cpu = cpuCache.get(Math.min(c.size, 512)) ?? cpuCellUpdatesPerSec(c.size);
    cpuCache.set(Math.min(c.size, 512), cpu);
    const one = await measure(ctx, c, 'one-gen');
    const multi = await measure(ctx, c, 'multi-gen');
    for (const [mode, m] of [['one-gen', one], ['multi-gen', multi]] as const) {
      const cups = m.cellUpdates / m.seconds;
      const effective = cups * BYTES_PER_CELL_GENERATION;
      report.add(
        {
          case: c.name,
          mode,
          cells: c.size * c.size * c.grids,
          grids: c.grids,
          generations: m.generations,
          seconds: m.seconds,
          generationsPerSec: m.generations / m.seconds,
          cellUpdatesPerSec: cups,
          dispatches: m.dispatches,
          readbacks: m.readbacks,
          bytesPerCellGeneration: BYTES_PER_CELL_GENERATION,
          compileSeconds: m.compileSeconds,
          uploadSeconds: m.uploadSeconds,
          copyKernelBytesPerSec: copyBytes,
          fractionOfCopyKernel: effective / copyBytes,
          peer: { name: 'CPU reference (TypeScript, one cell at a time)', perSec: cpu },
          ratio: cups / cpu,
          ...(mode === 'multi-gen' ? { speedupOverOneGen: one.seconds / one.generations / (m.seconds / m.generations) } : {}),
        },
        [
          ['mode', mode.padEnd(9)],
          ['gen/s', fmt(m.generations / m.seconds).padStart(6)],
          ['cell-updates/s', fmt(cups).padStart(6)],
          ['vs CPU', `${fmt(cups / cpu)}x`.padStart(6)],
          ['of copy kernel', `${((100 * effective) / copyBytes).toFixed(0)}%`.padStart(4)],
          ['dispatches', String(m.dispatches)],
          ['readbacks', String(m.readbacks)],
          ...(mode === 'multi-gen' ? [['multi/one', `${(one.seconds / one.generations / (m.seconds / m.generations)).toFixed(2)}x`] as [string, string]] : []),
        ],
      );
    }
  }
  report.save();
}
