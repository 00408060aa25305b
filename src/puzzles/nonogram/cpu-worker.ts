// The CPU solver in a worker thread (index.ts solveOnCpu): the main thread stays free to see Ctrl-C and the
// deadline, and puzzles run on every core. 'ready' out once loaded; then one message per puzzle: [id, puzzle, job]
// in, [id, result, ms] out, `ms` the solve's own time (not the thread's start-up, nor the wait for its turn).
import { parentPort, workerData } from 'node:worker_threads';
import type { Nonogram } from './codec.ts';
import { solveCpu } from './reference.ts';

/** What the main thread asks of one puzzle. */
export interface CpuJob {
  maxSolutions: number;
  /** the call's deadline, in ms since the epoch (performance.timeOrigin + now(): threads have their own now()) */
  deadline: number;
}

// set by the main thread on Ctrl-C: the search in hand stops at its next deadline check, reason 'interrupted'
const stop = new Int32Array(workerData.stop as SharedArrayBuffer);
const stopped = () => Atomics.load(stop, 0) !== 0;
const now = () => performance.timeOrigin + performance.now();

parentPort!.on('message', ([id, puzzle, job]: [number, Nonogram, CpuJob]) => {
  const t0 = now();
  const timeoutMs = Number.isFinite(job.deadline) ? Math.min(Math.max(0, job.deadline - t0), 2 ** 31) : undefined;
  const result = solveCpu(puzzle, { maxSolutions: job.maxSolutions, timeoutMs, stopped });
  parentPort!.postMessage([id, result, now() - t0]);
});
parentPort!.postMessage('ready');
