// The CPU solver in a worker thread (index.ts solveOnCpu): the main thread stays free to see Ctrl-C and the
// deadline, and puzzles run on every core. One message per puzzle: [id, puzzle, options] in, [id, result] out.
import { parentPort } from 'node:worker_threads';
import type { Nonogram } from './codec.ts';
import { solveCpu, type CpuSolveOptions } from './reference.ts';

parentPort!.on('message', ([id, puzzle, opts]: [number, Nonogram, CpuSolveOptions]) => {
  parentPort!.postMessage([id, solveCpu(puzzle, opts)]);
});
