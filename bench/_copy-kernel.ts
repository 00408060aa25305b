// Bandwidth of a compute shader that only copies a buffer (shaders/bench/copy.wgsl): read + write bytes per second.
import { WORKGROUP_SIZE } from '../src/engine/constants.ts';
import type { GpuContext } from '../src/gpu/context.ts';

export async function copyKernelBytesPerSec(ctx: GpuContext, bytes: number, repeats = 20): Promise<number> {
  const device = ctx.device;
  const words = Math.ceil(bytes / 4);
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
  const a = device.createBuffer({ label: 'copyKernel.src', size: words * 4, usage });
  const b = device.createBuffer({ label: 'copyKernel.dst', size: words * 4, usage });
  const groups = Math.ceil(words / WORKGROUP_SIZE);
  const width = Math.min(groups, ctx.limits.maxComputeWorkgroupsPerDimension);
  const height = Math.ceil(groups / width);
  const u = device.createBuffer({ label: 'copyKernel.width', size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(u, 0, new Uint32Array([width, 0, 0, 0]));
  const pipeline = await ctx.computePipeline({ files: ['bench/copy.wgsl'], entryPoint: 'copy_words', constants: { WORKGROUP_SIZE } });
  const bind = device.createBindGroup({
    label: 'copyKernel.bind',
    layout: pipeline.getBindGroupLayout(0),
    entries: [
      { binding: 0, resource: { buffer: a } },
      { binding: 1, resource: { buffer: b } },
      { binding: 2, resource: { buffer: u } },
    ],
  });
  const run = async (n: number) => {
    const enc = device.createCommandEncoder({ label: 'copyKernel' });
    const pass = enc.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bind);
    for (let i = 0; i < n; i++) pass.dispatchWorkgroups(width, height);
    pass.end();
    device.queue.submit([enc.finish()]);
    await device.queue.onSubmittedWorkDone();
  };
  await run(1); // warm-up
  const t0 = performance.now();
  await run(repeats);
  const seconds = (performance.now() - t0) / 1000;
  a.destroy();
  b.destroy();
  u.destroy();
  return (2 * words * 4 * repeats) / seconds;
}
