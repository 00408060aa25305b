// Conflict-driven search on CPU threads beside the GPU, for the puzzles probing on the GPU does not answer soon (a
// RaceHelper of raceRounds). The kernel's CDCL (cdcl.wgsl) runs a puzzle's search in one invocation, serial code with
// its clauses in storage; on SwiftShader it ran ~380 conflicts/s on a lone puzzle (TAAI #509), where the same four
// searches on one CPU thread (CdclPortfolio) ran ~5,000, and 1.7x that since (EXPERIMENTS.md, "CDCL on CPU
// threads"). So the hard puzzles' serial work goes to the cores, and the GPU keeps the wide work: probing the batch.
import { nodeBuiltin } from '../node-builtin.ts';
import { buffersOf, startModuleThread, webWorkerThread, type HostThread } from '../../gpu/threads.ts';
import type { Nonogram } from './codec.ts';
import { CDCL_SEARCHES, emptyCdclResult, rotatedSearches, type RaceState } from './cdcl.ts';
import type { CdclThreadMessage, CdclThreadReply } from './cdcl-worker.ts';
import type { CdclOutcome } from './lane.ts';
import type { RaceHelper } from './rounds.ts';

type WorkerThreads = typeof import('node:worker_threads');

/** Puzzles a thread runs at once, taking turns (the others it holds wait, their searches kept). */
export const CDCL_PUZZLES_PER_THREAD = 4;
/**
 * A pass: how much of a thread's time a puzzle gets before the puzzles that have had less go first. The threads run
 * the puzzles that have had least of their time first (a new one before one a pass has paused), so the many puzzles
 * CDCL answers in a fraction of a second are not held back by the few that need minutes; a paused puzzle keeps its
 * searches on its thread (their clause arenas grow as they need: cdcl.ts FIRST_ARENA_WORDS). On TAAI's puzzles alone
 * (EXPERIMENTS.md, "CDCL on CPU threads"): 71 of every 10th in 0.25 s or less, 94 in 2 s or less. On the whole set
 * (joining after 25 rounds) passes of 100 ms answered 922 by 82 s, 250 ms 926-930, 1,000 ms 854.
 */
export const CDCL_PASS_MS = 250;

/**
 * Threads for CDCL beside the GPU, one per core: Node's worker threads, or a page's Web Workers; none without either
 * (the kernel runs CDCL there). On a CPU-emulated adapter (SwiftShader) they share the cores with the GPU's own
 * threads: on TAAI (two cores) one thread answered 912 by 82 s, two 926-930, three 918 (EXPERIMENTS.md, "A faster
 * search, and when to join with it").
 */
export function defaultCdclThreads(): number {
  const os = nodeBuiltin<typeof import('node:os')>('node:os');
  if (os && nodeBuiltin<WorkerThreads>('node:worker_threads') !== undefined) return os.availableParallelism();
  // a page: Web Workers, one per core the browser says it has
  return typeof Worker === 'function' ? (globalThis.navigator?.hardwareConcurrency ?? 0) : 0;
}

/** A CDCL thread: a worker thread under Node, a module Web Worker in a page (vite bundles it from the literal URL). */
function startCdclThread(): HostThread | undefined {
  if (nodeBuiltin<WorkerThreads>('node:worker_threads')) return startModuleThread(import.meta.url, 'cdcl-worker.ts');
  if (typeof Worker !== 'function') return undefined;
  return webWorkerThread(new Worker(new URL('./cdcl-worker.ts', import.meta.url), { type: 'module' }));
}

/**
 * The searches of a puzzle's second copy, on a thread that has nothing else to do (the end of a run: a puzzle's
 * searches stay on the thread that started them, so the last few kept one thread busy and left the other idle): the
 * same four in another order, so the copy is not the first one again but more of the portfolio.
 */
export const CDCL_COPY_ROTATION = 2;

/** A puzzle not running: new (no thread yet), or paused on `thread` with its searches kept there; `rotation`: how
 * far its searches are rotated (CDCL_COPY_ROTATION for a second copy, else 0); `stuckAt`: its time when its thread
 * could not give it up (root probing), so it is not asked again before its next pass */
type Waiting = { index: number; spentMs: number; order: number; thread?: Thread; rotation: number; stuckAt?: number };
type Thread = { worker: HostThread; held: Map<number, Waiting>; broken: boolean };

export class CdclThreads implements RaceHelper<CdclOutcome> {
  private readonly pool: Thread[] = [];
  private readonly done = new Map<number, (outcome: CdclOutcome) => void>();
  /** puzzles not running: new ones, and those a pass paused */
  private readonly waiting: Waiting[] = [];
  /** puzzles on their way from one thread to another (held by `to` meanwhile) */
  private readonly moving = new Map<number, { job: Waiting; from: Thread; to: Thread }>();
  private arrivals = 0;
  private copiesStarted = 0;
  private movesMade = 0;
  /** the deadline as the threads read it: ms since the epoch (threads have their own performance.now()) */
  private readonly threadDeadline: number;

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
  ) {
    this.threadDeadline = Number.isFinite(deadline) ? performance.timeOrigin + deadline : Infinity;
  }

  /** It takes every puzzle it is given: those the threads cannot hold yet wait in its queue. */
  get room(): number {
    return this.pool.length === this.threads && this.pool.every((t) => t.broken) ? 0 : Infinity;
  }

  start(index: number, done: (outcome: CdclOutcome) => void): void {
    this.done.set(index, done);
    this.waiting.push({ index, spentMs: 0, order: this.arrivals++, rotation: 0 });
    this.pump();
  }

  drop(index: number): void {
    this.done.delete(index);
    this.forget(index);
    this.pump();
  }

  /** Ends a puzzle's searches wherever they are: paused (waiting with their thread), running (held), both copies. */
  private forget(index: number): void {
    for (let at = this.waiting.length - 1; at >= 0; at--) {
      const w = this.waiting[at];
      if (w.index !== index) continue;
      this.waiting.splice(at, 1);
      w.thread?.worker.postMessage(['drop', index] satisfies CdclThreadMessage);
    }
    for (const t of this.pool) if (t.held.delete(index)) t.worker.postMessage(['drop', index] satisfies CdclThreadMessage);
  }

  /** Second copies started on idle threads so far (CDCL_COPY_ROTATION). */
  get copies(): number {
    return this.copiesStarted;
  }

  /** Paused puzzles moved to a thread with fewer so far. */
  get moves(): number {
    return this.movesMade;
  }

  /** Searches held: puzzles running or paused on a thread, or waiting for one, each copy counted. */
  get inHand(): number {
    return this.waiting.length + this.pool.reduce((n, t) => n + t.held.size, 0);
  }

  /** Ends the threads (their puzzles' searches with them). */
  close(): void {
    for (const t of this.pool) void t.worker.terminate();
  }

  /** Puzzles onto threads with room, least time had first (then the earliest given); a paused one on its own. */
  private pump(): void {
    // past the deadline a thread would end each puzzle it is given at once and ask for the next: a batch of 10,000
    // (8,000 waiting) spent 30 s so (the race drops them once it is late)
    if (performance.now() >= this.deadline) return;
    this.balance();
    while (this.waiting.length) {
      if (this.pool.length < this.threads && this.pool.every((t) => t.held.size > 0)) this.spawn();
      let best: { at: number; thread: Thread } | undefined;
      for (const thread of this.pool) {
        if (thread.broken || thread.held.size >= CDCL_PUZZLES_PER_THREAD) continue;
        this.waiting.forEach((w, at) => {
          if (w.thread && w.thread !== thread) return;
          const b = best && this.waiting[best.at];
          if (!b || w.spentMs < b.spentMs || (w.spentMs === b.spentMs && w.order < b.order)) best = { at, thread };
        });
      }
      if (!best) break;
      const { thread } = best;
      const job = this.waiting.splice(best.at, 1)[0];
      thread.held.set(job.index, job);
      if (job.thread) {
        thread.worker.postMessage(['resume', job.index, CDCL_PASS_MS] satisfies CdclThreadMessage);
        continue;
      }
      this.post(thread, job);
    }
    this.copyOnIdle();
  }

  private post(thread: Thread, job: Waiting, from?: RaceState): void {
    const start = { id: job.index, puzzle: this.puzzles[job.index], maxSolutions: this.maxSolutions, deadline: this.threadDeadline, budgetMs: CDCL_PASS_MS, rotation: job.rotation, from };
    thread.worker.postMessage(['start', start] satisfies CdclThreadMessage, from ? buffersOf(from) : []);
  }

  /** Puzzles (paused, or running on it) on `thread`. */
  private load(thread: Thread): number {
    let n = thread.held.size;
    for (const w of this.waiting) if (w.thread === thread) n++;
    return n;
  }

  /**
   * Once no new puzzle waits, a thread with room and two puzzles fewer than another takes the paused one that has had
   * most time there: its searches' state moves (cdcl.ts CdclPortfolioRace.capture), so the two threads end together.
   * A puzzle's searches had stayed on the thread that started them, and a run's end waited for the thread that
   * happened to hold the most of the slowest puzzles while the other raced copies.
   */
  private balance(): void {
    if (this.waiting.some((w) => !w.thread)) return;
    for (const to of this.pool) {
      if (to.broken || to.held.size >= CDCL_PUZZLES_PER_THREAD) continue;
      const loadHere = this.load(to);
      let best: Waiting | undefined;
      for (const w of this.waiting) {
        if (!w.thread || w.thread === to || w.stuckAt === w.spentMs || this.moving.has(w.index) || to.held.has(w.index)) continue;
        if (this.waiting.some((o) => o.thread === to && o.index === w.index) || this.load(w.thread) < loadHere + 2) continue;
        if (!best || w.spentMs > best.spentMs) best = w;
      }
      if (!best) continue;
      this.waiting.splice(this.waiting.indexOf(best), 1);
      to.held.set(best.index, best);
      this.moving.set(best.index, { job: best, from: best.thread!, to });
      best.thread!.worker.postMessage(['move', best.index] satisfies CdclThreadMessage);
    }
  }

  /** A paused puzzle's state from thread `sender`: started on the thread it goes to, or back where it was (null). */
  private arrive(sender: Thread, id: number, moved: RaceState | null): void {
    const move = this.moving.get(id);
    this.moving.delete(id);
    if (!move || !this.done.has(id) || !move.to.held.has(id)) {
      // its move called off (a thread failed) or the puzzle dropped meanwhile: a state not given up is still paused
      // on the thread that sent the reply
      if (!moved) sender.worker.postMessage(['drop', id] satisfies CdclThreadMessage);
      return;
    }
    const { job, from, to } = move;
    if (!moved) {
      to.held.delete(id);
      this.waiting.push({ ...job, thread: from, stuckAt: job.spentMs });
      return;
    }
    this.movesMade++;
    this.post(to, job, moved);
  }

  /**
   * A thread with nothing to run (nothing new waits, none of its own is paused) takes a second copy of the puzzle
   * that has had most time elsewhere and has none yet; the first answer of either counts.
   */
  private copyOnIdle(): void {
    if (this.waiting.some((w) => !w.thread)) return;
    // a thread with two or more gives one up at its next pass (balance): no copy meanwhile
    if (this.pool.some((t) => !t.broken && this.load(t) >= 2)) return;
    // a thread not started yet is idle too
    if (this.pool.length < this.threads && this.done.size > 0) this.spawn();
    for (const thread of this.pool) {
      if (thread.broken || thread.held.size > 0 || this.waiting.some((w) => w.thread === thread)) continue;
      const all = [...this.waiting, ...this.pool.flatMap((t) => [...t.held.values()])];
      const copied = new Set(all.filter((w) => w.rotation).map((w) => w.index));
      const candidates = all.filter((w) => !copied.has(w.index) && this.done.has(w.index));
      if (candidates.length === 0) return;
      const most = candidates.reduce((a, b) => (b.spentMs > a.spentMs ? b : a));
      const job: Waiting = { index: most.index, spentMs: most.spentMs, order: this.arrivals++, rotation: CDCL_COPY_ROTATION };
      thread.held.set(job.index, job);
      this.copiesStarted++;
      this.post(thread, job);
    }
  }

  private spawn(): void {
    const thread: Thread = { worker: startCdclThread()!, held: new Map(), broken: false };
    thread.worker.on('message', (m: 'ready' | CdclThreadReply) => {
      if (m === 'ready') return;
      if ('moved' in m) {
        this.arrive(thread, m.id, m.moved);
        this.pump();
        return;
      }
      const job = thread.held.get(m.id);
      const done = this.done.get(m.id);
      if (!job || !done) return;
      thread.held.delete(m.id);
      if (m.budget) {
        // its pass ran out: it waits on this thread, its searches kept, for its next turn
        this.waiting.push({ ...job, spentMs: job.spentMs + m.spentMs, thread });
      } else {
        this.done.delete(m.id);
        // its other copy, if any, ends
        this.forget(m.id);
        const { member, ...result } = m.result;
        done({ ...result, search: rotatedSearches(job.rotation)[member], ms: performance.now() - this.t0, cpuThread: true });
      }
      this.pump();
    });
    // a thread that fails (out of memory) gives its puzzles back unanswered: the GPU's searches on them go on
    thread.worker.on('error', () => {
      thread.broken = true;
      const paused = this.waiting.filter((w) => w.thread === thread);
      for (const w of paused) this.waiting.splice(this.waiting.indexOf(w), 1);
      const lost = [...thread.held.keys(), ...paused.map((w) => w.index)];
      thread.held.clear();
      // (a puzzle on its way from it is lost too; one on its way to it is among its held)
      for (const [index, move] of this.moving) {
        if (move.from !== thread && move.to !== thread) continue;
        this.moving.delete(index);
        move.to.held.delete(index);
        if (move.from === thread) lost.push(index);
      }
      // (a puzzle with a copy on another thread goes on there)
      const elsewhere = (index: number) => this.waiting.some((w) => w.index === index) || this.pool.some((t) => t.held.has(index));
      for (const index of lost) if (!elsewhere(index)) this.done.get(index)?.({ ...emptyCdclResult(), search: CDCL_SEARCHES[0], ms: performance.now() - this.t0 });
    });
    this.pool.push(thread);
  }
}
