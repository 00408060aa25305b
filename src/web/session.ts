// One loaded puzzle running in the engine's own Batch: play, pause, single step, reset, speed. The page draws the
// batch's current state buffer every frame; this class only decides how many generations each chunk encodes and
// reads the engine's small status words back between chunks (awaited here, never inside a frame callback).
import { Batch, type GridOutcome, type Mode } from '../engine/batch.ts';
import type { SolveResult } from '../puzzles/types.ts';
import type { GpuContext } from '../gpu/context.ts';
import { StateCounter } from './counter.ts';
import { registeredKind, verifyAsCli, type Judgement, type LoadedPuzzle } from './kind-api.ts';

/** generations per animation frame; 0 = as fast as possible (the engine's adaptive chunks, multi-gen if any) */
export type Speed = number;

export type SessionStatus = 'ready' | 'running' | 'paused' | 'searching' | Judgement['status'];

export interface SessionSnapshot {
  status: SessionStatus;
  detail: string;
  generation: number;
  generationsPerSec: number;
  /** the plot's latest point (unknown cells left, ...), if any */
  counter?: number;
}

/** how long the viewer lets a search finish a stalled puzzle (the command line has no such limit) */
const SEARCH_SECONDS = 60;

/** thrown from the engine's onChunk to end a run() between chunks (the grid keeps running state) */
class StopRun extends Error {}

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

export class Session {
  private batch: Batch | null = null;
  private counter: StateCounter | null = null;
  /** the search finishing a stalled puzzle, while it runs */
  private search: AbortController | null = null;
  /** drawing data a judgement replaced (the viewer uploads it when the version moves) */
  renderAux: Uint32Array | null = null;
  renderAuxVersion = 0;
  private id = -1;
  private loop: Promise<void> | null = null;
  private stopRequested = false;
  private generation = 0;
  private status: SessionStatus = 'ready';
  private detail = '';
  private rate = { generations: 0, since: performance.now(), perSec: 0 };
  /** plot points: generation, rule counter (unknown cells left, fake-path cells ...) */
  readonly counterHistory: { generation: number; value: number }[] = [];
  /** the state or the stats changed (redraw the grid) */
  onUpdate: () => void = () => {};
  /** only the plot's points changed */
  onPlot: () => void = () => {};
  /**
   * True while the user moves the view: the run then gives drawing at least as long as its last chunk took before
   * it encodes the next. On a GPU both fit in a frame; on a software rasteriser compute and drawing share the same
   * cores, and panning must stay smooth without the automaton standing still.
   */
  interacting: () => boolean = () => false;

  constructor(
    private readonly ctx: GpuContext,
    readonly puzzle: LoadedPuzzle,
  ) {}

  async start(): Promise<void> {
    this.batch = await Batch.create(this.ctx, this.puzzle.rule);
    const c = this.puzzle.count;
    if (c) this.counter = await StateCounter.create(this.ctx, { ...c, width: this.puzzle.width, height: this.puzzle.height });
    this.id = this.batch.add(this.puzzle.input);
    await this.uploaded();
    this.generation = 0;
    this.status = 'ready';
    this.counterHistory.length = 0;
    this.countNow();
  }

  /**
   * The engine defers a new grid's upload to its next use; reading no grids is such a use (and costs no readback),
   * so generation 0 is in the state buffer before anything draws or counts it.
   */
  private async uploaded(): Promise<void> {
    await this.batch!.readStates([]);
  }

  /** Plots the counter for the state as of now (non-blocking; see StateCounter). */
  private countNow(): void {
    if (!this.counter || !this.batch) return;
    const generation = this.generation;
    this.counter.count(this.batch.stateView(this.id), (value) => {
      const h = this.counterHistory;
      h.push({ generation, value });
      if (h.length > 1 && h[h.length - 2].generation > generation) h.sort((a, b) => a.generation - b.generation);
      this.onPlot();
    });
  }

  /** The buffer and offset holding the latest generation, for the renderer. */
  stateView(): { buffer: GPUBuffer; offsetWords: number } | null {
    return this.batch ? this.batch.stateView(this.id) : null;
  }

  snapshot(): SessionSnapshot {
    return { status: this.status, detail: this.detail, generation: this.generation, generationsPerSec: this.rate.perSec, counter: this.counterHistory.at(-1)?.value };
  }

  get running(): boolean {
    return this.loop !== null;
  }

  get finished(): boolean {
    return !!this.batch && this.batch.outcome(this.id) !== null;
  }

  play(speed: Speed, multiGen: boolean): void {
    if (this.loop || this.finished || !this.batch) return;
    // multi-generation dispatch only when a frame asks for at least as many generations as one dispatch runs:
    // "1 gen / frame" stays one generation per frame for every rule
    const multi = this.puzzle.rule.multiGeneration;
    const mode: Mode = multiGen && multi && (speed === 0 || speed >= multi.generationsPerDispatch) ? 'multi-gen' : 'one-gen';
    const perDispatch = mode === 'multi-gen' ? multi!.generationsPerDispatch : 1;
    // speed > 0: one chunk of `speed` generations per frame; 0: the engine's adaptive chunk size, no frame wait
    const readbackEvery = speed > 0 ? Math.max(1, Math.round(speed / perDispatch)) : undefined;
    this.runLoop(mode, readbackEvery, speed > 0, 'running');
  }

  step(): void {
    if (this.loop || this.finished || !this.batch) return;
    this.runLoop('one-gen', 1, false, 'paused', true);
  }

  /** Stops after the chunk in flight; resolves when the engine's run has returned. */
  async pause(): Promise<void> {
    // a search finishing a stalled puzzle stops too (it has no chunks to stop between)
    this.search?.abort();
    if (!this.loop) return;
    this.stopRequested = true;
    await this.loop;
  }

  /** Back to generation 0: the grid is released and added again from the loaded input. */
  async reset(): Promise<void> {
    await this.pause();
    if (!this.batch) return;
    this.batch.release(this.id);
    this.id = this.batch.add(this.puzzle.input);
    await this.uploaded();
    this.generation = 0;
    this.status = 'ready';
    this.detail = '';
    if (this.renderAux) {
      this.renderAux = this.puzzle.renderAux ?? null;
      this.renderAuxVersion++;
    }
    this.puzzle.reset?.();
    this.counterHistory.length = 0;
    this.countNow();
    this.rate = { generations: 0, since: performance.now(), perSec: 0 };
    this.onUpdate();
  }

  async destroy(): Promise<void> {
    await this.pause();
    this.batch?.destroy();
    this.batch = null;
    this.counter?.destroy();
    this.counter = null;
  }

  private runLoop(mode: Mode, readbackEvery: number | undefined, framePaced: boolean, runningStatus: SessionStatus, single = false): void {
    const batch = this.batch!;
    this.stopRequested = false;
    this.status = runningStatus;
    this.rate = { generations: 0, since: performance.now(), perSec: this.rate.perSec };
    let before = batch.stats.generations;
    let chunkStart = performance.now();
    const onChunk = async (finished: GridOutcome[]) => {
      const chunkMs = performance.now() - chunkStart;
      const ran = batch.stats.generations - before;
      before = batch.stats.generations;
      const mine = finished.find((o) => o.id === this.id);
      this.generation = mine ? mine.generations : this.generation + ran;
      this.countRate(ran);
      if (this.counter) this.countNow();
      else if (this.puzzle.counterLabel) {
        // the rule's own counter (report_count), read back with the engine's status words
        const counter = mine ? mine.counter : batch.lastCounters.get(this.id);
        if (counter !== undefined) this.counterHistory.push({ generation: this.generation, value: counter });
      }
      this.onUpdate();
      if (single || this.stopRequested) throw new StopRun();
      const chunkEnd = performance.now();
      if (framePaced) await nextFrame();
      // while the view moves, compute takes at most half the time (a frame at least between chunks)
      if (this.interacting() && !this.stopRequested) {
        do await nextFrame();
        while (this.interacting() && !this.stopRequested && performance.now() - chunkEnd < chunkMs);
      }
      if (this.stopRequested) throw new StopRun();
      chunkStart = performance.now();
    };
    this.loop = (async () => {
      try {
        await batch.run({ mode, readbackEvery, maxGenerations: Number.MAX_SAFE_INTEGER, onChunk });
      } catch (e) {
        if (!(e instanceof StopRun)) {
          this.status = 'error';
          this.detail = (e as Error).message;
          console.warn(`cellsolve viewer: run failed: ${(e as Error).message}`);
        }
      }
      // the judgement (and a search that finishes a stalled puzzle) belongs to the run: reset and load wait for it
      const outcome = batch.outcome(this.id);
      if (outcome) await this.judge(outcome);
      else if (this.status === 'running') this.status = 'paused';
      this.loop = null;
      this.onUpdate();
    })();
  }

  /**
   * The automaton stalled: the command line's complete method finishes the puzzle on the GPU, and its verified
   * solution replaces the grid (frozen, as a finished grid) so the palette shows it. The stall stays in the detail.
   */
  private async completeBySearch(stalled: Judgement): Promise<Judgement> {
    const c = this.puzzle.complete!;
    const kind = registeredKind(c.kind);
    if (!kind) return stalled;
    this.status = 'searching';
    this.detail = `${stalled.detail}; finishing with --method ${c.method} (at most ${SEARCH_SECONDS} s; Reset stops it)`;
    this.onUpdate();
    // a hard puzzle's search could run for minutes with the page waiting on it: Reset, a new puzzle or the deadline
    // ends it (kinds that are interruptible stop between their rounds)
    this.search = new AbortController();
    let result: SolveResult;
    try {
      [result] = await kind.solve(this.ctx, [c.puzzle], { method: c.method, options: {}, timeoutMs: SEARCH_SECONDS * 1000, signal: this.search.signal });
    } finally {
      this.search = null;
    }
    const stall = stalled.detail.replace(/: this puzzle needs.*$/, '');
    if (result.status === 'contradiction') return { status: 'contradiction', detail: `${stall}; --method ${c.method} proves there is no solution` };
    if (!result.solution || (result.status !== 'solved' && result.status !== 'multiple')) return { ...stalled, status: 'unsolved', detail: `${stalled.detail}; --method ${c.method}: ${result.status}${result.reason ? ` (${result.reason})` : ''}` };
    if (!verifyAsCli(c.kind, c.puzzle, result.solution, () => false)) return { status: 'error', detail: `--method ${c.method}: verifier rejected its solution` };
    const batch = this.batch!;
    batch.release(this.id);
    this.id = batch.add(c.input(result.solution));
    batch.retire(this.id, 'done');
    await this.uploaded();
    this.countNow();
    // where the answer came from, as the command line's JSON `note` says it (nonograms: CDCL on a CPU thread)
    const note = result.extra?.note;
    const by = typeof note === 'string' ? ` (${note})` : '';
    if (result.status === 'multiple') {
      return { status: 'multiple', detail: `${stall}; --method ${c.method} found two solutions in ${result.ms.toFixed(0)} ms${by} (the first is drawn), checked by the verifier`, generations: stalled.generations };
    }
    return { status: 'solved', detail: `${stall}; --method ${c.method} finished it in ${result.ms.toFixed(0)} ms${by}, the only solution, checked by the verifier`, generations: stalled.generations };
  }

  private countRate(generations: number): void {
    this.rate.generations += generations;
    const seconds = (performance.now() - this.rate.since) / 1000;
    if (seconds >= 0.5) {
      this.rate.perSec = this.rate.generations / seconds;
      this.rate.generations = 0;
      this.rate.since = performance.now();
    } else if (this.rate.perSec === 0 && seconds > 0) {
      this.rate.perSec = this.rate.generations / seconds;
    }
  }

  /** A finished grid: its final state is read once (not per frame) so the kind can verify and name the result. */
  private async judge(outcome: GridOutcome): Promise<void> {
    this.generation = outcome.generations;
    this.countNow();
    try {
      const state = await this.batch!.readState(this.id);
      let j = this.puzzle.judge(outcome, state);
      if (j.status === 'stuck' && this.puzzle.complete) j = await this.completeBySearch(j);
      this.status = j.status;
      this.detail = j.detail;
      if (j.generations !== undefined) this.generation = j.generations;
      if (j.renderAux) {
        this.renderAux = j.renderAux;
        this.renderAuxVersion++;
      }
    } catch (e) {
      this.status = 'error';
      this.detail = (e as Error).message;
    }
  }
}
