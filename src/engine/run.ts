// Runs any number of grids through one rule: as many per batch as the device's buffer limits allow, the rest in
// further batches (CLI.md: a batch larger than the device's limits is split, not refused).
import type { GpuContext } from '../gpu/context.ts';
import { Batch, type BatchOptions, type GridOutcome, type RunOptions, type RunStats } from './batch.ts';
import type { GridInput, Rule } from './rule.ts';

export interface GridResult extends GridOutcome {
  /** final state words */
  state: Uint32Array;
}

export interface RunAllResult {
  results: GridResult[];
  stats: RunStats & { batches: number; uploadSeconds: number };
}

export async function runAll(ctx: GpuContext, rule: Rule, inputs: GridInput[], opts: RunOptions = {}, batchOptions: BatchOptions = {}): Promise<RunAllResult> {
  const results: GridResult[] = new Array(inputs.length);
  const stats = { generations: 0, dispatches: 0, readbacks: 0, seconds: 0, batches: 0, uploadSeconds: 0 };
  let next = 0;
  while (next < inputs.length) {
    const batch = await Batch.create(ctx, rule, batchOptions);
    try {
      const t0 = performance.now();
      const ids = new Map<number, number>();
      while (next < inputs.length && batch.canAdd(inputs[next])) ids.set(batch.add(inputs[next]), next++);
      if (ids.size === 0) batch.add(inputs[next]); // throws the clear "too large for this device" error
      stats.uploadSeconds += (performance.now() - t0) / 1000;
      const outcomes = await batch.run(opts);
      const order = outcomes.map((o) => o.id);
      const states = await batch.readStates(order);
      outcomes.forEach((o, i) => (results[ids.get(o.id)!] = { ...o, state: states[i] }));
      stats.batches++;
      for (const k of ['generations', 'dispatches', 'readbacks', 'seconds'] as const) stats[k] += batch.stats[k];
    } finally {
      batch.destroy();
    }
  }
  return { results, stats };
}
