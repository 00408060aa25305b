// Kernels that run one puzzle per GPU invocation in rounds (lane.wgsl's probing search, cdcl.wgsl's conflict-driven
// search): each job keeps its search in a slot of scratch between rounds. `runRounds` runs one kernel over a list of
// puzzles; `raceRounds` runs two at once on the same puzzles, the second joining only the puzzles the first finds
// hard, and whichever answers a puzzle first ends the other's job on it. Within one kernel, a hard puzzle may get a
// job per variant of its search the same way (RoundKernel.variants).
import { LANE_STATUS, runLanes, scratchUsage, type LaneStatus } from '../../engine/lanes.ts';
import type { GpuContext } from '../../gpu/context.ts';
import type { Nonogram } from './codec.ts';
import { packClues } from './pack.ts';
import { EMPTY, FILLED, initialCells } from './reference.ts';

/** the statuses that answer a puzzle (the others: a cap, a full stack, a search stopped by a deadline) */
export const ANSWERS: ReadonlySet<LaneStatus> = new Set(['solved', 'multiple', 'contradiction']);

/** words per job in the results (shaders/nonogram/job.wgsl RESULT_WORDS): a header, then two solutions of 32 rows */
const RESULT_WORDS = 72;
const RESULT_HEADER = 8;

/** A kernel that runs one puzzle per invocation in rounds, its search kept in a slot of scratch between them. */
export interface RoundKernel<O> {
  label: string;
  /** what the first counter of a job's results counts, cumulative over its rounds (its work: probes, conflicts) */
  work: string;
  pipeline: GPUComputePipeline;
  /** words per slot of scratch (deepen may change it) */
  slotWords: number;
  /**
   * Every slot gets a deeper stack (after a job came back STATUS_DEEPER: it waits at a branch its stack has no room
   * for); slotWords and the params follow. False: already as deep as it goes.
   */
  deepen?(): boolean;
  /** the params words (uniform) for a round of `count` jobs, the run's `round`-th (from 0) */
  params(count: number, round: number): Uint32Array<ArrayBuffer>;
  /** an outcome from a header of counters at `at` (words 1-7) and `found` solutions of 32 rows at `solutionsAt`, of a
   * job that ran search `variant` */
  outcome(status: LaneStatus, w: Uint32Array, at: number, solutionsAt: number, found: number, p: Nonogram, ms: number, variant: number): O;
  /** what of a suspended job's slot to read back at a deadline: its first `words`, where its solutions are and the
   * word that counts them */
  report: { words: number; solutionsAt: number; found: number };
  /** invocations per dispatch and jobs in flight (one slot each) */
  lanes: number;
  slots: number;
  /**
   * The searches (job.wgsl `variant`) a puzzle's jobs run, in the order they join it (default: [0] alone). The first
   * starts the puzzle; each next one starts beside the one before once that has run `joinAfter` rounds without an
   * answer, the searches split the puzzle's share of each round (job.wgsl `share`), and the first answer ends the
   * others. Searches that differ only in a heuristic make trees of very different sizes on the same hard puzzle, so
   * a second one bounds a puzzle's cost by about twice the cheaper's, while easy puzzles, done within `joinAfter`
   * rounds, pay nothing for it.
   */
  variants?: readonly number[];
  joinAfter?: number;
  /** work per job per round, where the kernel's params read it from here */
  budget?: number;
  /** each round as it is packed (tests replay it on a CPU twin) */
  onPack?: (round: number, jobs: PackedJob[]) => void;
}

/** A job as a round runs it: its puzzle, search (member of RoundKernel.variants), slot, share (its budget is the
 * kernel's >> share), whether it goes on from its slot, and its peers (below). */
export interface PackedJob {
  index: number;
  member: number;
  slot: number;
  share: number;
  resume: boolean;
  /** the puzzle's other jobs in this round that were in the round before too: what they published at its end is
   * theirs (a slot new this round may hold a stale job's), in member order */
  peers: { slot: number; member: number }[];
}

export interface RoundStats {
  dispatches: number;
  readbacks: number;
  /** results of jobs a round queued behind the one they ended in (STATUS_GONE) */
  gone?: number;
  /** jobs of a next search started beside a puzzle's first (RoundKernel.variants) */
  joined?: number;
  /** times every slot got a deeper stack (RoundKernel.deepen) */
  deepened?: number;
  /** the kernels' whole work by RoundKernel.work: every job's, also of searches a sibling's answer ended and of rounds
   * queued behind an answer (an outcome counts its answering search's alone) */
  work?: Record<string, number>;
}

interface Job {
  index: number;
  slot: number;
  /** its search is in its slot (it has been in a round) */
  resume: boolean;
  /** rounds it has been packed in (joins count these: the same rounds whether one or two are in flight) */
  rounds: number;
  /** finished or dropped: results of rounds still in flight for it are stale */
  ended: boolean;
  /** which of the kernel's variants it runs (an index in RoundKernel.variants) */
  member: number;
  /** the next member has started beside it */
  joined: boolean;
  /** its work counter at the last round read */
  counted: number;
}

/** the status a kernel gives a job whose search ended in an earlier round (shaders/nonogram/job.wgsl STATUS_GONE) */
const STATUS_GONE = 7;
/** job.wgsl STATUS_DEEPER: suspended at a branch, for a deeper stack */
const STATUS_DEEPER = 8;

/** What a loop of rounds does between them. */
export interface RoundLoop {
  /** before each round is packed: start jobs in free slots */
  refill(): void;
  /** false: pack no more rounds (the ones queued still run and are read) */
  more(): boolean;
  /** after each round is read: the puzzles it finished */
  onFinished(finished: number[]): void;
  /** rounds in flight at most, and a pause before each is packed (runLanes' `inFlight`, `beforeSubmit`) */
  inFlight?(): number;
  beforeSubmit?(): Promise<void> | undefined;
}

/**
 * One kernel's jobs in flight. Each round is one dispatch of them (one slot of scratch each); a job runs until its
 * puzzle is done or it has spent its share of the round, then waits in its slot for the next round. So a round
 * lasts a bounded time (a deadline is looked at between rounds), a hard puzzle never holds a round's other lanes
 * idle at its end for long, and finished puzzles free their slots for new ones.
 *
 * Two rounds are in flight: the next is queued (every job of this one again) before this one is read, so the GPU
 * never waits for the host's readback and decisions, and the host can sleep through a round instead of polling
 * (Dawn's Node bindings poll in a busy loop while a map is pending, taking a core from SwiftShader). A job that
 * ended in a round comes back STATUS_GONE from the one queued behind it; its slot takes a new job a round later.
 */
export class RoundRun<O> {
  /** outcomes by puzzle index: finished jobs, and after stop() the suspended ones */
  readonly out: (O | undefined)[];
  /** a puzzle's words of a job record past its header: its starting cells, then its clue table (packRecord) */
  private readonly records: (PuzzleRecord | undefined)[];
  /** the round's input, reused (writeBuffer copies it): a round of 1,024 jobs is ~300k words */
  private inputWords = new Uint32Array(0);
  private readonly slots: number;
  private scratch: GPUBuffer;
  /** a job of a round with the slots as they are now came back STATUS_DEEPER */
  private deeperWanted = false;
  private readonly free: number[];
  /** jobs not known to have ended */
  private active: Job[] = [];
  /** puzzles with an outcome, here or elsewhere (a puzzle with several jobs has one once the first answers or the
   * last ends): their other jobs leave before their results are looked at */
  private readonly dropped = new Set<number>();
  private readonly started = new Set<number>();
  private msPerJob = 0;
  /** how long the last round took, from the readback before it or its packing, whichever came later (what the next
   * one is expected to take: a paced loop's nap before the packing is not the round's) */
  private roundMs = 0;
  /** rounds packed so far */
  private packed = 0;

  constructor(
    private readonly ctx: GpuContext,
    private readonly puzzles: Nonogram[],
    readonly kernel: RoundKernel<O>,
    private readonly stats: RoundStats,
    private readonly t0 = performance.now(),
  ) {
    this.out = new Array(puzzles.length);
    this.records = new Array(puzzles.length);
    this.slots = Math.max(1, kernel.slots);
    this.scratch = this.slotsBuffer();
    this.free = Array.from({ length: this.slots }, (_, k) => this.slots - 1 - k);
  }

  /** a slot is free for a new job */
  get room(): boolean {
    return this.free.length > 0;
  }

  /** jobs not known to have ended */
  get busy(): number {
    return this.active.length;
  }

  /** the jobs not known to have ended: puzzle index and rounds packed */
  jobs(): readonly { index: number; rounds: number }[] {
    return this.active;
  }

  has(index: number): boolean {
    return this.started.has(index);
  }

  start(index: number): void {
    if (this.started.has(index)) throw new Error(`${this.kernel.label}: puzzle ${index} started twice`);
    this.started.add(index);
    this.active.push(this.newJob(index, 0));
  }

  /** A job of search `member` for puzzle `index` in a free slot, not yet in a round. */
  private newJob(index: number, member: number): Job {
    return { index, slot: this.free.pop()!, resume: false, rounds: 0, ended: false, member, joined: false, counted: 0 };
  }

  /** The next search starts beside each job that has been in `joinAfter` rounds without an answer known, while slots
   * last. (By rounds packed, not read: a puzzle's searches then start in the same rounds, and share clauses alike,
   * whatever the timing; one whose puzzle the round before answered leaves at the next readback.) */
  private joinHard(): void {
    const variants = this.kernel.variants ?? [0];
    const joinAfter = this.kernel.joinAfter ?? Infinity;
    for (const job of this.active.slice()) {
      if (!this.room) return;
      if (job.ended || job.joined || job.rounds < joinAfter || job.member + 1 >= variants.length || this.dropped.has(job.index)) continue;
      job.joined = true;
      this.active.push(this.newJob(job.index, job.member + 1));
      this.stats.joined = (this.stats.joined ?? 0) + 1;
    }
  }

  /** A puzzle answered elsewhere: its job ends at the next round (its slot freed, its results ignored). */
  drop(index: number): void {
    this.dropped.add(index);
  }

  /** Would a round packed now end more than half a round after the deadline, or was the run interrupted? It runs
   * after the one queued; the last round's time is the guess for each. (Not packing it leaves the GPU idle after the
   * queued one: either way the deadline is missed by up to half a round.) */
  late({ deadline, signal }: RoundOptions): boolean {
    return signal?.aborted === true || (deadline !== undefined && performance.now() + 1.5 * this.roundMs > deadline);
  }

  /** Runs rounds of the jobs in flight, two at a time, until `loop.more()` says stop and the queued ones are read. */
  async run(loop: RoundLoop): Promise<void> {
    const { kernel, puzzles } = this;
    // the job lists of the rounds in flight, oldest first, with the slots' words they ran with
    const queued: { round: Job[]; slotWords: number; packedAt: number }[] = [];
    let readAt = performance.now();
    await runLanes(this.ctx, {
      label: kernel.label,
      pipeline: kernel.pipeline,
      lanes: kernel.lanes,
      scratchBytes: 0,
      scratch: this.scratch,
      // the kernel's Params words, in whole 16-byte rows as a uniform is laid out
      paramsBytes: Math.ceil(kernel.params(0, 0).byteLength / 16) * 16,
      jobs: Infinity,
      chunk: kernel.slots,
      more: () => loop.more(),
      inFlight: loop.inFlight,
      beforeSubmit: loop.beforeSubmit,
      // a round takes up to seconds; the one queued behind keeps the GPU busy if the nap overshoots
      napBeforeReadback: 0.9,
      msPerJob: this.msPerJob,
      // a job that ended in the round before is skipped at once
      liveJobs: () => queued[0].round.filter((job) => !job.ended).length,
      onTimed: (ms) => (this.msPerJob = ms),
      onDispatch: () => this.stats.dispatches++,
      onReadback: () => this.stats.readbacks++,
      pack: () => {
        if (this.deeperWanted) this.deepen();
        loop.refill();
        this.joinHard();
        this.active = this.active.filter((job) => !this.leave(job));
        const round = this.active.slice();
        queued.push({ round, slotWords: kernel.slotWords, packedAt: performance.now() });
        // a puzzle's searches split its share of the round (each job's budget >> share): puzzles stay the unit the
        // round shares out evenly, so a hard puzzle's second search does not slow the others
        const searches = new Map<number, Job[]>();
        for (const job of round) searches.get(job.index)?.push(job) ?? searches.set(job.index, [job]);
        const packed: PackedJob[] = round.map((job) => ({
          index: job.index,
          member: job.member,
          slot: job.slot,
          share: Math.ceil(Math.log2(searches.get(job.index)!.length)),
          resume: job.resume,
          peers: searches
            .get(job.index)!
            .filter((other) => other !== job && other.resume)
            .sort((a, b) => a.member - b.member)
            .map(({ slot, member }) => ({ slot, member })),
        }));
        // each job: its record's offset, then the records (header, starting cells, peers, clue table); typed
        // copies of each puzzle's fixed words, since a round is packed for every round of a run
        const records = packed.map((job) => (this.records[job.index] ??= packRecord(puzzles[job.index])));
        let size = round.length;
        packed.forEach((job, k) => (size += 4 + records[k].starts.length + 1 + 2 * job.peers.length + records[k].clues.length));
        if (this.inputWords.length < size) this.inputWords = new Uint32Array(Math.max(size, 2 * this.inputWords.length));
        const words = this.inputWords;
        let at = round.length;
        packed.forEach((job, k) => {
          const p = puzzles[job.index];
          const { starts, clues } = records[k];
          words[k] = at;
          const rec = at;
          words[at++] = p.width | (p.height << 8) | (this.variantOf(round[k]) << 16) | (job.share << 24);
          at++; // the clue table's offset, below
          words[at++] = job.slot;
          words[at++] = job.resume ? 1 : 0;
          // the starting cells, for a new search and for one that starts again (lane.wgsl's restarts)
          words.set(starts, at);
          at += starts.length;
          // the peers (cdcl.wgsl shares learned clauses with them)
          words[at++] = job.peers.length;
          for (const peer of job.peers) {
            words[at++] = peer.slot;
            words[at++] = peer.member;
          }
          words[rec + 1] = at;
          words.set(clues, at);
          at += clues.length;
          round[k].resume = true;
          round[k].rounds++;
        });
        kernel.onPack?.(this.packed, packed);
        const params = kernel.params(round.length, this.packed++);
        return { input: words.subarray(0, size), params, resultWords: Math.max(1, round.length) * RESULT_WORDS, jobs: round.length, scratch: this.scratch };
      },
      unpack: (_first, count, r) => {
        const now = performance.now();
        const { round, slotWords, packedAt } = queued.shift()!;
        this.roundMs = now - Math.max(readAt, packedAt);
        readAt = now;
        const ms = now - this.t0;
        const finished: number[] = [];
        for (let k = 0; k < count; k++) {
          const job = round[k];
          const at = k * RESULT_WORDS;
          if (r[at] === STATUS_GONE) this.stats.gone = (this.stats.gone ?? 0) + 1;
          else this.countWork(job, r[at + 1]);
          if (job.ended) continue;
          if (r[at] === STATUS_GONE) throw new Error(`${kernel.label}: puzzle ${job.index}'s search ended unseen`);
          // a job waiting for a deeper stack is suspended; the round queued behind this one ran with the same slots,
          // so its jobs waiting for depth do not ask again
          if (r[at] === STATUS_DEEPER && slotWords === kernel.slotWords) this.deeperWanted = true;
          const status = r[at] === STATUS_DEEPER ? 'suspended' : LANE_STATUS[r[at]];
          if (!status) throw new Error(`${kernel.label}: puzzle ${job.index} came back without a status`);
          if (this.leave(job)) continue;
          if (status === 'suspended') continue;
          this.end(job);
          // the puzzle's outcome: the first answer, or the last of its jobs to end without one (a cap)
          const answer = ANSWERS.has(status);
          if (!answer && this.active.some((other) => other.index === job.index && !other.ended)) continue;
          this.dropped.add(job.index);
          finished.push(job.index);
          const found = status === 'multiple' ? 2 : status === 'solved' ? 1 : 0;
          this.out[job.index] = kernel.outcome(status, r, at, at + RESULT_HEADER, found, puzzles[job.index], ms, this.variantOf(job));
        }
        this.active = this.active.filter((job) => !job.ended);
        loop.onFinished(finished);
      },
    });
  }

  private countWork(job: Job, counter: number): void {
    const work = (this.stats.work ??= {});
    work[this.kernel.work] = (work[this.kernel.work] ?? 0) + counter - job.counted;
    job.counted = counter;
  }

  /** The searches still in flight, as `suspended` outcomes: their counters and any solution found so far. */
  async stop(): Promise<void> {
    // a job started but never in a round has nothing in its slot: it is left out, as one never started
    const jobs = this.active.filter((job) => !this.leave(job) && job.resume);
    this.active = [];
    if (jobs.length === 0) return;
    const { kernel, puzzles } = this;
    const device = this.ctx.device;
    const { words, solutionsAt, found } = kernel.report;
    const read = device.createBuffer({ label: `${kernel.label}.suspended`, size: 4 * words * jobs.length, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    try {
      const enc = device.createCommandEncoder({ label: `${kernel.label}.suspended` });
      jobs.forEach((job, k) => enc.copyBufferToBuffer(this.scratch, 4 * job.slot * kernel.slotWords, read, 4 * k * words, 4 * words));
      device.queue.submit([enc.finish()]);
      await read.mapAsync(GPUMapMode.READ);
      const h = new Uint32Array(read.getMappedRange().slice(0));
      read.unmap();
      const ms = performance.now() - this.t0;
      // of a puzzle's searches, the one that found the most solutions (the first on a tie)
      const most = new Map<number, number>();
      jobs.forEach((job, k) => {
        const at = k * words;
        const count = Math.min(2, h[at + found]);
        if ((most.get(job.index) ?? -1) >= count) return;
        most.set(job.index, count);
        this.out[job.index] = kernel.outcome('suspended', h, at, at + solutionsAt, count, puzzles[job.index], ms, this.variantOf(job));
      });
    } finally {
      read.destroy();
    }
  }

  destroy(): void {
    this.ctx.releaseScratch(this.scratch);
  }

  /** Every slot a deeper stack: a bigger buffer, each slot copied to its new place after the rounds queued so far. */
  private deepen(): void {
    this.deeperWanted = false;
    const { kernel, ctx } = this;
    const before = kernel.slotWords;
    if (!kernel.deepen?.()) return;
    const old = this.scratch;
    this.scratch = this.slotsBuffer();
    const enc = ctx.device.createCommandEncoder({ label: `${kernel.label}.deepen` });
    for (let k = 0; k < this.slots; k++) enc.copyBufferToBuffer(old, 4 * k * before, this.scratch, 4 * k * kernel.slotWords, 4 * before);
    ctx.device.queue.submit([enc.finish()]);
    // freed once the work queued on it is done, not kept as the context's spare: the run goes on with the deeper one,
    // and a spare of the size before (168 MB at TAAI's last step to 256 MB) would stay beside it to the run's end
    old.destroy();
    this.stats.deepened = (this.stats.deepened ?? 0) + 1;
  }

  /** A buffer for every slot as the kernel lays them out now. A slot is written before it is read (a new job's header
   * by open_job, its stack by pushes), so a reused buffer serves as well as a new one. */
  private slotsBuffer(): GPUBuffer {
    const { kernel } = this;
    return this.ctx.acquireScratch(`${kernel.label}.slots`, 4 * this.slots * kernel.slotWords, scratchUsage());
  }

  /** a dropped job leaves: its slot is freed */
  private leave(job: Job): boolean {
    if (job.ended || !this.dropped.has(job.index)) return false;
    this.end(job);
    return true;
  }

  private variantOf(job: Job): number {
    return (this.kernel.variants ?? [0])[job.member];
  }

  /** Its slot takes another job in the next round packed: the kernel runs rounds in order, and a new job starts
   * afresh where a round still queued finds the old one gone (or, dropped, runs it on for nothing). */
  private end(job: Job): void {
    job.ended = true;
    this.free.push(job.slot);
  }
}

export interface RoundOptions {
  /** checked between rounds: puzzles not finished by then come back `suspended`, or undefined if never started */
  deadline?: number;
  /** an abort (Ctrl-C on the command line) ends the rounds as the deadline does */
  signal?: AbortSignal;
  /** after each round: how many puzzles it finished */
  onChunk?: (count: number) => void;
}

/** runRounds' options with a hook for each puzzle's outcome as its search ends */
export interface RunRoundsOptions<O> extends RoundOptions {
  onOutcome?: (index: number, outcome: O) => void;
}

/** Runs a round kernel over the puzzles; outcomes in puzzle order. */
export async function runRounds<O>(ctx: GpuContext, puzzles: Nonogram[], kernel: RoundKernel<O>, opts: RunRoundsOptions<O>, stats: RoundStats): Promise<(O | undefined)[]> {
  const run = new RoundRun(ctx, puzzles, kernel, stats);
  try {
    let next = 0;
    await run.run({
      refill: () => {
        while (run.room && next < puzzles.length) run.start(next++);
      },
      more: () => !run.late(opts) && (run.busy > 0 || next < puzzles.length),
      onFinished: (finished) => {
        if (finished.length) opts.onChunk?.(finished.length);
        for (const i of finished) opts.onOutcome?.(i, run.out[i]!);
      },
    });
    await run.stop();
  } finally {
    run.destroy();
  }
  return run.out;
}

export interface RaceOptions<A, B> extends RoundOptions {
  /** rounds a puzzle's job runs on the first kernel before the second one starts on it too */
  joinAfter?: number;
  /** each puzzle's answer as it comes, from the kernel that found it */
  onFirst?: (index: number, outcome: A) => void;
  onSecond?: (index: number, outcome: B) => void;
  /**
   * The share of the GPU's time the second kernel aims at while both run: it then keeps one round in flight, and
   * after each waits (1 - share) / share of that round's time, in which the first kernel has the GPU, before it
   * queues the next. Without it both loops keep two rounds in flight, and since the queue alternates them each kernel
   * gets the GPU in proportion to its round's length: 16 CDCL jobs of 100 conflicts (~2 s) beside probing's few tail
   * puzzles (~0.1 s rounds) took over 90% of it (a TAAI run's open puzzles got 577,750 probes in 45 minutes instead
   * of 7.5M). Its rounds keep their budget: a puzzle's searches (which share clauses at round ends) run the same
   * conflicts per round whatever the timing, and a round of 25 conflicts per search costs less per conflict than the
   * 1-5 that scaling the budget down to the probing tail's ~0.1-s rounds used to leave.
   */
  secondShare?: number;
  /** a solver beside the kernels (CPU threads) for puzzles the first kernel has not answered in `helperJoinAfter`
   * rounds (default joinAfter), or in one round once the race is `helperJoinMs` old, the longest-running first, as it
   * has room; its outcomes count as the second's */
  helper?: RaceHelper<B>;
  helperJoinAfter?: number;
  helperJoinMs?: number;
  /**
   * The first kernel's share of the machine once the helper holds every puzzle it still searches (a CPU adapter's
   * rounds run on the cores the helper's threads need): it then keeps one round in flight and after each waits
   * (1 - share) / share of that round's time before it packs the next. Unset: no pause.
   */
  helpedShare?: number;
}

/** A solver that races the kernels from outside the GPU (cdcl-threads.ts: CDCL on CPU threads). */
export interface RaceHelper<O> {
  /** puzzles it can take now */
  readonly room: number;
  /** starts puzzle `index`; `done` gets its outcome once, unless the puzzle is dropped first */
  start(index: number, done: (outcome: O) => void): void;
  /** the puzzle was answered elsewhere, or the run stops: its search ends */
  drop(index: number): void;
}

/**
 * Runs two round kernels on the same puzzles at once, each in its own loop of rounds (their dispatches share the
 * GPU's queue). The first takes every puzzle in order; the second takes a puzzle once the first's job on it has run
 * `joinAfter` rounds without an answer (easy puzzles stay off it). The first answer of a puzzle ends the other
 * kernel's job on it. `second` may be a promise-maker: it is then made (its pipeline compiled) only when a puzzle
 * is half way to the join, so a late join costs a run that never gets near it nothing, and the compile (on the host's
 * thread, which yields to a CPU adapter's workers: ~20 s instead of ~7 s beside a busy SwiftShader) is done by the
 * time a puzzle needs it. Both kernels' outcomes in puzzle order:
 * a job ended by the other's answer has none; at a deadline, both kernels' suspended searches.
 */
export async function raceRounds<A extends { status: LaneStatus }, B extends { status: LaneStatus }>(
  ctx: GpuContext,
  puzzles: Nonogram[],
  first: RoundKernel<A>,
  second: RoundKernel<B> | (() => Promise<RoundKernel<B>>) | undefined,
  opts: RaceOptions<A, B>,
  stats: RoundStats,
): Promise<{ first: (A | undefined)[]; second: (B | undefined)[] }> {
  const t0 = performance.now();
  const a = new RoundRun(ctx, puzzles, first, stats, t0);
  let b = typeof second === 'object' ? new RoundRun(ctx, puzzles, second, stats, t0) : undefined;
  const joinAfter = opts.joinAfter ?? 2;
  const answered = new Set<number>();
  const { helper } = opts;
  // puzzles handed to the helper, those of them it still searches, and its outcomes
  const helped = new Set<number>();
  const helping = new Set<number>();
  const helperOut: (B | undefined)[] = new Array(puzzles.length);
  /** The first answer of a puzzle ends the others' searches on it (one that ended without an answer, a cap, leaves
   * the puzzle to the others). */
  const answer = <O extends { status: LaneStatus }>(i: number, outcome: O, from: 'a' | 'b' | 'helper', report?: (index: number, outcome: O) => void): number => {
    if (answered.has(i) || !ANSWERS.has(outcome.status)) return 0;
    answered.add(i);
    if (from !== 'a') a.drop(i);
    if (from !== 'b') b?.drop(i);
    if (from !== 'helper' && helping.delete(i)) helper!.drop(i);
    report?.(i, outcome);
    // a paced first loop's nap (helpedShare: many rounds long) ends once it has nothing left to search
    if (from === 'helper' && opts.helpedShare !== undefined && a.jobs().every((job) => answered.has(job.index))) wake();
    return 1;
  };
  const finish = <O extends { status: LaneStatus }>(finished: number[], run: RoundRun<O>, from: 'a' | 'b', report?: (index: number, outcome: O) => void) => {
    let count = 0;
    for (const i of finished) count += answer(i, run.out[i]!, from, report);
    if (count) opts.onChunk?.(count);
  };
  const ready = (job: { index: number; rounds: number }) => job.rounds >= joinAfter && !answered.has(job.index);
  const join = (run: RoundRun<B>) => {
    for (const job of a.jobs()) {
      if (!run.room) break;
      if (ready(job) && !run.has(job.index)) run.start(job.index);
    }
  };
  // the other loops' naps end early when the first loop ends (a small batch is done in tens of ms)
  const wakers = new Set<() => void>();
  const wake = () => {
    for (const w of wakers) w();
  };
  // A nap ends at the deadline and on an abort too: a paced one is many rounds long, and on a batch of 10,000 (rounds
  // of seconds) one ran 30 s past a 90-s deadline with every core idle.
  const nap = (ms: number) =>
    new Promise<void>((done) => {
      const end = () => {
        clearTimeout(timer);
        wakers.delete(end);
        opts.signal?.removeEventListener('abort', end);
        done();
      };
      const untilDeadline = opts.signal?.aborted ? 0 : opts.deadline === undefined ? ms : Math.max(0, opts.deadline - performance.now());
      const timer = setTimeout(end, Math.min(ms, untilDeadline));
      wakers.add(end);
      opts.signal?.addEventListener('abort', end);
    });
  // The second kernel's last round's GPU time, as the time since the readback before it of either kernel (rounds
  // run one after another on the queue, which is never empty while both run), and when it was read.
  let lastRead = performance.now();
  const secondRound = { took: 0, readAt: 0 };
  let firstDone = false;
  const share = opts.secondShare;
  const paced = () => share !== undefined && !firstDone;
  // the nap after a round of `took` ms read at `readAt` that leaves its kernel `share` of the time
  const napAfter = (round: { took: number; readAt: number }, share: number) => {
    const ms = round.readAt + (round.took * (1 - share)) / share - performance.now();
    return ms >= 1 ? nap(ms) : undefined;
  };
  const pause = () => (paced() && secondRound.took ? napAfter(secondRound, share!) : undefined);
  // the first kernel's last round, from its packing to its readback (with two in flight, from the later one's: the
  // first pause after the helper takes the last puzzle may go by a short measure, once)
  const firstRound = { took: 0, readAt: 0, packedAt: 0 };
  const helpedShare = opts.helpedShare;
  const allHelped = () => helpedShare !== undefined && helping.size > 0 && a.jobs().every((job) => helping.has(job.index) || answered.has(job.index));
  const packed = () => {
    firstRound.packedAt = performance.now();
  };
  const pauseFirst = () => {
    const wait = allHelped() && firstRound.took ? napAfter(firstRound, helpedShare!) : undefined;
    if (wait) return wait.then(packed);
    packed();
    return undefined;
  };
  try {
    const loopA = (async () => {
      let next = 0;
      try {
        await a.run({
          refill: () => {
            for (; a.room && next < puzzles.length; next++) if (!answered.has(next)) a.start(next);
          },
          more: () => !a.late(opts) && (a.busy > 0 || next < puzzles.length),
          onFinished: (finished) => {
            lastRead = performance.now();
            firstRound.took = lastRead - firstRound.packedAt;
            firstRound.readAt = lastRead;
            finish(finished, a, 'a', opts.onFirst);
          },
          inFlight: () => (allHelped() ? 1 : 2),
          beforeSubmit: pauseFirst,
        });
      } finally {
        firstDone = true;
        wake();
      }
    })();
    const loopB = (async () => {
      // the second kernel is made when a puzzle is half way to the join, and runs when one gets there (looked for
      // every 50 ms: a.jobs() can be 1,000 long)
      let making: Promise<RoundKernel<B>> | undefined;
      const make = () => {
        making ??= (second as () => Promise<RoundKernel<B>>)();
        // a run that ends before the join never awaits it
        making.catch(() => {});
        return making;
      };
      const halfWay = (job: { index: number; rounds: number }) => 2 * job.rounds >= joinAfter && !answered.has(job.index);
      while (!b && second && !firstDone && !a.late(opts)) {
        const jobs = a.jobs();
        if (jobs.some(halfWay)) make();
        if (jobs.some(ready)) b = new RoundRun(ctx, puzzles, await make(), stats, t0);
        else await nap(50);
      }
      const run = b;
      if (!run) return;
      const onFinished = (finished: number[]) => {
        const now = performance.now();
        secondRound.took = now - lastRead;
        secondRound.readAt = lastRead = now;
        finish(finished, run, 'b', opts.onSecond);
      };
      const inFlight = () => (paced() ? 1 : 2);
      while (!run.late(opts)) {
        join(run);
        if (run.busy) await run.run({ refill: () => join(run), more: () => !run.late(opts) && run.busy > 0, onFinished, inFlight, beforeSubmit: pause });
        else if (firstDone) break;
        else await nap(5);
      }
    })();
    const helperJoin = opts.helperJoinAfter ?? joinAfter;
    const loopHelper = (async () => {
      if (!helper) return;
      while (!firstDone && !a.late(opts)) {
        if (helper.room > 0) {
          const pastJoinMs = opts.helperJoinMs !== undefined && performance.now() - t0 >= opts.helperJoinMs;
          const rounds = pastJoinMs ? Math.min(1, helperJoin) : helperJoin;
          const waiting = a.jobs().filter((job) => job.rounds >= rounds && !answered.has(job.index) && !helped.has(job.index));
          waiting.sort((x, y) => y.rounds - x.rounds);
          for (const { index } of waiting) {
            if (helper.room <= 0) break;
            // a puzzle with two searches on the first kernel is two of its jobs
            if (helped.has(index)) continue;
            helped.add(index);
            helping.add(index);
            helper.start(index, (outcome) => {
              helping.delete(index);
              helperOut[index] = outcome;
              if (answer(index, outcome, 'helper', opts.onSecond)) opts.onChunk?.(1);
            });
          }
        }
        await nap(100);
      }
      // a puzzle the first kernel ended without an answer (a cap) may still get one here
      while (helping.size > 0 && !a.late(opts)) await nap(50);
      for (const i of helping) helper.drop(i);
    })();
    await Promise.all([loopA, loopB, loopHelper]);
    await a.stop();
    await b?.stop();
  } finally {
    a.destroy();
    b?.destroy();
  }
  const secondOut = b?.out ?? new Array<B | undefined>(puzzles.length);
  helperOut.forEach((o, i) => {
    // the helper's answer, else the kernel's outcome (a suspended search), else the helper's stopped one
    if (o && (ANSWERS.has(o.status) || !secondOut[i])) secondOut[i] = o;
  });
  return { first: a.out, second: secondOut };
}

/** A puzzle's part of every job record of it: the starting cells (rows' filled bits, then empty bits) and its clue
 * table (packClues). */
interface PuzzleRecord {
  starts: Uint32Array;
  clues: Uint32Array;
}

function packRecord(p: Nonogram): PuzzleRecord {
  // the starting cells as rows' filled bits (words 0..height-1), then their empty bits
  const cells = initialCells(p);
  const starts = new Uint32Array(2 * p.height);
  for (let i = 0; i < cells.length; i++) {
    const r = Math.floor(i / p.width);
    const bit = 1 << (i - r * p.width);
    if (cells[i] === FILLED) starts[r] |= bit;
    else if (cells[i] === EMPTY) starts[p.height + r] |= bit;
  }
  return { starts, clues: packClues(p) };
}
