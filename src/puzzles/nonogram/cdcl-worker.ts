// Conflict-driven search on a CPU thread beside the GPU (cdcl-threads.ts): the thread holds a few puzzles and gives
// each a turn of its searches in rotation (CdclPortfolio.step), so a puzzle that needs minutes does not hold back one
// that needs a second. A puzzle runs until its pass's budget of the thread's time is spent, then comes back
// `suspended` with `spent` (the host may run it again with a larger budget). Between slices of SLICE_MS the thread
// returns to its event loop, where new puzzles and drops arrive as messages. 'ready' out once loaded.
import type { Nonogram } from './codec.ts';
import { CdclPortfolio, type PortfolioResult } from './cdcl.ts';
import { workerPort } from '../../gpu/threads.ts';

const port = workerPort();

/** in: start a puzzle (`deadline` in ms since the epoch: threads have their own now()), or drop one */
export type CdclThreadMessage = ['start', { id: number; puzzle: Nonogram; maxSolutions: number; deadline: number; budgetMs: number }] | ['drop', number];
/** out, once per puzzle started unless dropped: its result, and the thread's ms it took (`budget`: its pass's
 * budget ran out, else the search ended or the deadline came) */
export type CdclThreadReply = { id: number; result: PortfolioResult; spentMs: number; budget: boolean };

/** how long the thread runs turns before it looks at its messages */
const SLICE_MS = 20;

const now = () => performance.timeOrigin + performance.now();
const held = new Map<number, { portfolio: CdclPortfolio; deadline: number; budgetMs: number; spentMs: number }>();
let running = false;

function reply(id: number, result: PortfolioResult, budget = false): void {
  const spentMs = held.get(id)!.spentMs;
  held.delete(id);
  port.postMessage({ id, result, spentMs, budget } satisfies CdclThreadReply);
}

function slice(): void {
  const end = now() + SLICE_MS;
  while (held.size && now() < end) {
    for (const [id, job] of held) {
      const t = now();
      if (t >= job.deadline) reply(id, job.portfolio.stopped());
      else if (job.spentMs >= job.budgetMs) reply(id, job.portfolio.stopped(), true);
      else {
        const r = job.portfolio.step();
        job.spentMs += now() - t;
        if (r) reply(id, r);
      }
    }
  }
  running = held.size > 0;
  // setImmediate: the messages that came meanwhile are handled before the next slice
  if (running) setImmediate(slice);
}

port.on('message', (m: CdclThreadMessage) => {
  if (m[0] === 'drop') {
    held.delete(m[1]);
    return;
  }
  const { id, puzzle, maxSolutions, deadline, budgetMs } = m[1];
  held.set(id, { portfolio: new CdclPortfolio(puzzle, { maxSolutions }), deadline, budgetMs, spentMs: 0 });
  if (!running) {
    running = true;
    setImmediate(slice);
  }
});
port.postMessage('ready');
