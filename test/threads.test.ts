// The host's worker threads (src/gpu/threads.ts) and CDCL on them beside the GPU (cdcl-threads.ts).
import { getPriority } from 'node:os';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startThread } from '../src/gpu/threads.ts';
import { parseNonograms } from '../src/puzzles/nonogram/codec.ts';
import { CDCL_PUZZLES_PER_THREAD, CdclThreads } from '../src/puzzles/nonogram/cdcl-threads.ts';
import { CDCL_SEARCHES } from '../src/puzzles/nonogram/cdcl.ts';
import type { CdclOutcome } from '../src/puzzles/nonogram/lane.ts';
import { solveCpu, verify } from '../src/puzzles/nonogram/reference.ts';
import { randomPicture } from './nonogram.helpers.ts';
import { skipGpu, withDevice } from './gpu.ts';

const taaiFile = new URL('../../shared/data/nonogram/tournament/question/taai2011.txt', import.meta.url);

describe.skipIf(skipGpu)('host threads', () => {
  it('a worker thread keeps the process\'s priority where the host\'s thread lowered its own for a CPU adapter', async () => {
    await withDevice(async (ctx) => {
      const thread = startThread(new URL('./fixtures/priority-worker.mjs', import.meta.url), {})!;
      const nice = await new Promise<number>((done) => thread.on('message', done));
      thread.terminate();
      const host = getPriority(0);
      if (ctx.adapter.fallback && process.platform === 'linux') expect(host, 'the host yields to the CPU adapter').toBeGreaterThan(0);
      // started from this thread directly, it would have this thread's lowered priority
      expect(nice).toBeLessThan(Math.max(host, 1));
    });
  });
});

describe('CDCL on CPU threads', () => {
  it('answers as the probing solver does; easy puzzles are not held up behind a hard one (passes by least time), a paused puzzle goes on; a drop ends a search', async () => {
    const easy = Array.from({ length: 6 }, (_, k) => randomPicture(12 + k, 10, 300 + k, 55));
    const contradiction = { width: 3, height: 2, rows: [[3], []], columns: [[1], [], [1]] };
    const taai = existsSync(taaiFile) ? parseNonograms(readFileSync(taaiFile), taaiFile.pathname).map((r) => r.puzzle!) : undefined;
    // TAAI #509 (0-based) takes a thread ~36 s, #477 ~0.6 s: more than one pass, so it is paused and resumed
    const hard = taai ? taai[509] : randomPicture(25, 25, 4242, 50);
    const medium = taai ? [taai[477]] : [];
    const puzzles = [hard, ...medium, ...easy, contradiction];
    const got = new Map<number, CdclOutcome>();
    const threads = new CdclThreads(puzzles, 1, 2, Infinity);
    try {
      await new Promise<void>((done) => {
        // the hard one first: the thread's first slot is its
        puzzles.forEach((_, i) =>
          threads.start(i, (o) => {
            got.set(i, o);
            if (puzzles.every((_, k) => k === 0 || got.has(k))) done();
          }),
        );
      });
      if (taai) expect(got.has(0), 'the hard puzzle still searching').toBe(false);
      threads.drop(0);
    } finally {
      threads.close();
    }
    puzzles.forEach((p, i) => {
      if (i === 0) return;
      // TAAI #477 has several solutions (whole runs: multiple); the probing solver takes minutes on it
      const want = medium.includes(p) ? { status: 'multiple', solution: undefined } : solveCpu(p);
      const o = got.get(i)!;
      expect(o.status, `#${i}`).toBe(want.status);
      expect(o.cpuThread, `#${i}`).toBe(true);
      for (const s of o.solutions) expect(verify(p, s), `#${i}`).toBe(true);
      if (want.status === 'solved') expect(o.solutions).toEqual([want.solution]);
    });
  });

  it('past its deadline it starts and resumes nothing: the puzzles still waiting stay for the race to drop', async () => {
    // ~1 s of a thread each (the 30x30 of the CDCL tests), so the deadline finds most of them waiting
    const puzzles = Array.from({ length: 30 }, () => randomPicture(30, 30, 8, 50));
    let outcomes = 0;
    const deadline = performance.now() + 700;
    const threads = new CdclThreads(puzzles, 1, 2, deadline);
    try {
      puzzles.forEach((_, i) => threads.start(i, () => outcomes++));
      await new Promise((r) => setTimeout(r, 2_500));
      // those on the thread at the deadline end there (stopped); before, each waiting puzzle was then given to the
      // thread in turn and stopped at once (a batch of 10,000 ran 30 s past its deadline so)
      expect(outcomes, 'outcomes: the puzzles the thread held at the deadline at most').toBeLessThanOrEqual(CDCL_PUZZLES_PER_THREAD);
      expect(threads.inHand, 'still waiting').toBeGreaterThanOrEqual(puzzles.length - CDCL_PUZZLES_PER_THREAD);
    } finally {
      threads.close();
    }
  });

  it('a thread with two puzzles fewer than another takes one of its paused puzzles, searches and all: every answer verified, none lost', async () => {
    // ~1.7 s of a thread each (several passes); the first thread takes all four (each thread takes puzzles until it
    // holds CDCL_PUZZLES_PER_THREAD), so the second has none until the first's paused ones move
    const hard = randomPicture(30, 30, 222, 50);
    const puzzles = Array.from({ length: CDCL_PUZZLES_PER_THREAD }, () => hard);
    const threads = new CdclThreads(puzzles, 2, 2, Infinity);
    try {
      const got = await Promise.all(puzzles.map((_, i) => new Promise<CdclOutcome>((done) => threads.start(i, done))));
      expect(threads.moves, 'puzzles moved').toBeGreaterThanOrEqual(1);
      for (const o of got) {
        expect(o.status).toBe('multiple');
        expect(new Set(o.solutions).size).toBe(2);
        for (const s of o.solutions) expect(verify(hard, s)).toBe(true);
      }
      expect(threads.inHand).toBe(0);
    } finally {
      threads.close();
    }
  });

  it.runIf(existsSync(taaiFile))('a thread with nothing to run takes a second copy of the puzzle that has had most time (its searches in another order): the first answer counts once; a drop ends both copies', async () => {
    const taai = parseNonograms(readFileSync(taaiFile), taaiFile.pathname).map((r) => r.puzzle!);
    // TAAI #477 (0-based) takes a thread ~0.6 s, #509 tens of seconds
    const puzzles = [taai[477], taai[509], randomPicture(12, 10, 300, 55)];
    const got = new Map<number, CdclOutcome[]>();
    const answered = (i: number) => new Promise<CdclOutcome>((done) => threads.start(i, (o) => (got.set(i, [...(got.get(i) ?? []), o]), done(o))));
    const threads = new CdclThreads(puzzles, 2, 2, Infinity);
    try {
      const first = answered(0);
      // the second thread had nothing: it copied the one puzzle
      expect(threads.copies).toBe(1);
      const o = await first;
      expect(o.status).toBe('multiple');
      for (const s of o.solutions) expect(verify(puzzles[0], s)).toBe(true);
      expect(CDCL_SEARCHES).toContainEqual(o.search);
      // the hard one, copied by the thread that is free again; dropped, both copies end and the threads take the next
      void answered(1);
      expect(threads.copies).toBe(2);
      await new Promise((r) => setTimeout(r, 500));
      expect(threads.inHand).toBe(2);
      threads.drop(1);
      expect(threads.inHand).toBe(0);
      const easy = await answered(2);
      expect(easy.status).toBe(solveCpu(puzzles[2]).status);
      await new Promise((r) => setTimeout(r, 300));
      expect([...got.entries()].map(([i, os]) => [i, os.length])).toEqual([[0, 1], [2, 1]]);
      expect(threads.inHand).toBe(0);
    } finally {
      threads.close();
    }
  });
});
