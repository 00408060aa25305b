// A kind's CPU solver on worker threads, one per core, within a call's deadline (not a full --timeout each), each
// result reported as it comes. The main thread stays free, so an abort (Ctrl-C) ends the searches at once: a shared
// flag each search checks where it checks the deadline (cpu-pool-worker.ts); the puzzles in hand come back
// 'interrupted' with what they had done, the ones not started 'interrupted' with ms 0. One long CPU puzzle used to
// hold the process until it ended. Nonograms (lines past the GPU's limits, `--method cpu`), and on a CPU adapter binary
// grids past the lanes' 32x32 and the sudoku puzzles the lanes hand back, run here.
import type { SolveResult } from './types.ts';
import { nodeBuiltin } from './node-builtin.ts';
import { startModuleThread, type HostThread } from '../gpu/threads.ts';

type WorkerThreads = typeof import('node:worker_threads');

/** What a thread is asked of one puzzle, beside the kind's own fields (`job` below). */
export interface CpuJob {
  /** the call's deadline, in ms since the epoch (performance.timeOrigin + now(): threads have their own now()) */
  deadline: number;
  /** the most this pass may take (a first pass's share of the time); Infinity: to the deadline */
  slice: number;
}

/** What the pool needs of a kind's solver result: `reason` 'timeout' when the deadline or the slice stopped it. */
export interface CpuSearchResult {
  reason?: string;
}

export interface CpuPoolOptions<P, R extends CpuSearchResult> {
  /** the kind's worker module (it calls serveCpuJobs), a file beside the module `from` (an import.meta.url) */
  from: string;
  file: string;
  puzzles: P[];
  /** the puzzles to run, by index */
  which: number[];
  /** the call's deadline (performance.now() ms; Infinity: none) */
  deadline: number;
  signal?: AbortSignal;
  /** the kind's fields of every job (e.g. maxSolutions) */
  job: object;
  /** the answer for puzzle i: its search's result, its ms over all its passes, and a reason that overrides its own */
  answer(i: number, r: R, ms: number, reason?: string): SolveResult;
  /** puzzle i stopped before an answer ('timeout', 'interrupted'), `ms` 0 if it never started */
  stopped(i: number, reason: string, ms?: number): SolveResult;
  /** called once per puzzle in `which` */
  report(i: number, r: SolveResult): void;
}

/**
 * The status of a complete search that counts to two solutions, from the solutions it found and why it stopped
 * short (`reason`, e.g. 'timeout'): `multiple` at two; `unsolved` when stopped (one solution found is not proven
 * unique); else `solved` or `contradiction`.
 */
export function searchStatus(solutions: number, reason?: string): SolveResult['status'] {
  if (solutions >= 2) return 'multiple';
  if (reason) return 'unsolved';
  return solutions ? 'solved' : 'contradiction';
}

/**
 * Whether a kind's `--OPTION auto|gpu|cpu` puts its puzzles on the CPU threads: `cpu` does where there are threads,
 * `gpu` never, `auto` where `auto` says (a CPU-emulated adapter, and what else the kind needs).
 */
export function cpuChosen(choice: string | boolean | undefined, auto: boolean): boolean {
  if (choice === 'gpu' || !hasCpuThreads()) return false;
  return choice === 'cpu' || auto;
}

/** A result the worker has not sent when Ctrl-C came is waited for this long (its search stops within ms). */
const INTERRUPT_GRACE_MS = 1000;

/** The least time a puzzle's first pass gets when a deadline is shared out (below: its fair share of the time). */
const MIN_SLICE_MS = 1000;

/** Whether there are worker threads here (Node); a page has none and runs its CPU searches in line. */
export const hasCpuThreads = (): boolean => nodeBuiltin<WorkerThreads>('node:worker_threads') !== undefined;

/**
 * Runs `which` on a thread per core (hasCpuThreads() must hold). With a deadline and more puzzles than threads, a
 * puzzle's first pass gets a slice of the time (its fair share, at least MIN_SLICE_MS), so easy puzzles behind hard
 * ones are reached (in input order two hard ones held both threads to the deadline and the easy ones after them
 * never started); the ones the slice stopped run again, from the start, with what is left once every puzzle has had
 * its pass. Their `ms` counts both passes.
 */
export async function solveOnCpuThreads<P, R extends CpuSearchResult>(o: CpuPoolOptions<P, R>): Promise<void> {
  const { which, deadline } = o;
  if (which.length === 0) return;
  let done = 0;
  const reported = new Set<number>();
  const report = (i: number, r: SolveResult) => {
    reported.add(i);
    done++;
    o.report(i, r);
  };
  const cores = nodeBuiltin<typeof import('node:os')>('node:os')!.availableParallelism();
  const stop = new SharedArrayBuffer(4);
  type Thread = { worker: HostThread; ready: number | undefined; job: number | undefined; sentAt: number };
  const pool: Thread[] = Array.from({ length: Math.min(cores, which.length) }, () => ({
    worker: startModuleThread(o.from, o.file, { stop })!,
    ready: undefined,
    job: undefined,
    sentAt: 0,
  }));
  // when a puzzle in hand started: once its thread had loaded (its start-up is not the puzzle's time)
  const startedAt = (t: Thread) => (t.ready === undefined ? undefined : Math.max(t.ready, t.sentAt));
  let next = 0;
  const sliced = Number.isFinite(deadline) && which.length > pool.length;
  // puzzles a slice stopped, in input order, with their first pass's result and time
  const again: number[] = [];
  const firstPass = new Map<number, { r: R; ms: number }>();
  const searched = (i: number, r: R, ms: number, reason?: string) => o.answer(i, r, (firstPass.get(i)?.ms ?? 0) + ms, reason);
  await new Promise<void>((resolve, reject) => {
    let grace: ReturnType<typeof setTimeout> | undefined;
    const end = () => {
      clearTimeout(grace);
      o.signal?.removeEventListener('abort', abort);
      for (const t of pool) void t.worker.terminate();
      resolve();
    };
    const inHand = () => pool.filter((t) => t.job !== undefined);
    // Ctrl-C: the searches in hand stop at their next check and send what they have; the puzzles not started, and
    // those of threads still loading, end 'interrupted' now
    const abort = () => {
      Atomics.store(new Int32Array(stop), 0, 1);
      for (const i of which.slice(next)) report(i, o.stopped(i, 'interrupted'));
      next = which.length;
      for (const i of again.splice(0)) report(i, searched(i, firstPass.get(i)!.r, 0, 'interrupted'));
      for (const t of inHand()) {
        if (t.ready !== undefined) continue;
        const i = t.job!;
        report(i, firstPass.has(i) ? searched(i, firstPass.get(i)!.r, 0, 'interrupted') : o.stopped(i, 'interrupted'));
        t.job = undefined;
      }
      if (inHand().length === 0) return end();
      grace = setTimeout(() => {
        for (const t of inHand()) report(t.job!, o.stopped(t.job!, 'interrupted', performance.now() - startedAt(t)!));
        end();
      }, INTERRUPT_GRACE_MS);
    };
    o.signal?.addEventListener('abort', abort, { once: true });
    const feed = (t: Thread) => {
      for (;;) {
        if (done === which.length) return end();
        const first = next < which.length;
        if (!first && again.length === 0) return;
        const i = first ? which[next++] : again.shift()!;
        const left = deadline - performance.now();
        // the searches are deterministic: a second pass that cannot outlast the first would only repeat it
        const pass = firstPass.get(i);
        if (left <= (pass?.ms ?? 0)) {
          report(i, pass ? searched(i, pass.r, 0) : o.stopped(i, 'timeout'));
          continue;
        }
        // the fair share: the time left over the puzzles still to have their first pass and those in hand
        const busy = pool.filter((x) => x !== t && x.job !== undefined).length;
        const slice = sliced && first ? Math.max(MIN_SLICE_MS, (left * pool.length) / (which.length - next + 1 + busy)) : Infinity;
        t.job = i;
        t.sentAt = performance.now();
        t.worker.postMessage([i, o.puzzles[i], { ...o.job, deadline: performance.timeOrigin + deadline, slice } satisfies CpuJob]);
        return;
      }
    };
    for (const t of pool) {
      t.worker.on('message', (m: 'ready' | [number, R, number, boolean]) => {
        if (m === 'ready') {
          t.ready = performance.now();
          return;
        }
        const [i, r, ms, bySlice] = m;
        t.job = undefined;
        if (reported.has(i)) {
          // reported already (Ctrl-C's grace ran out)
        } else if (bySlice && r.reason === 'timeout' && !o.signal?.aborted) {
          firstPass.set(i, { r, ms });
          again.push(i);
          again.sort((a, b) => a - b);
        } else report(i, searched(i, r, ms));
        feed(t);
      });
      t.worker.on('error', (e) => {
        for (const x of pool) void x.worker.terminate();
        reject(e);
      });
      feed(t);
    }
    if (o.signal?.aborted) abort();
  });
}
