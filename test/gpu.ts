// The GPU test fixture: one shared context per test process. Fails when no adapter can be had; skips GPU tests
// only when the run asks for it explicitly with CELLSOLVE_SKIP_GPU=1 (CI never sets it).
import { nodeContext } from '../src/gpu/node.ts';
import type { GpuContext } from '../src/gpu/context.ts';
import { scratchUsage } from '../src/engine/lanes.ts';

export const skipGpu = process.env.CELLSOLVE_SKIP_GPU === '1';

export async function gpu(): Promise<GpuContext> {
  return nodeContext('auto');
}

/** Runs body inside validation/out-of-memory error scopes: any GPU error fails the test. */
export async function withDevice<T>(body: (ctx: GpuContext) => Promise<T>): Promise<T> {
  const ctx = await gpu();
  return ctx.checked('test', () => body(ctx));
}

/** Fills the first `bytes` of the context's spare scratch buffer (made if none) with garbage: the next lanes run
 * takes it, so a kernel that reads scratch before writing it goes wrong. */
export function garbageSpare(ctx: GpuContext, bytes: number): void {
  const spare = ctx.acquireScratch('test.garbage', bytes, scratchUsage());
  ctx.device.queue.writeBuffer(spare, 0, new Uint32Array(bytes >>> 2).map((_, i) => Math.imul(i + 1, 2654435761) >>> 0));
  ctx.releaseScratch(spare);
}
