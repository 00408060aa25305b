// The CPU search (reference.ts solveCpu) in a worker thread of the pool (../cpu-pool.ts): the puzzles the lanes
// hand back on a CPU adapter (solver.ts solveFull).
import { solveCpu, type SudokuPuzzle } from './reference.ts';
import type { CpuJob } from '../cpu-pool.ts';
import { serveCpuJobs } from '../cpu-pool-worker.ts';

/** A search's answer as the host reads it (solver.ts cpuResult). */
export interface SudokuCpuResult {
  /** the solutions' values, row-major, at most two */
  solutions: Uint8Array[];
  /** search nodes (guesses) */
  nodes: number;
  /** 'timeout' or 'interrupted' when the limits stopped it */
  reason?: string;
}

serveCpuJobs((puzzle: SudokuPuzzle, _job: CpuJob, { over }): SudokuCpuResult => {
  let reason: string | undefined;
  const r = solveCpu(puzzle, 2, undefined, Infinity, () => (reason = over()) !== undefined);
  return { solutions: r.solutions, nodes: r.nodes, reason: r.stopped ? reason : undefined };
});
