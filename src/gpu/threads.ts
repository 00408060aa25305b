// Worker threads for the host's CPU work (Node's worker threads; in a page, Web Workers started by the caller:
// webWorkerThread). On a CPU adapter the host's thread lowers its own priority (node.ts yieldToCpuDriver), and Linux
// gives a new thread its creator's: CDCL threads started from it got about a tenth of a core beside SwiftShader's
// (TAAI: 7 answers in 100 s where the same threads alone answer ~100). So a nursery thread started before the host
// yields starts them (thread-nursery.mjs), and they keep the process's priority.
import { nodeBuiltin } from '../puzzles/node-builtin.ts';

type WorkerThreads = typeof import('node:worker_threads');

/** What the host uses of a worker thread (a Node Worker is one). */
export interface HostThread {
  /** `transfer`: buffers moved to the thread rather than copied */
  postMessage(message: unknown, transfer?: ArrayBuffer[]): void;
  /** 'message' (a message from the thread) or 'error' (an Error it threw) */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  on(event: 'message' | 'error', listener: (value: any) => void): unknown;
  terminate(): unknown;
}

let nursery: { worker: InstanceType<WorkerThreads['Worker']>; next: number; onError: Map<number, (e: Error) => void> } | undefined;

/** Starts the nursery, before the host's thread lowers its priority. */
export function startNursery(): void {
  const threads = nodeBuiltin<WorkerThreads>('node:worker_threads');
  if (!threads || nursery) return;
  const worker = new threads.Worker(new URL(['.', 'thread-nursery.mjs'].join('/'), import.meta.url));
  // it never keeps the process alive; its children's ports do while they are in use
  worker.unref();
  const onError = new Map<number, (e: Error) => void>();
  worker.on('message', (m: { id: number; error: string }) => onError.get(m.id)?.(new Error(m.error)));
  nursery = { worker, next: 0, onError };
}

/**
 * A worker thread running `entry` with `workerData` (it talks over `workerData.port` when there is one, else its
 * parentPort: workerPort below), through the nursery when there is one; undefined without worker threads.
 */
export function startThread(entry: URL, workerData: Record<string, unknown>): HostThread | undefined {
  const threads = nodeBuiltin<WorkerThreads>('node:worker_threads');
  if (!threads) return undefined;
  if (!nursery) return new threads.Worker(entry, { workerData });
  const { worker, onError } = nursery;
  const id = nursery.next++;
  const { port1, port2 } = new threads.MessageChannel();
  worker.postMessage({ start: { id, entry: entry.href, workerData, port: port2 } }, [port2]);
  return {
    postMessage: (message, transfer) => port1.postMessage(message, transfer),
    on: (event, listener) => (event === 'message' ? port1.on('message', listener) : onError.set(id, listener)),
    terminate: () => {
      worker.postMessage({ terminate: id });
      onError.delete(id);
      port1.close();
    },
  };
}

/**
 * A worker thread running the TypeScript module `file` beside `from` (an import.meta.url) through the tsx boot
 * (src/cli/worker-boot.mjs: a worker does not inherit the main thread's loader). The URLs are built at run time: a
 * literal `new URL('...', import.meta.url)` would make vite bundle the files.
 */
export function startModuleThread(from: string, file: string, workerData: Record<string, unknown> = {}): HostThread | undefined {
  const boot = new URL(['..', 'cli', 'worker-boot.mjs'].join('/'), import.meta.url);
  return startThread(boot, { ...workerData, module: new URL(['.', file].join('/'), from).href });
}

/** What a worker thread uses of its channel to the host. */
export interface ThreadPort {
  /** `transfer`: buffers moved to the host rather than copied */
  postMessage(message: unknown, transfer?: ArrayBuffer[]): void;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  on(event: 'message', listener: (value: any) => void): unknown;
}

/**
 * A worker thread's channel to the host: the port the nursery handed it, else its parentPort; in a page's Web
 * Worker, the worker's own scope.
 */
export function workerPort(): ThreadPort {
  const threads = nodeBuiltin<WorkerThreads>('node:worker_threads');
  if (!threads) {
    const scope = globalThis as unknown as { postMessage(m: unknown, transfer?: ArrayBuffer[]): void; addEventListener(type: 'message', f: (e: MessageEvent) => void): void };
    return { postMessage: (m, transfer) => scope.postMessage(m, transfer), on: (_event, listener) => scope.addEventListener('message', (e) => listener(e.data)) };
  }
  return (threads.workerData?.port as MessagePortLike | undefined) ?? threads.parentPort!;
}

/** A page's Web Worker as a HostThread (its errors as Errors). */
export function webWorkerThread(worker: Worker): HostThread {
  return {
    postMessage: (message, transfer) => worker.postMessage(message, transfer ?? []),
    on: (event, listener) =>
      event === 'message' ? worker.addEventListener('message', (e) => listener(e.data)) : worker.addEventListener('error', (e) => listener(new Error(e.message))),
    terminate: () => worker.terminate(),
  };
}

/** The buffers of a message's typed arrays, to transfer rather than copy (postMessage's list: each buffer once). */
export function buffersOf(value: unknown, into = new Set<ArrayBuffer>()): ArrayBuffer[] {
  if (ArrayBuffer.isView(value)) into.add(value.buffer as ArrayBuffer);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) buffersOf(v, into);
  return [...into];
}

/** The next task of the event loop, after the messages already queued: setImmediate, or in a page a message to itself
 * (setTimeout(0) waits at least 4 ms once nested, a fifth of a CDCL thread's slice). */
export const nextTask: (f: () => void) => void =
  typeof setImmediate === 'function'
    ? (f) => void setImmediate(f)
    : (() => {
        const channel = new MessageChannel();
        const queue: (() => void)[] = [];
        channel.port1.onmessage = () => queue.shift()?.();
        return (f: () => void) => {
          queue.push(f);
          channel.port2.postMessage(null);
        };
      })();

type MessagePortLike = InstanceType<WorkerThreads['MessagePort']>;
