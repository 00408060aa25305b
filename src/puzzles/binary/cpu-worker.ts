// The CPU search (search.ts) in a worker thread of the pool (../cpu-pool.ts): binary grids past the lanes' 32x32 on
// a CPU adapter (index.ts `--large`).
import { cellsToString, type BinaryPuzzle } from './codec.ts';
import { countSolutions, gradeCpu } from './search.ts';
import type { CpuJob } from '../cpu-pool.ts';
import { serveCpuJobs } from '../cpu-pool-worker.ts';

interface BinaryCpuJob extends CpuJob {
  /** stop at this many solutions (2: is it unique?) */
  solutionLimit: number;
}

/** A search's answer as the host reads it (index.ts cpuResult). */
export interface BinaryCpuResult {
  solutions: string[];
  branches: number;
  probes: number;
  /** the thesis level (gradeCpu: 1-3 by propagation alone, 4 beyond), 0 when the givens break a rule */
  level: number;
  /** 'timeout' or 'interrupted' when the limits stopped it (else every solution up to the limit was found) */
  reason?: string;
}

serveCpuJobs((puzzle: BinaryPuzzle, job: BinaryCpuJob, { over }): BinaryCpuResult => {
  let reason: string | undefined;
  const r = countSolutions(puzzle, job.solutionLimit, { stopped: () => (reason = over()) !== undefined });
  return { solutions: r.solutions.map(cellsToString), branches: r.branches, probes: r.probes, level: gradeCpu(puzzle), reason: r.stopped ? reason : undefined };
});
