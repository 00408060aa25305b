import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GpuContext, ShaderError } from '../src/gpu/context.ts';
import { Batch } from '../src/engine/batch.ts';
import { RangeAllocator } from '../src/engine/alloc.ts';
import { runAll } from '../src/engine/run.ts';
import { lifeInput, lifeRule } from '../src/life/rule.ts';
import { randomLife, lifeRun } from '../src/life/reference.ts';
import { unpackLife } from '../src/life/pack.ts';
import { gpu, skipGpu } from './gpu.ts';
import { createNodeContext } from '../src/gpu/node.ts';
import { HOST_NICE_ON_CPU_ADAPTER, readShaderFile } from '../src/gpu/node.ts';
import type { Rule } from '../src/engine/rule.ts';

describe('range allocator', () => {
  it('reuses and merges freed ranges', () => {
    const a = new RangeAllocator();
    const x = a.alloc(10);
    const y = a.alloc(20);
    const z = a.alloc(5);
    expect([x, y, z]).toEqual([0, 10, 30]);
    a.release(y, 20);
    expect(a.alloc(15)).toBe(10);
    a.release(10, 15);
    a.release(z, 5);
    expect(a.top).toBe(10);
    expect(a.fits(100, 50)).toBe(false);
    expect(a.fits(40, 50)).toBe(true);
  });
});

describe.skipIf(skipGpu)('engine on the GPU', () => {
  it('a broken shader becomes a thrown error naming file, line and column', async () => {
    const base = await gpu();
    const ctx = new GpuContext(base.device, base.adapter, (p) => readFileSync(new URL(`./fixtures/${p}`, import.meta.url), 'utf8'), null);
    const err = await ctx.computePipeline({ files: ['broken.wgsl'], entryPoint: 'main' }).catch((e) => e);
    expect(err).toBeInstanceOf(ShaderError);
    expect(err.file).toBe('shaders/broken.wgsl');
    expect(err.line).toBe(5);
    expect(err.message).toMatch(/^shaders\/broken\.wgsl:5:\d+: /);
  });

  it.runIf(process.platform === 'linux')('on a CPU adapter the host thread yields the cores to the driver, whose workers keep their priority', async () => {
    const ctx = await gpu();
    // a thread's nice value is field 19 of its stat (after the name in parentheses)
    const nice = (stat: string) => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    // this thread made the context (the test process's main thread, or a worker's)
    const self = realpathSync('/proc/thread-self').split('/').pop();
    const threads = readdirSync('/proc/self/task').map((t) => ({
      self: t === self,
      name: readFileSync(`/proc/self/task/${t}/comm`, 'utf8').trim(),
      nice: nice(readFileSync(`/proc/self/task/${t}/stat`, 'utf8')),
    }));
    const host = threads.find((t) => t.self)!.nice;
    // the priority the process started with: its other threads' (made before the context, or by the driver)
    const started = threads.find((t) => !t.self)!.nice;
    if (!ctx.adapter.fallback) return expect(host).toBe(started);
    // SwiftShader's workers (marl's "Thread<NN>") are the GPU: they keep the priority the process started with
    const workers = threads.filter((t) => /^Thread<\d+>$/.test(t.name));
    expect(workers.length).toBeGreaterThan(0);
    for (const w of workers) expect(w.nice).toBe(started);
    // (a run started nicer than that stays as it was)
    if (started < HOST_NICE_ON_CPU_ADAPTER) expect(host).toBe(HOST_NICE_ON_CPU_ADAPTER);
  });

  it('pipelines are cached: a second batch of the same rule compiles nothing', async () => {
    const ctx = await gpu();
    const a = await ctx.computePipeline({ files: ['bench/copy.wgsl'], entryPoint: 'copy_words', constants: { WORKGROUP_SIZE: 64 } });
    const b = await ctx.computePipeline({ files: ['bench/copy.wgsl'], entryPoint: 'copy_words', constants: { WORKGROUP_SIZE: 64 } });
    expect(a).toBe(b);
  });

  it('a batch compiles the modes it is asked for; another mode compiles when a run first needs it', async () => {
    const ctx = await gpu();
    const asked: string[] = [];
    const compile = ctx.computePipeline.bind(ctx);
    ctx.computePipeline = (spec) => (asked.push(spec.entryPoint), compile(spec));
    try {
      const batch = await Batch.create(ctx, lifeRule, { modes: ['multi-gen'] });
      try {
        expect(asked).toEqual([lifeRule.multiGeneration!.entryPoint]);
        // a cap short of a whole multi-generation dispatch: the last generations run one at a time
        const per = lifeRule.multiGeneration!.generationsPerDispatch;
        const g = randomLife(45, 37, 4);
        const id = batch.add(lifeInput(g, true, per + 3));
        await batch.run({ mode: 'multi-gen' });
        expect(asked).toEqual([lifeRule.multiGeneration!.entryPoint, ...lifeRule.entryPoints]);
        const [s] = await batch.readStates([id]);
        expect(Array.from(unpackLife(s, g.width, g.height).cells)).toEqual(Array.from(lifeRun(g, per + 3, true).cells));
      } finally {
        batch.destroy();
      }
    } finally {
      delete (ctx as { computePipeline?: unknown }).computePipeline;
    }
  });

  it('grids join and leave between readbacks; caps are per grid; states stay right', async () => {
    const ctx = await gpu();
    const batch = await Batch.create(ctx, lifeRule);
    try {
      const g1 = randomLife(40, 30, 1);
      const g2 = randomLife(70, 20, 2);
      const g3 = randomLife(33, 33, 3);
      const id1 = batch.add(lifeInput(g1, true, 5));
      const id2 = batch.add(lifeInput(g2, true, 30));
      let added = -1;
      const finished = await batch.run({
        readbackEvery: 4,
        onChunk: (done, b) => {
          // when the first grid finishes, a new one joins the running batch
          if (done.some((o) => o.id === id1) && added < 0) added = b.add(lifeInput(g3, true, 7));
        },
      });
      expect(finished.map((o) => o.status)).toEqual(['capped', 'capped', 'capped']);
      const [s1, s2, s3] = await batch.readStates([id1, id2, added]);
      for (const [s, g, n] of [[s1, g1, 5], [s2, g2, 30], [s3, g3, 7]] as const) {
        expect(Array.from(unpackLife(s, g.width, g.height).cells)).toEqual(Array.from(lifeRun(g, n, true).cells));
      }
      expect(finished.find((o) => o.id === id2)!.generations).toBe(30);
      expect(batch.stats.readbacks).toBeLessThan(30);
      batch.release(id1);
      const reuse = batch.add(lifeInput(g1, false, 3));
      expect(reuse).toBe(id1);
    } finally {
      batch.destroy();
    }
  });

  it('more tiles than 65535 workgroups in one dimension use a 2-D dispatch, each grid served once', async () => {
    const base = await gpu();
    // a test rule from test/fixtures: shaders/engine/* come from the real shaders folder
    const ctx = new GpuContext(base.device, base.adapter, (p) => (p.startsWith('engine/') ? readShaderFile(p) : readFileSync(new URL(`./fixtures/${p}`, import.meta.url), 'utf8')), null);
    const rule: Rule = { name: 'mark', files: ['mark.wgsl'], entryPoints: ['mark'], stateAccess: 'ping-pong', tracksCompletion: false };
    const batch = await Batch.create(ctx, rule);
    try {
      const n = 66_000;
      const ids = Array.from({ length: n }, (_, i) => batch.add({ width: 1, height: 1, items: 1 + (i % 3), state: new Uint32Array(1 + (i % 3)) }));
      const outcomes = await batch.run({ maxGenerations: 10, readbackEvery: 2 });
      expect(outcomes.length).toBe(n);
      // changed in generation 1 only: a fixpoint after 1 generation, for every grid
      expect(outcomes.every((o) => o.status === 'fixpoint' && o.generations === 1)).toBe(true);
      const states = await batch.readStates(ids);
      const wrong = ids.findIndex((id, i) => states[i].some((w) => w !== id + 1));
      expect(wrong).toBe(-1);
    } finally {
      batch.destroy();
    }
  });

  it('a batch larger than the buffer limit is split into several batches, not refused', async () => {
    const ctx = await gpu();
    const grids = Array.from({ length: 9 }, (_, i) => randomLife(64 + i, 40, 30 + i));
    // 3 words x 40 rows = 120 words per grid; a 300-word limit holds two grids per batch
    const { results, stats } = await runAll(ctx, lifeRule, grids.map((g) => lifeInput(g, false, 6)), { maxGenerations: 6 }, { maxWords: 300 });
    expect(stats.batches).toBe(5);
    grids.forEach((g, i) => expect(Array.from(unpackLife(results[i].state, g.width, g.height).cells)).toEqual(Array.from(lifeRun(g, 6, false).cells)));
  });

  it('a grid larger than the device allows gets a clear error', async () => {
    const ctx = await gpu();
    const limit = Math.min(ctx.limits.maxStorageBufferBindingSize, ctx.limits.maxBufferSize);
    const fake = { width: 1, height: 1, items: 1, state: { length: limit / 4 + 1 } as unknown as Uint32Array };
    expect(() => Batch.checkFits(ctx, fake)).toThrow(/more than this device's storage buffer limit/);
  });
});

describe.skipIf(skipGpu)('a device that runs out of memory', () => {
  it('stops the work at the next check with the reason, instead of running on with invalid buffers', async () => {
    // a context of its own: this one is done for after the test
    const ctx = await createNodeContext();
    try {
      expect(() => ctx.checkAlive()).not.toThrow();
      const buffers: GPUBuffer[] = [];
      // the device's largest buffers until one is refused (SwiftShader here: the first)
      for (let i = 0; i < 16 && !ctx.lostReason; i++) {
        buffers.push(ctx.device.createBuffer({ label: `oom${i}`, size: ctx.limits.maxBufferSize, usage: GPUBufferUsage.STORAGE }));
        await ctx.device.queue.onSubmittedWorkDone();
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(() => ctx.checkAlive()).toThrow(/^out of GPU memory/);
      buffers.forEach((b) => b.destroy());
    } finally {
      ctx.device.destroy();
    }
  });
});
