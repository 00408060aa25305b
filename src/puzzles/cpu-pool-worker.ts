// A kind's CPU solver in a worker thread of cpu-pool.ts: 'ready' out once loaded; then one message per puzzle:
// [id, puzzle, job] in, [id, result, ms, bySlice] out, `ms` the solve's own time (not the thread's start-up, nor the
// wait for its turn), `bySlice` whether the slice rather than the deadline bounded it.
import { workerData } from 'node:worker_threads';
import { workerPort } from '../gpu/threads.ts';
import type { CpuJob } from './cpu-pool.ts';

/** How long a pass may run: `timeoutMs` (undefined: no limit), and `stopped()`, true once Ctrl-C came. */
export interface CpuLimits {
  timeoutMs: number | undefined;
  stopped: () => boolean;
  /** both at once, for a search that only takes a stop flag: 'interrupted', 'timeout' (past timeoutMs), or undefined */
  over: () => 'interrupted' | 'timeout' | undefined;
}

/** Serves the pool's jobs with `solve` (a search that ends at its limits with reason 'timeout' or 'interrupted'). */
export function serveCpuJobs<P, J extends CpuJob, R>(solve: (puzzle: P, job: J, limits: CpuLimits) => R): void {
  const port = workerPort();
  // set by the main thread on Ctrl-C: the search in hand stops at its next deadline check, reason 'interrupted'
  const stop = new Int32Array(workerData.stop as SharedArrayBuffer);
  const stopped = () => Atomics.load(stop, 0) !== 0;
  const now = () => performance.timeOrigin + performance.now();
  port.on('message', ([id, puzzle, job]: [number, P, J]) => {
    const t0 = now();
    const left = Math.max(0, job.deadline - t0);
    const limit = Math.min(job.slice, left);
    const timeoutMs = Number.isFinite(limit) ? Math.min(limit, 2 ** 31) : undefined;
    const end = t0 + limit;
    const over = () => (stopped() ? 'interrupted' : now() > end ? 'timeout' : undefined);
    const result = solve(puzzle, job, { timeoutMs, stopped, over });
    port.postMessage([id, result, now() - t0, job.slice < left]);
  });
  port.postMessage('ready');
}
