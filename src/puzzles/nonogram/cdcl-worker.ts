// Conflict-driven search on a CPU thread beside the GPU (cdcl-threads.ts): the thread holds a few puzzles and gives
// each a turn of its searches in rotation (CdclPortfolioRace.step), so a puzzle that needs minutes does not hold back
// one that needs a second. A puzzle runs until its pass's budget of the thread's time is spent, then comes back with
// `budget` set and waits here, its searches kept, until the host resumes it, drops it, or takes it to another
// thread (`move`: the searches' state goes to the host, which starts it there with `from`). Between slices of
// SLICE_MS the thread returns to its event loop, where new puzzles, resumes, moves and drops arrive as messages.
// 'ready' out once loaded.
import type { Nonogram } from './codec.ts';
import { CDCL_CLEANUP, CdclPortfolioRace, rotatedSearches, type PortfolioResult, type RaceState } from './cdcl.ts';
import { buffersOf, nextTask, workerPort } from '../../gpu/threads.ts';

const port = workerPort();

/** in: start a puzzle (`deadline` in ms since the epoch: threads have their own now(); `from`: its searches as another
 * thread left them), resume one a budget paused with a new budget, give a paused one up to the host (`move`), or
 * drop one */
export type CdclThreadMessage =
  | ['start', { id: number; puzzle: Nonogram; maxSolutions: number; deadline: number; budgetMs: number; rotation: number; from?: RaceState }]
  | ['resume', number, number]
  | ['move', number]
  | ['drop', number];
/** out, for each pass of a puzzle unless it was dropped: its result (suspended when `budget`: the pass's budget ran
 * out and it waits for a resume), and the thread's ms the pass took; for each `move`, the searches' state (null: not
 * now, as in root probing; the puzzle stays paused here) */
export type CdclThreadReply = { id: number; result: PortfolioResult; spentMs: number; budget: boolean } | { id: number; moved: RaceState | null };

/** how long the thread runs turns before it looks at its messages */
const SLICE_MS = 20;

const now = () => performance.timeOrigin + performance.now();
type Job = { portfolio: CdclPortfolioRace; deadline: number; budgetMs: number; spentMs: number };
const running = new Map<number, Job>();
const paused = new Map<number, Job>();
let slicing = false;

function reply(id: number, job: Job, result: PortfolioResult, budget = false): void {
  running.delete(id);
  if (budget) paused.set(id, job);
  port.postMessage({ id, result, spentMs: job.spentMs, budget } satisfies CdclThreadReply);
}

function slice(): void {
  const end = now() + SLICE_MS;
  while (running.size && now() < end) {
    for (const [id, job] of running) {
      const t = now();
      if (t >= job.deadline) reply(id, job, job.portfolio.stopped());
      else if (job.spentMs >= job.budgetMs) reply(id, job, job.portfolio.stopped(), true);
      else {
        const r = job.portfolio.step();
        job.spentMs += now() - t;
        if (r) reply(id, job, r);
      }
    }
  }
  slicing = running.size > 0;
  // the next task: the messages that came meanwhile are handled before the next slice
  if (slicing) nextTask(slice);
}

function run(id: number, job: Job): void {
  running.set(id, job);
  if (!slicing) {
    slicing = true;
    nextTask(slice);
  }
}

port.on('message', (m: CdclThreadMessage) => {
  if (m[0] === 'move') {
    const job = paused.get(m[1]);
    const moved = job?.portfolio.capture() ?? null;
    if (moved) paused.delete(m[1]);
    // (its clause arenas are megabytes: moved, not copied)
    port.postMessage({ id: m[1], moved } satisfies CdclThreadReply, moved ? buffersOf(moved) : []);
  } else if (m[0] === 'drop') {
    running.delete(m[1]);
    paused.delete(m[1]);
  } else if (m[0] === 'resume') {
    const job = paused.get(m[1]);
    if (!job) return;
    paused.delete(m[1]);
    run(m[1], { ...job, budgetMs: m[2], spentMs: 0 });
  } else {
    const { id, puzzle, maxSolutions, deadline, budgetMs, rotation, from } = m[1];
    // a second copy's searches in another order (cdcl-threads.ts CDCL_COPY_ROTATION); on the hard ones a copy of the
    // puzzle transposed joins (cdcl.ts TRANSPOSED_COPY_AFTER)
    run(id, { portfolio: new CdclPortfolioRace(puzzle, { maxSolutions, searches: rotatedSearches(rotation), cleanup: CDCL_CLEANUP }, from), deadline, budgetMs, spentMs: 0 });
  }
});
port.postMessage('ready');
