// Lanes: one job (a puzzle, a run) per GPU invocation, for kernels that run a whole search in private memory
// rather than one generation per dispatch. Each invocation takes the next job from an atomic counter when it is
// done with one, so a finished job frees its lane at once. Jobs go in chunks, one dispatch and one readback each;
// the next chunk is packed and queued while the GPU runs this one, and this one is decoded while the GPU runs the
// next (the queue keeps their order; scratch, counter and params are reused in turn).
//
// Why on SwiftShader: a workgroup barrier is a coroutine switch per invocation, Dawn zero-fills workgroup memory
// per workgroup and each dispatch costs tens of microseconds; a chunk is one dispatch with neither.
//
// The kernel's bindings (group 0): 0 params (uniform, the kernel's own), then those of shaders/engine/lanes.wgsl:
// 1 input (read), 2 results (read_write), 3 scratch (read_write, per-invocation stacks), 4 work (the job counter).
import type { GpuContext } from '../gpu/context.ts';

/** Usage of every lanes kernel's scratch, so that the context's one spare serves them all (COPY_SRC: a search's
 * slots are copied when its stacks deepen). A function: in Node, GPUBufferUsage exists once a context is made. */
export const scratchUsage = (): GPUBufferUsageFlags => GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;

/** Invocations per workgroup of a lanes kernel: SwiftShader runs 4 lanes in lockstep, so 4 lose none to a tail. */
export const LANE_WORKGROUP_SIZE = 4;

/** A search's outcome, the first word of its results (STATUS_* in shaders/engine/lanes.wgsl); depth and capped
 * are jobs past the stack or the node cap, for the host to hand to another solver; suspended ones (kernels that
 * keep their state in scratch) go on in a later dispatch. */
export const LANE_STATUS = ['', 'solved', 'multiple', 'contradiction', 'depth', 'capped', 'suspended'] as const;
export type LaneStatus = Exclude<(typeof LANE_STATUS)[number], ''>;

/** A lanes kernel: shaders/engine/lanes.wgsl joined in front of its files (compiled once per device, cached). */
export function lanePipeline(ctx: GpuContext, files: string[], entryPoint: string, constants: Record<string, number> = {}): Promise<GPUComputePipeline> {
  return ctx.computePipeline({ files: ['engine/lanes.wgsl', ...files], entryPoint, constants: { WORKGROUP_SIZE: LANE_WORKGROUP_SIZE, ...constants } });
}

export interface LaneChunk {
  /** the kernel's input words */
  input: Uint32Array<ArrayBuffer>;
  /** the kernel's params words (uniform) */
  params: Uint32Array<ArrayBuffer>;
  /** words of the results buffer the kernel writes and the host reads back */
  resultWords: number;
  /** the jobs it holds, when the runner decides that at packing time (rounds of a search: see `LaneRun.jobs`) */
  jobs?: number;
  /** the scratch buffer it binds, when the runner's changes between chunks (default: the run's) */
  scratch?: GPUBuffer;
}

export interface LaneRun {
  /** buffer labels start with it */
  label: string;
  pipeline: GPUComputePipeline;
  /** invocations per dispatch (rounded up to whole workgroups, at most one per job) */
  lanes: number;
  /** bytes of the scratch buffer (all invocations' stacks). The kernel must write scratch before it reads it: the
   * buffer is the context's spare (`GpuContext.acquireScratch`), holding whatever an earlier run left. */
  scratchBytes: number;
  /** a scratch buffer of the caller's that outlives the run (searches suspended in it go on in the next run) */
  scratch?: GPUBuffer;
  /** bytes of the params uniform */
  paramsBytes: number;
  /** jobs in all; a runner whose chunks are rounds of the same searches gives Infinity, stops with `more` and says
   * in each chunk how many jobs it holds */
  jobs: number;
  /** jobs per dispatch (at most) */
  chunk: number;
  /** packs jobs first .. first + count - 1 (or, with `jobs` Infinity, the round's own; `LaneChunk.jobs` says how many) */
  pack(first: number, count: number): LaneChunk;
  /** decodes their results (a copy, valid after the call); `count` is the chunk's jobs */
  unpack(first: number, count: number, results: Uint32Array): void;
  /** false stops submitting more chunks (e.g. a deadline); the ones queued still finish */
  more?(): boolean;
  onDispatch?(): void;
  onReadback?(): void;
  /**
   * Sleep this fraction of a chunk's expected time (from the jobs per ms of the chunks before) before mapping its
   * results (default 0: map at once). Dawn's Node bindings poll in a busy loop while a map is pending, taking a
   * core from SwiftShader's threads for the whole of a long chunk; the chunk queued behind keeps the GPU busy
   * while the host sleeps, so a nap that overshoots costs nothing but that chunk's latency.
   */
  napBeforeReadback?: number;
  /** ms per job expected before any chunk of this run is timed (a caller's estimate from earlier runs) */
  msPerJob?: number;
  /** after the run: ms per job of its last chunk (for the caller's next run) */
  onTimed?(msPerJob: number): void;
  /** the jobs of the chunk about to be read that still take time (the nap is for them; default: all) */
  liveJobs?(): number;
  /** chunks in flight at most (default 2: one running, one queued behind it) */
  inFlight?(): number;
  /** awaited before each chunk is submitted: a pause that paces this run against another on the same queue */
  beforeSubmit?(): Promise<void> | undefined;
}

/** The lanes' invocations for this many jobs: whole workgroups, at most `wanted`, no more than the jobs need. */
export function laneCount(wanted: number, jobs: number): number {
  const w = LANE_WORKGROUP_SIZE;
  return Math.max(w, Math.ceil(Math.min(wanted, jobs) / w) * w);
}

/** A chunk's input, its results and their readback copy. */
interface ChunkBuffers {
  input: GPUBuffer;
  results: GPUBuffer;
  read: GPUBuffer;
}

interface Submitted {
  first: number;
  count: number;
  buffers: ChunkBuffers;
  /** of results (a reused buffer may be larger) */
  bytes: number;
}

const roundUp = (bytes: number) => 2 ** Math.ceil(Math.log2(Math.max(16, bytes)));

function destroyBuffers(b: ChunkBuffers | undefined): void {
  b?.input.destroy();
  b?.results.destroy();
  b?.read.destroy();
}

/** Runs every job; returns when the last chunk is decoded. */
export async function runLanes(ctx: GpuContext, run: LaneRun): Promise<void> {
  if (run.jobs === 0) return;
  const device = ctx.device;
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
  // a new buffer on SwiftShader is zero-filled a page fault at a time (64 MB for sudoku's stacks): reuse a spare
  const scratch = run.scratch ?? ctx.acquireScratch(`${run.label}.scratch`, Math.max(16, run.scratchBytes), scratchUsage());
  const work = device.createBuffer({ label: `${run.label}.work`, size: 16, usage });
  const uniform = device.createBuffer({ label: `${run.label}.params`, size: Math.max(16, run.paramsBytes), usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  // A finished chunk's buffers serve the next chunk they fit (TAAI nonogram rounds come every ~0.1-0.2 s, each
  // made three buffers, and chunks shrink as a run goes on); one that fits none is replaced.
  const spare: ChunkBuffers[] = [];
  const chunkBuffers = (inputBytes: number, resultBytes: number): { buffers: ChunkBuffers; reused: boolean } => {
    const fits = spare.findIndex((b) => b.input.size >= inputBytes && b.results.size >= resultBytes);
    if (fits >= 0) return { buffers: spare.splice(fits, 1)[0], reused: true };
    destroyBuffers(spare.pop());
    // sizes in powers of two, so that a chunk a little larger than the last still fits
    const results = roundUp(resultBytes);
    const buffers = {
      input: device.createBuffer({ label: `${run.label}.input`, size: roundUp(inputBytes), usage }),
      results: device.createBuffer({ label: `${run.label}.results`, size: results, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST }),
      read: device.createBuffer({ label: `${run.label}.read`, size: results, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST }),
    };
    return { buffers, reused: false };
  };
  const submit = (first: number): Submitted => {
    const wanted = Math.min(run.chunk, run.jobs - first);
    const { input: words, params, resultWords, jobs, scratch: chunkScratch } = run.pack(first, wanted);
    const count = jobs ?? wanted;
    const { buffers, reused } = chunkBuffers(4 * words.length, 4 * resultWords);
    const { input, results, read } = buffers;
    device.queue.writeBuffer(input, 0, words);
    device.queue.writeBuffer(work, 0, new Uint32Array(4));
    device.queue.writeBuffer(uniform, 0, params);
    const bind = device.createBindGroup({
      label: `${run.label}.bind`,
      layout: run.pipeline.getBindGroupLayout(0),
      entries: [uniform, input, results, chunkScratch ?? scratch, work].map((buffer, binding) => ({ binding, resource: { buffer } })),
    });
    const enc = device.createCommandEncoder({ label: run.label });
    // a reused results buffer starts as zeros too, as a new one would
    if (reused) enc.clearBuffer(results, 0, 4 * resultWords);
    const pass = enc.beginComputePass();
    pass.setPipeline(run.pipeline);
    pass.setBindGroup(0, bind);
    pass.dispatchWorkgroups(laneCount(run.lanes, count) / LANE_WORKGROUP_SIZE);
    pass.end();
    enc.copyBufferToBuffer(results, 0, read, 0, 4 * resultWords);
    device.queue.submit([enc.finish()]);
    run.onDispatch?.();
    return { first, count, buffers, bytes: Math.max(16, 4 * resultWords) };
  };
  // ms per job of the chunks so far: how long the next one is expected to take
  let msPerJob = run.msPerJob ?? 0;
  const pending: Submitted[] = [];
  try {
    let next = 0;
    const more = () => next < run.jobs && (run.more?.() ?? true);
    while (pending.length || more()) {
      // keep two chunks in flight: one running, one queued behind it
      while (pending.length < (run.inFlight?.() ?? 2) && more()) {
        const pause = run.beforeSubmit?.();
        if (pause && (await pause, !more())) break;
        pending.push(submit(next));
        next += run.chunk;
      }
      if (!pending.length) continue;
      const { first, count, buffers, bytes } = pending.shift()!;
      const { read } = buffers;
      const live = run.liveJobs?.() ?? count;
      const napMs = (run.napBeforeReadback ?? 0) * msPerJob * live;
      if (napMs >= 1) await new Promise((wake) => setTimeout(wake, napMs));
      const waited = performance.now();
      await read.mapAsync(GPUMapMode.READ, 0, bytes);
      const waitMs = performance.now() - waited;
      // a map ready at once means the nap overslept (the chunk took less): the estimate shrinks instead of feeding
      // the nap back into itself (gently: the chunk queued behind kept the GPU busy)
      if (live > 0) msPerJob = napMs >= 1 && waitMs < 0.5 ? msPerJob * 0.7 : (napMs + waitMs) / live;
      run.onTimed?.(msPerJob);
      run.onReadback?.();
      const r = new Uint32Array(read.getMappedRange(0, bytes).slice(0));
      read.unmap();
      spare.push(buffers);
      run.unpack(first, count, r);
    }
  } finally {
    for (const sub of pending) destroyBuffers(sub.buffers);
    spare.forEach(destroyBuffers);
    if (!run.scratch) ctx.releaseScratch(scratch);
    work.destroy();
    uniform.destroy();
  }
}
