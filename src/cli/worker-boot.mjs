// A worker thread's entry: TypeScript through tsx, as bin/cellsolve.js does in the main thread (a worker does not
// inherit the main thread's loader), then the module named in workerData.module (a file URL).
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.module);
