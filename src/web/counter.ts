// The live plot's numbers for kinds whose rule does not report a counter: a small compute pass over the engine's
// state buffer (shaders/render/count.wgsl + the kind's count_item), then a 4-byte copy mapped without awaiting it.
// Encoded right after an engine chunk, queue order makes it count exactly that chunk's state. At most a few counts
// are in flight; when all are busy a chunk simply goes unplotted, so counting never holds anything up.
import type { GpuContext } from '../gpu/context.ts';

/** workgroups per count (shaders/render/count.wgsl COUNT_WORKGROUPS): they stride over the items */
const COUNT_WORKGROUPS = 64;
const SLOTS = 3;

interface Slot {
  total: GPUBuffer;
  staging: GPUBuffer;
  busy: boolean;
}

export interface CountSpec {
  /** the kind's count file under shaders/, defining count_item(i) */
  shader: string;
  /** items to sum over (e.g. words of one plane) */
  items: number;
  width: number;
  height: number;
  /** the count file's override constants (a layout the host defines, such as where a plane starts) */
  constants?: Record<string, number>;
}

export class StateCounter {
  private pipeline: GPUComputePipeline | null = null;
  private readonly params: GPUBuffer;
  private readonly slots: Slot[] = [];
  private bindGroups = new WeakMap<GPUBuffer, WeakMap<GPUBuffer, GPUBindGroup>>();
  private destroyed = false;

  private constructor(
    private readonly ctx: GpuContext,
    private readonly spec: CountSpec,
  ) {
    const d = ctx.device;
    this.params = d.createBuffer({ label: 'StateCounter.params', size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    for (let i = 0; i < SLOTS; i++) {
      this.slots.push({
        total: d.createBuffer({ label: `StateCounter.total${i}`, size: 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST }),
        staging: d.createBuffer({ label: `StateCounter.staging${i}`, size: 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST }),
        busy: false,
      });
    }
  }

  static async create(ctx: GpuContext, spec: CountSpec): Promise<StateCounter> {
    const c = new StateCounter(ctx, spec);
    c.pipeline = await ctx.computePipeline({ files: ['render/count.wgsl', spec.shader], entryPoint: 'count_main', constants: { ...spec.constants, COUNT_WORKGROUPS } });
    return c;
  }

  /** Counts the grid at `offsetWords` of `buffer` as it will be once the work queued so far has run. */
  count(state: { buffer: GPUBuffer; offsetWords: number }, done: (value: number) => void): void {
    const slot = this.slots.find((s) => !s.busy);
    if (!slot || !this.pipeline || this.destroyed) return;
    slot.busy = true;
    const d = this.ctx.device;
    d.queue.writeBuffer(this.params, 0, new Uint32Array([state.offsetWords, this.spec.items, this.spec.width, this.spec.height]));
    const enc = d.createCommandEncoder({ label: 'StateCounter.count' });
    enc.clearBuffer(slot.total);
    const pass = enc.beginComputePass({ label: 'StateCounter.pass' });
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, this.bindGroup(state.buffer, slot.total));
    pass.dispatchWorkgroups(COUNT_WORKGROUPS);
    pass.end();
    enc.copyBufferToBuffer(slot.total, 0, slot.staging, 0, 4);
    d.queue.submit([enc.finish()]);
    slot.staging.mapAsync(GPUMapMode.READ).then(
      () => {
        const value = new Uint32Array(slot.staging.getMappedRange())[0];
        slot.staging.unmap();
        slot.busy = false;
        if (!this.destroyed) done(value);
      },
      () => (slot.busy = false),
    );
  }

  private bindGroup(state: GPUBuffer, total: GPUBuffer): GPUBindGroup {
    let byTotal = this.bindGroups.get(state);
    if (!byTotal) this.bindGroups.set(state, (byTotal = new WeakMap()));
    let g = byTotal.get(total);
    if (!g) {
      g = this.ctx.device.createBindGroup({
        label: `StateCounter.bind.${state.label}`,
        layout: this.pipeline!.getBindGroupLayout(0),
        entries: [
          { binding: 0, resource: { buffer: this.params } },
          { binding: 1, resource: { buffer: state } },
          { binding: 2, resource: { buffer: total } },
        ],
      });
      byTotal.set(total, g);
    }
    return g;
  }

  destroy(): void {
    this.destroyed = true;
    this.params.destroy();
    // staging buffers may still be mapping: destroying them rejects the map, which is fine
    for (const s of this.slots) {
      s.total.destroy();
      s.staging.destroy();
    }
  }
}
