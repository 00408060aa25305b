// The CPU solver in a worker thread of the pool (../cpu-pool.ts, index.ts solveOnCpu).
import type { Nonogram } from './codec.ts';
import { solveCpu } from './reference.ts';
import type { CpuJob } from '../cpu-pool.ts';
import { serveCpuJobs } from '../cpu-pool-worker.ts';

/** What the main thread asks of one puzzle. */
interface NonogramCpuJob extends CpuJob {
  maxSolutions: number;
}

serveCpuJobs((puzzle: Nonogram, job: NonogramCpuJob, { timeoutMs, stopped }) => solveCpu(puzzle, { maxSolutions: job.maxSolutions, timeoutMs, stopped }));
