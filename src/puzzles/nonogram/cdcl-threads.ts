// Conflict-driven search on CPU threads beside the GPU, for the puzzles probing on the GPU does not answer soon (a
// RaceHelper of raceRounds). The kernel's CDCL (cdcl.wgsl) runs a puzzle's search in one invocation, serial code with
// its clauses in storage; on SwiftShader it ran ~380 conflicts/s on a lone puzzle (TAAI #509), where the same four
// searches on one CPU thread (CdclPortfolio) run ~5,000 (EXPERIMENTS.md, "CDCL on CPU threads"). So the few hard
// puzzles' serial work goes to the cores, and the GPU keeps the wide work: probing the whole batch.
import { nodeBuiltin } from '../node-builtin.ts';
import { startThread, type HostThread } from '../../gpu/threads.ts';
import type { Nonogram } from './codec.ts';
import { CDCL_SEARCHES } from './cdcl.ts';
import type { CdclThreadMessage, CdclThreadReply } from './cdcl-worker.ts';
import type { CdclOutcome } from './lane.ts';
import type { RaceHelper } from './rounds.ts';

type WorkerThreads = typeof import('node:worker_threads');

/** Puzzles a thread holds at once, taking turns: a hard puzzle's four searches keep 4 MB of clauses each. */
export const CDCL_PUZZLES_PER_THREAD = 4;
/**
 * A puzzle's first pass on a thread may take this much of its time; each next pass twice the one before. The
 * threads run the puzzles that have had least of their time first (a new one before one a pass has stopped), so the
 * many puzzles CDCL answers in a fraction of a second are not held back by the few that need minutes, and a pass
 * that ends unanswered starts its puzzle afresh (doubling bounds the work repeated to the last pass's). On TAAI's
 * puzzles alone (EXPERIMENTS.md, "CDCL on CPU threads"): 71 of every 10th in 0.25 s or less, 94 in 2 s or less.
 */
export const CDCL_FIRST_PASS_MS = 250;

/**
 * Threads for CDCL beside the GPU: none without worker threads (a page: the kernel runs CDCL there), else one per
 * core. On a CPU-emulated adapter (SwiftShader) they share the cores with the GPU's own threads: on TAAI that cost
 * probing nothing measurable by 82-240 s and finished the set twice as soon (EXPERIMENTS.md).
 */
export function defaultCdclThreads(): number {
  const os = nodeBuiltin<typeof import('node:os')>('node:os');
  if (!os || nodeBuiltin<WorkerThreads>('node:worker_threads') === undefined) return 0;
  return os.availableParallelism();
}

type Waiting = { index: number; spentMs: number; pass: number; order: number };

export class CdclThreads implements RaceHelper<CdclOutcome> {
  private readonly pool: { worker: HostThread; held: Map<number, Waiting>; broken: boolean }[] = [];
  private readonly done = new Map<number, (outcome: CdclOutcome) => void>();
  /** puzzles not on a thread: new ones, and those a pass stopped */
  private readonly waiting: Waiting[] = [];
  private arrivals = 0;

  /**
   * `threads` CPU threads (started when puzzles come: most runs never need them), searching `puzzles` for
   * `maxSolutions` solutions until `deadline` (performance.now() time); outcomes' `ms` count from `t0`.
   */
  constructor(
    private readonly puzzles: readonly Nonogram[],
    private readonly threads: number,
    private readonly maxSolutions: number,
    private readonly deadline: number,
    private readonly t0 = performance.now(),
  ) {}

  /** It takes every puzzle it is given: those the threads cannot hold yet wait in its queue. */
  get room(): number {
    return this.pool.length === this.threads && this.pool.every((t) => t.broken) ? 0 : Infinity;
  }

  start(index: number, done: (outcome: CdclOutcome) => void): void {
    this.done.set(index, done);
    this.waiting.push({ index, spentMs: 0, pass: 0, order: this.arrivals++ });
    this.pump();
  }

  drop(index: number): void {
    this.done.delete(index);
    const at = this.waiting.findIndex((w) => w.index === index);
    if (at >= 0) this.waiting.splice(at, 1);
    const thread = this.pool.find((t) => t.held.has(index));
    if (!thread) return;
    thread.held.delete(index);
    thread.worker.postMessage(['drop', index] satisfies CdclThreadMessage);
    this.pump();
  }

  /** Ends the threads (their puzzles' searches with them). */
  close(): void {
    for (const t of this.pool) void t.worker.terminate();
  }

  /** Puzzles onto threads with room, least time had first (then the earliest given). */
  private pump(): void {
    while (this.waiting.length) {
      if (this.pool.length < this.threads && this.pool.every((t) => t.held.size > 0)) this.spawn();
      const thread = this.pool.filter((t) => !t.broken && t.held.size < CDCL_PUZZLES_PER_THREAD).sort((x, y) => x.held.size - y.held.size)[0];
      if (!thread) return;
      let at = 0;
      this.waiting.forEach((w, k) => {
        const best = this.waiting[at];
        if (w.spentMs < best.spentMs || (w.spentMs === best.spentMs && w.order < best.order)) at = k;
      });
      const job = this.waiting.splice(at, 1)[0];
      thread.held.set(job.index, job);
      const deadline = Number.isFinite(this.deadline) ? performance.timeOrigin + this.deadline : Infinity;
      const budgetMs = CDCL_FIRST_PASS_MS * 2 ** job.pass;
      thread.worker.postMessage(['start', { id: job.index, puzzle: this.puzzles[job.index], maxSolutions: this.maxSolutions, deadline, budgetMs }] satisfies CdclThreadMessage);
    }
  }

  private spawn(): void {
    // file URLs built at run time: a literal `new URL('...', import.meta.url)` would make vite bundle them
    const here = import.meta.url;
    const boot = new URL(['..', '..', 'cli', 'worker-boot.mjs'].join('/'), here);
    const module = new URL(['.', 'cdcl-worker.ts'].join('/'), here).href;
    const thread = { worker: startThread(boot, { module })!, held: new Map<number, Waiting>(), broken: false };
    thread.worker.on('message', (m: 'ready' | CdclThreadReply) => {
      if (m === 'ready') return;
      const job = thread.held.get(m.id);
      const done = this.done.get(m.id);
      if (!job || !done) return;
      thread.held.delete(m.id);
      if (m.budget) {
        // its pass's budget ran out: again later, afresh, with twice the budget
        this.waiting.push({ ...job, spentMs: job.spentMs + m.spentMs, pass: job.pass + 1 });
      } else {
        this.done.delete(m.id);
        const { member, ...result } = m.result;
        done({ ...result, search: CDCL_SEARCHES[member], ms: performance.now() - this.t0, cpuThread: true });
      }
      this.pump();
    });
    // a thread that fails (out of memory) gives its puzzles back unanswered: the GPU's searches on them go on
    thread.worker.on('error', () => {
      thread.broken = true;
      for (const index of thread.held.keys()) this.done.get(index)?.({ ...unanswered, search: CDCL_SEARCHES[0], ms: performance.now() - this.t0 });
      thread.held.clear();
    });
    this.pool.push(thread);
  }
}

const unanswered = { status: 'capped' as const, solutions: [], conflicts: 0, decisions: 0, settles: 0, explainChecks: 0, learned: 0, restarts: 0, probes: 0, level: 'search' as const };
