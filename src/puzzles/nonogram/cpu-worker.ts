// The CPU solver in a worker thread (index.ts solveOnCpu): the main thread stays free to see Ctrl-C and the
// deadline, and puzzles run on every core. 'ready' out once loaded; then one message per puzzle: [id, puzzle, job]
// in, [id, result, ms, bySlice] out, `ms` the solve's own time (not the thread's start-up, nor the wait for its
// turn), `bySlice` whether the slice rather than the deadline bounded it.
import { workerData } from 'node:worker_threads';
import type { Nonogram } from './codec.ts';
import { solveCpu } from './reference.ts';
import { workerPort } from '../../gpu/threads.ts';

const port = workerPort();

/** What the main thread asks of one puzzle. */
export interface CpuJob {
  maxSolutions: number;
  /** the call's deadline, in ms since the epoch (performance.timeOrigin + now(): threads have their own now()) */
  deadline: number;
  /** the most this pass may take (a first pass's share of the time: index.ts solveOnCpu); Infinity: to the deadline */
  slice: number;
}

// set by the main thread on Ctrl-C: the search in hand stops at its next deadline check, reason 'interrupted'
const stop = new Int32Array(workerData.stop as SharedArrayBuffer);
const stopped = () => Atomics.load(stop, 0) !== 0;
const now = () => performance.timeOrigin + performance.now();

port.on('message', ([id, puzzle, job]: [number, Nonogram, CpuJob]) => {
  const t0 = now();
  const left = Math.max(0, job.deadline - t0);
  const limit = Math.min(job.slice, left);
  const timeoutMs = Number.isFinite(limit) ? Math.min(limit, 2 ** 31) : undefined;
  const result = solveCpu(puzzle, { maxSolutions: job.maxSolutions, timeoutMs, stopped });
  port.postMessage([id, result, now() - t0, job.slice < left]);
});
port.postMessage('ready');
