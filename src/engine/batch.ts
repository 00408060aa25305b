// Batch: many grids of mixed sizes in one set of storage buffers, advanced together, one dispatch per generation
// (or per several, in multi-generation mode) for all of them. Shader twin: shaders/engine/batch.wgsl.
//
// Between readbacks the host may add grids (a puzzle's probing or branching copies) and finished grids leave the
// dispatch (their tiles are dropped from the tile table); pipelines never change.
import { GpuContext, GpuError } from '../gpu/context.ts';
import { RangeAllocator } from './alloc.ts';
import {
  FLAG_CHANGED,
  FLAG_CONTRADICTION,
  MAX_CHUNK,
  STATUS_WORDS,
  STEP_STRIDE,
  WORKGROUP_SIZE,
} from './constants.ts';
import type { GridInput, Rule } from './rule.ts';

export type Mode = 'one-gen' | 'multi-gen';

export type GridStatus =
  | 'running'
  /** nothing changed in a generation: the rule has nothing more to say */
  | 'fixpoint'
  /** fixpoint with no item pending: the puzzle is complete (rules that track completion) */
  | 'done'
  | 'contradiction'
  | 'capped'
  | 'timeout';

export interface GridOutcome {
  id: number;
  status: GridStatus;
  /** generations this grid went through (to its fixpoint, cap or contradiction) */
  generations: number;
  /** sticky flags raised in the last chunk (rule bits included) */
  flags: number;
  /** the rule counter of the last chunk (shaders' report_count) */
  counter: number;
  /** dispatches this grid took part in */
  dispatches: number;
}

/** Whether a run that began at `started` (performance.now()) is to stop: past its `timeoutMs`, or aborted. */
export function runOver(started: number, opts: { timeoutMs?: number; signal?: AbortSignal }): boolean {
  return (opts.timeoutMs !== undefined && performance.now() - started > opts.timeoutMs) || opts.signal?.aborted === true;
}

export interface RunOptions {
  /** default cap for grids that set none; default 1,000,000 */
  maxGenerations?: number;
  mode?: Mode;
  /** fixed generations (dispatches) per readback; default adaptive */
  readbackEvery?: number;
  /** wall-clock budget in ms; grids still running then end as 'timeout' */
  timeoutMs?: number;
  /** an abort (Ctrl-C) ends the grids still running as the deadline does ('timeout'), at the next readback */
  signal?: AbortSignal;
  /**
   * Sleep this fraction of the previous chunk's time after submitting a chunk, before waiting on its readback
   * (default 0: wait at once). Dawn's Node bindings poll in a busy loop while a map is pending, taking a core from
   * SwiftShader's threads; chunks of similar length then run ~20% faster (nonogram rounds, 0.8).
   */
  napBeforeReadback?: number;
  /**
   * Called after each readback with the grids that finished in it (already out of the dispatch). The caller
   * may read their states, release them and add new grids; the run goes on while any grid is running.
   */
  onChunk?: (finished: GridOutcome[], batch: Batch) => void | Promise<void>;
}

export interface BatchOptions {
  /** cap on state/aux words below the device's limit (tests of chunking use it) */
  maxWords?: number;
  /**
   * The dispatch modes whose pipelines are compiled now (default: every mode the rule has); another compiles when a
   * run first needs it. A pipeline takes up to seconds to compile on SwiftShader (the nonogram rule on 2-word lines:
   * its two one-generation entry points, which its rounds solver never dispatches, were two thirds of its compile),
   * so a caller that runs one mode compiles that one alone.
   */
  modes?: readonly Mode[];
}

export interface RunStats {
  generations: number;
  dispatches: number;
  readbacks: number;
  seconds: number;
}

interface Slot {
  id: number;
  input: GridInput;
  items: number;
  stateOffset: number;
  stateWords: number;
  auxOffset: number;
  auxWords: number;
  /** batch dispatch count when the grid joined */
  joinedAt: number;
  generations: number;
  dispatches: number;
  cap: number | undefined;
  outcome: GridOutcome | null;
  released: boolean;
}

const GRID_WORDS = 12;
/** Tile.firstItem bit: the tile holds several small grids (shaders/engine/batch.wgsl) */
const TILE_SHARED = 0x80000000;
const BATCH_INFO_BYTES = 16;
/** readbacks aim at this many ms of GPU work between them when adaptive */
const TARGET_CHUNK_MS = 150;

const usage = () => ({
  storage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
  uniform: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  staging: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
});

export class Batch {
  readonly maxWords: number;
  private readonly device: GPUDevice;
  private readonly slots: Slot[] = [];
  private readonly freeSlots: number[] = [];
  private readonly stateAlloc = new RangeAllocator();
  private readonly auxAlloc = new RangeAllocator();
  private stateBuffers: GPUBuffer[] = [];
  private auxBuffer!: GPUBuffer;
  private gridsBuffer!: GPUBuffer;
  private tilesBuffer!: GPUBuffer;
  private statusBuffer!: GPUBuffer;
  private readonly stepBuffer: GPUBuffer;
  private readonly infoBuffer: GPUBuffer;
  private stagingBuffer: GPUBuffer | null = null;
  private commonGroup: GPUBindGroup | null = null;
  private stateGroups: GPUBindGroup[] = [];
  private tableDirty = true;
  private tileCount = 0;
  private mode: Mode = 'one-gen';
  /** which state buffer holds the latest generation (ping-pong) */
  private current = 0;
  /** dispatches encoded over the batch's life */
  private dispatchCount = 0;
  readonly stats: RunStats = { generations: 0, dispatches: 0, readbacks: 0, seconds: 0 };

  private constructor(
    readonly ctx: GpuContext,
    readonly rule: Rule,
    private readonly layouts: { common: GPUBindGroupLayout; state: GPUBindGroupLayout },
    private readonly pipelines: { oneGen: GPUComputePipeline[] | null; multiGen: GPUComputePipeline | null; make: (entryPoint: string) => Promise<GPUComputePipeline> },
    maxWords: number | undefined,
  ) {
    this.device = ctx.device;
    const limit = Math.min(ctx.limits.maxStorageBufferBindingSize, ctx.limits.maxBufferSize);
    this.maxWords = Math.min(Math.floor(limit / 4), maxWords ?? Infinity);
    const u = usage();
    this.stepBuffer = this.device.createBuffer({ label: `${rule.name}.step`, size: MAX_CHUNK * STEP_STRIDE, usage: u.uniform, mappedAtCreation: true });
    // the generation index of dispatch j (1-based) sits at byte j*STEP_STRIDE: written once, addressed by dynamic offset
    const steps = new Uint32Array(this.stepBuffer.getMappedRange());
    for (let j = 0; j < MAX_CHUNK; j++) steps[(j * STEP_STRIDE) / 4] = j + 1;
    this.stepBuffer.unmap();
    this.infoBuffer = this.device.createBuffer({ label: `${rule.name}.batchInfo`, size: BATCH_INFO_BYTES, usage: u.uniform });
    this.stateBuffers = this.stateBufferPair(1024);
    this.auxBuffer = this.buffer(`${rule.name}.aux`, 1024);
    this.gridsBuffer = this.buffer(`${rule.name}.grids`, 64 * GRID_WORDS);
    this.tilesBuffer = this.buffer(`${rule.name}.tiles`, 1024);
    this.statusBuffer = this.buffer(`${rule.name}.status`, 64 * STATUS_WORDS);
  }

  /** Compiles (or takes from the cache) the rule's pipelines and makes an empty batch. */
  static async create(ctx: GpuContext, rule: Rule, opts: BatchOptions = {}): Promise<Batch> {
    const { common, state, layout } = layoutsFor(ctx, rule);
    const files = ['engine/batch.wgsl', rule.stateAccess === 'ping-pong' ? 'engine/pingpong.wgsl' : 'engine/inplace.wgsl', ...rule.files];
    const constants = { WORKGROUP_SIZE, ...(rule.constants ?? {}) };
    const layoutKey = `${rule.stateAccess}`;
    const make = (entryPoint: string) => ctx.computePipeline({ files, entryPoint, constants, layout, layoutKey });
    const batch = new Batch(ctx, rule, { common, state }, { oneGen: null, multiGen: null, make }, opts.maxWords);
    for (const mode of opts.modes ?? (rule.multiGeneration ? (['one-gen', 'multi-gen'] as const) : (['one-gen'] as const))) await batch.compiled(mode);
    return batch;
  }

  /** The pipelines of a mode, compiled (or taken from the device's cache) on first use. */
  private async compiled(mode: Mode): Promise<void> {
    const p = this.pipelines;
    if (mode === 'one-gen') p.oneGen ??= await Promise.all(this.rule.entryPoints.map(p.make));
    else if (!this.rule.multiGeneration) throw new GpuError(`rule ${this.rule.name} has no multi-generation dispatch`);
    else p.multiGen ??= await p.make(this.rule.multiGeneration.entryPoint);
  }

  /** Compiles the rules' pipelines into the context's cache ahead of any batch, so that a caller can time
   * compilation apart from solving (CLI.md: `ms` excludes it). */
  static async compile(ctx: GpuContext, rules: readonly Rule[], modes?: readonly Mode[]): Promise<void> {
    for (const rule of rules) (await Batch.create(ctx, rule, { modes })).destroy();
  }

  /** Words a grid needs in the state buffer; a grid larger than the device allows gets a clear error. */
  static checkFits(ctx: GpuContext, grid: GridInput): void {
    const limit = Math.min(ctx.limits.maxStorageBufferBindingSize, ctx.limits.maxBufferSize);
    const bytes = grid.state.length * 4;
    if (bytes > limit) {
      throw new GpuError(
        `a ${grid.width}x${grid.height} grid needs ${bytes} bytes of state, more than this device's storage buffer limit of ${limit} bytes`,
      );
    }
  }

  /** Could this grid join without exceeding the device's buffer limits? */
  canAdd(grid: GridInput): boolean {
    return this.stateAlloc.fits(grid.state.length, this.maxWords) && this.auxAlloc.fits(grid.aux?.length ?? 0, this.maxWords);
  }

  get activeCount(): number {
    return this.slots.filter((s) => !s.released && !s.outcome).length;
  }

  /** Adds a grid; it starts running at the next run() or chunk. Returns its id. */
  add(input: GridInput): number {
    Batch.checkFits(this.ctx, input);
    if (!this.canAdd(input)) throw new GpuError(`batch ${this.rule.name} is full (device buffer limits); start another batch`);
    const stateWords = input.state.length;
    const auxWords = input.aux?.length ?? 0;
    const stateOffset = this.stateAlloc.alloc(stateWords);
    const auxOffset = this.auxAlloc.alloc(auxWords);
    this.ensureState(this.stateAlloc.top);
    this.ensureAux(this.auxAlloc.top);
    const id = this.freeSlots.length ? this.freeSlots.pop()! : this.slots.length;
    const slot: Slot = {
      id,
      input,
      items: input.items,
      stateOffset,
      stateWords,
      auxOffset,
      auxWords,
      joinedAt: this.dispatchCount,
      generations: 0,
      dispatches: 0,
      cap: input.maxGenerations,
      outcome: null,
      released: false,
    };
    this.slots[id] = slot;
    if (stateWords) this.pendingState.push({ offset: stateOffset, words: input.state });
    if (auxWords) this.pendingAux.push({ offset: auxOffset, words: input.aux! });
    this.tableDirty = true;
    return id;
  }

  /** uploads queued by add(), written in as few writeBuffer calls as possible before the next use */
  private pendingState: { offset: number; words: Uint32Array }[] = [];
  private pendingAux: { offset: number; words: Uint32Array }[] = [];

  private flushUploads(): void {
    const write = (pending: { offset: number; words: Uint32Array }[], targets: GPUBuffer[]) => {
      pending.sort((a, b) => a.offset - b.offset);
      for (let i = 0; i < pending.length; ) {
        // merge runs of adjacent grids into one upload (10,000 small grids: a handful of writes, not 20,000)
        let j = i;
        let end = pending[i].offset + pending[i].words.length;
        while (j + 1 < pending.length && pending[j + 1].offset === end) end += pending[++j].words.length;
        const run = new Uint32Array(end - pending[i].offset);
        for (let k = i; k <= j; k++) run.set(pending[k].words, pending[k].offset - pending[i].offset);
        for (const b of targets) this.device.queue.writeBuffer(b, pending[i].offset * 4, run);
        i = j + 1;
      }
      pending.length = 0;
    };
    write(this.pendingState, this.stateBuffers);
    write(this.pendingAux, [this.auxBuffer]);
  }

  /** Frees a grid's buffer space; its id may be reused by a later add(). */
  release(id: number): void {
    const s = this.slot(id);
    s.released = true;
    this.pendingState = this.pendingState.filter((p) => p.offset !== s.stateOffset || p.words !== s.input.state);
    this.pendingAux = this.pendingAux.filter((p) => p.offset !== s.auxOffset || p.words !== s.input.aux);
    this.stateAlloc.release(s.stateOffset, s.stateWords);
    this.auxAlloc.release(s.auxOffset, s.auxWords);
    this.freeSlots.push(id);
    this.tableDirty = true;
  }

  /** Stops advancing a grid (it keeps its state until released). */
  retire(id: number, status: GridStatus = 'fixpoint'): void {
    const s = this.slot(id);
    if (!s.outcome) {
      s.outcome = { id, status, generations: s.generations, flags: 0, counter: 0, dispatches: s.dispatches };
      this.freeze([s]);
      this.tableDirty = true;
    }
  }

  outcome(id: number): GridOutcome | null {
    return this.slot(id).outcome;
  }

  private slot(id: number): Slot {
    const s = this.slots[id];
    if (!s || s.released) throw new GpuError(`no grid ${id} in batch ${this.rule.name}`);
    return s;
  }

  /** Reads the current state of grids (one copy and one map for all of them). */
  async readStates(ids: number[]): Promise<Uint32Array[]> {
    this.flushUploads();
    const slots = ids.map((id) => this.slot(id));
    const total = slots.reduce((n, s) => n + s.stateWords, 0);
    if (total === 0) return slots.map(() => new Uint32Array(0));
    // one copy per run of neighbouring grids, not one per grid: 66,000 small grids are a few copies
    const runs = coalesce(slots);
    const stagingWords = runs.reduce((n, r) => n + r.end - r.start, 0);
    const staging = this.device.createBuffer({ label: `${this.rule.name}.readStates`, size: stagingWords * 4, usage: usage().staging });
    const enc = this.device.createCommandEncoder({ label: `${this.rule.name}.readStates` });
    let at = 0;
    for (const r of runs) {
      enc.copyBufferToBuffer(this.stateBuffers[this.current], r.start * 4, staging, at * 4, (r.end - r.start) * 4);
      r.at = at;
      at += r.end - r.start;
    }
    this.device.queue.submit([enc.finish()]);
    await this.mapRead(staging);
    const all = new Uint32Array(staging.getMappedRange().slice(0));
    staging.unmap();
    staging.destroy();
    return slots.map((s) => {
      const r = runs.find((r) => s.stateOffset >= r.start && s.stateOffset + s.stateWords <= r.end)!;
      const from = r.at + s.stateOffset - r.start;
      return all.subarray(from, from + s.stateWords);
    });
  }

  async readState(id: number): Promise<Uint32Array> {
    return (await this.readStates([id]))[0];
  }

  /** The buffer holding the latest generation (for drawing it directly) and the grid's word offset in it. */
  stateView(id: number): { buffer: GPUBuffer; offsetWords: number; words: number } {
    this.flushUploads(); // a grid added since the last run must be in the buffer before anyone draws it
    const s = this.slot(id);
    return { buffer: this.stateBuffers[this.current], offsetWords: s.stateOffset, words: s.stateWords };
  }

  /**
   * Advances every running grid until each has reached a fixpoint, completion, contradiction, its cap or the
   * timeout. Returns the outcomes of all grids that finished during this call.
   */
  async run(opts: RunOptions = {}): Promise<GridOutcome[]> {
    const started = performance.now();
    const defaultCap = opts.maxGenerations ?? 1_000_000;
    const mode = opts.mode ?? 'one-gen';
    await this.compiled(mode);
    if (mode !== this.mode) {
      this.mode = mode;
      this.tableDirty = true;
    }
    const perDispatch = mode === 'multi-gen' ? this.rule.multiGeneration!.generationsPerDispatch : 1;
    const finishedAll: GridOutcome[] = [];
    let chunk = Math.max(1, Math.min(opts.readbackEvery ?? 8, MAX_CHUNK));
    const adaptive = opts.readbackEvery === undefined;

    for (;;) {
      this.ctx.checkAlive();
      const running = this.slots.filter((s) => s && !s.released && !s.outcome);
      if (running.length === 0) break;
      // Never run a grid past its cap: the chunk ends at the nearest one (Life must stop at exactly N).
      let dispatches = chunk;
      let multi = mode === 'multi-gen';
      for (const s of running) {
        const left = (s.cap ?? defaultCap) - s.generations;
        if (left <= 0) continue;
        dispatches = Math.min(dispatches, multi ? Math.max(1, Math.floor(left / perDispatch)) : left);
      }
      if (multi) {
        const minLeft = Math.min(...running.map((s) => (s.cap ?? defaultCap) - s.generations));
        if (minLeft < perDispatch) multi = false; // finish the last few generations one at a time
        if (!multi) dispatches = Math.min(chunk, minLeft);
      }
      // grids already at their cap end now
      const capped = running.filter((s) => (s.cap ?? defaultCap) - s.generations <= 0);
      if (capped.length) {
        for (const s of capped) s.outcome = this.outcomeOf(s, 'capped', 0, 0);
        this.freeze(capped);
        this.tableDirty = true;
        finishedAll.push(...capped.map((s) => s.outcome!));
        if (opts.onChunk) await opts.onChunk(capped.map((s) => s.outcome!), this);
        continue;
      }
      if (multi !== (this.mode === 'multi-gen')) {
        this.mode = multi ? 'multi-gen' : 'one-gen';
        this.tableDirty = true;
        await this.compiled(this.mode);
      }
      const t0 = performance.now();
      const words = await this.runChunk(dispatches, opts.napBeforeReadback ?? 0);
      const ms = performance.now() - t0;
      const gens = dispatches * (multi ? perDispatch : 1);
      this.stats.generations += gens;
      this.stats.dispatches += dispatches;
      this.stats.readbacks += 1;

      const finished: Slot[] = [];
      for (const s of running) {
        const base = s.id * STATUS_WORDS;
        const flags = words[base];
        const lastChanged = words[base + 1];
        const counter = words[base + 2];
        const lastPending = words[base + 3];
        const step = multi ? perDispatch : 1;
        s.dispatches += dispatches;
        if (flags & FLAG_CONTRADICTION) {
          s.generations += lastChanged ? lastChanged * step : step;
          s.outcome = this.outcomeOf(s, 'contradiction', flags, counter);
        } else if (lastChanged < dispatches) {
          s.generations += lastChanged * step;
          const complete = this.rule.tracksCompletion && lastPending < dispatches;
          s.outcome = this.outcomeOf(s, complete ? 'done' : 'fixpoint', flags, counter);
        } else {
          s.generations += gens;
          if (s.generations >= (s.cap ?? defaultCap)) s.outcome = this.outcomeOf(s, 'capped', flags, counter);
          else if (runOver(started, opts)) {
            s.outcome = this.outcomeOf(s, 'timeout', flags, counter);
          } else {
            s.outcome = null;
            this.lastCounters.set(s.id, counter);
            continue;
          }
        }
        finished.push(s);
      }
      if (finished.length) {
        this.freeze(finished);
        this.tableDirty = true;
        finishedAll.push(...finished.map((s) => s.outcome!));
      }
      if (adaptive) {
        if (ms < TARGET_CHUNK_MS && finished.length === 0) chunk = Math.min(chunk * 2, MAX_CHUNK);
        else if (ms > 2 * TARGET_CHUNK_MS) chunk = Math.max(1, Math.floor(chunk / 2));
      }
      if (opts.onChunk) await opts.onChunk(finished.map((s) => s.outcome!), this);
    }
    this.stats.seconds += (performance.now() - started) / 1000;
    return finishedAll;
  }

  /** the rule counter of running grids at the last readback (e.g. unknown cells, for live plots) */
  readonly lastCounters = new Map<number, number>();

  private outcomeOf(s: Slot, status: GridStatus, flags: number, counter: number): GridOutcome {
    return { id: s.id, status, generations: s.generations, flags, counter, dispatches: s.dispatches };
  }

  /**
   * A grid that stops running must hold its final state in both ping-pong buffers: the others keep swapping
   * them, and its own copy would otherwise be left behind in the buffer that stops being current.
   */
  private freeze(slots: Slot[]): void {
    if (this.rule.stateAccess !== 'ping-pong') return;
    const enc = this.device.createCommandEncoder({ label: `${this.rule.name}.freeze` });
    const from = this.stateBuffers[this.current];
    const to = this.stateBuffers[1 - this.current];
    // copying the gaps between grids too is harmless: they are free space or grids frozen already
    for (const r of coalesce(slots)) enc.copyBufferToBuffer(from, r.start * 4, to, r.start * 4, (r.end - r.start) * 4);
    this.device.queue.submit([enc.finish()]);
  }

  /** ms from submitting the last chunk to its status readback (for napBeforeReadback) */
  private lastChunkMs = 0;

  /** Encodes `dispatches` dispatches in one command buffer, then reads the status words back once. */
  private async runChunk(dispatches: number, nap = 0): Promise<Uint32Array> {
    if (this.tableDirty) this.writeTables();
    this.flushUploads();
    // BatchInfo.dispatchBase (shaders/engine/batch.wgsl): a dispatch number that does not restart per chunk
    this.device.queue.writeBuffer(this.infoBuffer, 12, new Uint32Array([this.dispatchCount]));
    const statusBytes = Math.max(this.slots.length, 1) * STATUS_WORDS * 4;
    const staging = this.staging(statusBytes);
    const enc = this.device.createCommandEncoder({ label: `${this.rule.name}.chunk` });
    enc.clearBuffer(this.statusBuffer, 0, statusBytes);
    if (this.tileCount > 0) {
      const pass = enc.beginComputePass({ label: `${this.rule.name}.generations` });
      const width = Math.min(this.tileCount, this.ctx.limits.maxComputeWorkgroupsPerDimension);
      const height = Math.ceil(this.tileCount / width);
      const pipelines = this.mode === 'multi-gen' ? [this.pipelines.multiGen!] : this.pipelines.oneGen!;
      const pingPong = this.rule.stateAccess === 'ping-pong';
      for (let j = 0; j < dispatches; j++) {
        pass.setBindGroup(0, this.commonGroup!, [j * STEP_STRIDE]);
        for (const p of pipelines) {
          pass.setPipeline(p);
          pass.setBindGroup(1, this.stateGroups[pingPong ? this.current : 0]);
          pass.dispatchWorkgroups(width, height);
          if (pingPong) this.current = 1 - this.current;
        }
      }
      pass.end();
      this.dispatchCount += dispatches;
    }
    enc.copyBufferToBuffer(this.statusBuffer, 0, staging, 0, statusBytes);
    this.device.queue.submit([enc.finish()]);
    const napMs = nap * this.lastChunkMs;
    if (napMs >= 1) await new Promise((wake) => setTimeout(wake, napMs));
    const waited = performance.now();
    await this.mapRead(staging, statusBytes);
    const waitMs = performance.now() - waited;
    // the chunk's time as far as it is known: a readback ready at once means the nap overslept (the chunk took
    // less), so the estimate shrinks fast instead of feeding the nap back into itself
    this.lastChunkMs = napMs >= 1 && waitMs < 0.5 ? napMs / 2 : napMs + waitMs;
    const words = new Uint32Array(staging.getMappedRange(0, statusBytes).slice(0));
    staging.unmap();
    return words;
  }

  private async mapRead(buffer: GPUBuffer, size?: number): Promise<void> {
    try {
      await buffer.mapAsync(GPUMapMode.READ, 0, size);
    } catch (e) {
      this.ctx.checkAlive();
      throw new GpuError(`reading back ${buffer.label}: ${(e as Error).message}`);
    }
  }

  private staging(bytes: number): GPUBuffer {
    if (!this.stagingBuffer || this.stagingBuffer.size < bytes) {
      this.stagingBuffer?.destroy();
      this.stagingBuffer = this.device.createBuffer({ label: `${this.rule.name}.statusStaging`, size: grow(bytes, 256), usage: usage().staging });
    }
    return this.stagingBuffer;
  }

  /** Rewrites the grid and tile tables after grids joined or left; rare (at readbacks), never per generation. */
  private writeTables(): void {
    const slotCount = Math.max(this.slots.length, 1);
    const grids = new Uint32Array(slotCount * GRID_WORDS);
    const tiles: number[] = [];
    const multi = this.mode === 'multi-gen';
    // a run of consecutive small grids of equal items sharing one tile (Rule.sharesWorkgroups)
    let shared = { first: -1, count: 0, items: 0 };
    const closeShared = () => {
      if (shared.count === 1) tiles.push(shared.first, 0);
      else if (shared.count > 1) tiles.push(shared.first, (TILE_SHARED | (shared.count << 16) | shared.items) >>> 0);
      shared = { first: -1, count: 0, items: 0 };
    };
    for (const s of this.slots) {
      if (!s || s.released) continue;
      const items = multi && this.rule.multiGeneration?.items ? this.rule.multiGeneration.items(s.input) : s.items;
      const g = s.id * GRID_WORDS;
      const p = s.input.params ?? [];
      grids.set([s.input.width, s.input.height, s.stateOffset, s.stateWords, s.auxOffset, items, p[0] ?? 0, p[1] ?? 0, p[2] ?? 0, p[3] ?? 0, s.id, 0], g);
      if (s.outcome || items === 0) continue;
      if (this.rule.sharesWorkgroups && 2 * items <= WORKGROUP_SIZE) {
        const fits = shared.count > 0 && s.id === shared.first + shared.count && items === shared.items && (shared.count + 1) * items <= WORKGROUP_SIZE;
        if (!fits) {
          closeShared();
          shared = { first: s.id, count: 0, items };
        }
        shared.count++;
        continue;
      }
      closeShared();
      for (let first = 0; first < items; first += WORKGROUP_SIZE) tiles.push(s.id, first);
    }
    closeShared();
    this.tileCount = tiles.length / 2;
    let rebind = false;
    if (this.gridsBuffer.size < grids.byteLength) {
      this.gridsBuffer.destroy();
      this.gridsBuffer = this.buffer(`${this.rule.name}.grids`, grow(grids.byteLength, 256));
      rebind = true;
    }
    if (this.tilesBuffer.size < tiles.length * 4) {
      this.tilesBuffer.destroy();
      this.tilesBuffer = this.buffer(`${this.rule.name}.tiles`, grow(tiles.length * 4, 256));
      rebind = true;
    }
    if (this.statusBuffer.size < slotCount * STATUS_WORDS * 4) {
      this.statusBuffer.destroy();
      this.statusBuffer = this.buffer(`${this.rule.name}.status`, grow(slotCount * STATUS_WORDS * 4, 256));
      rebind = true;
    }
    const q = this.device.queue;
    q.writeBuffer(this.gridsBuffer, 0, grids);
    if (tiles.length) q.writeBuffer(this.tilesBuffer, 0, new Uint32Array(tiles));
    const width = Math.min(Math.max(this.tileCount, 1), this.ctx.limits.maxComputeWorkgroupsPerDimension);
    q.writeBuffer(this.infoBuffer, 0, new Uint32Array([this.tileCount, width, slotCount, 0]));
    if (rebind || !this.commonGroup) this.bindCommon();
    this.tableDirty = false;
  }

  private buffer(label: string, bytes: number): GPUBuffer {
    return this.device.createBuffer({ label, size: Math.max(16, Math.ceil(bytes / 4) * 4), usage: usage().storage });
  }

  private stateBufferPair(words: number): GPUBuffer[] {
    const n = this.rule.stateAccess === 'ping-pong' ? 2 : 1;
    return Array.from({ length: n }, (_, i) => this.buffer(`${this.rule.name}.state${'AB'[i]}`, words * 4));
  }

  private ensureState(words: number): void {
    const have = this.stateBuffers[0].size / 4;
    if (words <= have) return;
    const next = this.stateBufferPair(Math.min(grow(words, 1024), this.maxWords));
    const enc = this.device.createCommandEncoder({ label: `${this.rule.name}.growState` });
    this.stateBuffers.forEach((old, i) => enc.copyBufferToBuffer(old, 0, next[i], 0, old.size));
    this.device.queue.submit([enc.finish()]);
    this.stateBuffers.forEach((b) => b.destroy());
    this.stateBuffers = next;
    this.bindState();
  }

  private ensureAux(words: number): void {
    const have = this.auxBuffer.size / 4;
    if (words <= have) return;
    const next = this.buffer(`${this.rule.name}.aux`, Math.min(grow(words, 1024), this.maxWords) * 4);
    const enc = this.device.createCommandEncoder({ label: `${this.rule.name}.growAux` });
    enc.copyBufferToBuffer(this.auxBuffer, 0, next, 0, this.auxBuffer.size);
    this.device.queue.submit([enc.finish()]);
    this.auxBuffer.destroy();
    this.auxBuffer = next;
    this.commonGroup = null;
    this.tableDirty = true;
  }

  private bindCommon(): void {
    this.commonGroup = this.device.createBindGroup({
      label: `${this.rule.name}.common`,
      layout: this.layouts.common,
      entries: [
        { binding: 0, resource: { buffer: this.gridsBuffer } },
        { binding: 1, resource: { buffer: this.tilesBuffer } },
        { binding: 2, resource: { buffer: this.auxBuffer } },
        { binding: 3, resource: { buffer: this.statusBuffer } },
        { binding: 4, resource: { buffer: this.stepBuffer, size: 16 } },
        { binding: 5, resource: { buffer: this.infoBuffer } },
      ],
    });
    if (this.stateGroups.length === 0) this.bindState();
  }

  private bindState(): void {
    const [a, b] = this.stateBuffers;
    const layout = this.layouts.state;
    if (this.rule.stateAccess === 'ping-pong') {
      const pair = (src: GPUBuffer, dst: GPUBuffer, label: string) =>
        this.device.createBindGroup({ label, layout, entries: [{ binding: 0, resource: { buffer: src } }, { binding: 1, resource: { buffer: dst } }] });
      this.stateGroups = [pair(a, b, `${this.rule.name}.stateAtoB`), pair(b, a, `${this.rule.name}.stateBtoA`)];
    } else {
      this.stateGroups = [this.device.createBindGroup({ label: `${this.rule.name}.state`, layout, entries: [{ binding: 0, resource: { buffer: a } }] })];
    }
  }

  /** Frees every GPU buffer of the batch. */
  destroy(): void {
    for (const b of [...this.stateBuffers, this.auxBuffer, this.gridsBuffer, this.tilesBuffer, this.statusBuffer, this.stepBuffer, this.infoBuffer]) b.destroy();
    this.stagingBuffer?.destroy();
  }
}

/** Word ranges covering the slots' states, neighbours (gaps under 4 KiB) merged into one range. */
function coalesce(slots: { stateOffset: number; stateWords: number }[]): { start: number; end: number; at: number }[] {
  const sorted = slots.filter((s) => s.stateWords > 0).sort((a, b) => a.stateOffset - b.stateOffset);
  const runs: { start: number; end: number; at: number }[] = [];
  for (const s of sorted) {
    const last = runs[runs.length - 1];
    if (last && s.stateOffset <= last.end + 1024) last.end = Math.max(last.end, s.stateOffset + s.stateWords);
    else runs.push({ start: s.stateOffset, end: s.stateOffset + s.stateWords, at: 0 });
  }
  return runs;
}

function grow(need: number, min: number): number {
  let n = min;
  while (n < need) n *= 2;
  return n;
}

const layoutCache = new WeakMap<GPUDevice, Map<string, { common: GPUBindGroupLayout; state: GPUBindGroupLayout; layout: GPUPipelineLayout }>>();

/** Bind group layouts shared by every rule of one state access kind (cached per device). */
function layoutsFor(ctx: GpuContext, rule: Rule) {
  const device = ctx.device;
  let perDevice = layoutCache.get(device);
  if (!perDevice) layoutCache.set(device, (perDevice = new Map()));
  const key = rule.stateAccess;
  let entry = perDevice.get(key);
  if (!entry) {
    const C = GPUShaderStage.COMPUTE;
    const common = device.createBindGroupLayout({
      label: 'engine.common',
      entries: [
        { binding: 0, visibility: C, buffer: { type: 'read-only-storage' } },
        { binding: 1, visibility: C, buffer: { type: 'read-only-storage' } },
        { binding: 2, visibility: C, buffer: { type: 'read-only-storage' } },
        { binding: 3, visibility: C, buffer: { type: 'storage' } },
        { binding: 4, visibility: C, buffer: { type: 'uniform', hasDynamicOffset: true } },
        { binding: 5, visibility: C, buffer: { type: 'uniform' } },
      ],
    });
    const state = device.createBindGroupLayout({
      label: `engine.state.${key}`,
      entries:
        key === 'ping-pong'
          ? [
              { binding: 0, visibility: C, buffer: { type: 'read-only-storage' } },
              { binding: 1, visibility: C, buffer: { type: 'storage' } },
            ]
          : [{ binding: 0, visibility: C, buffer: { type: 'storage' } }],
    });
    const layout = device.createPipelineLayout({ label: `engine.${key}`, bindGroupLayouts: [common, state] });
    entry = { common, state, layout };
    perDevice.set(key, entry);
  }
  return entry;
}
