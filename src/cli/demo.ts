// The main job (`npm start`): a bundled default workload on the GPU. A Life run first, then every registered
// puzzle kind's bundled samples (samples/<kind>/), with per-kind results and generations/s.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { GpuContext } from '../gpu/context.ts';
import { runLife } from '../life/rule.ts';
import { randomLife } from '../life/reference.ts';
import { kinds } from '../puzzles/registry.ts';
import type { Args } from './args.ts';
import { EXIT } from './solve.ts';

const samplesDir = fileURLToPath(new URL('../../samples/', import.meta.url));

export async function demoCommand(ctx: () => Promise<GpuContext>, _args: Args): Promise<number> {
  const gpu = await ctx();
  const a = gpu.adapter;
  process.stdout.write(`cellsolve on ${a.description || a.device}${a.fallback ? ' (SwiftShader: WebGPU on the CPU, no GPU found)' : ''}\n\n`);
  let exit: number = EXIT.ok;

  const size = 1024;
  const generations = 256;
  const life = await runLife(gpu, [randomLife(size, size, 42)], { generations, torus: true });
  const s = life.stats;
  process.stdout.write(
    `life      ${size}x${size} random soup, ${generations} generations on a torus: ${(s.generations / s.seconds).toFixed(0)} generations/s, ` +
      `${((s.generations * size * size) / s.seconds / 1e6).toFixed(0)} M cell-updates/s (${s.dispatches} dispatches, ${s.readbacks} readbacks)\n`,
  );

  for (const kind of kinds) {
    const dir = samplesDir + kind.name;
    if (!existsSync(dir)) continue;
    // every sample but the folder's notes; a sample that does not read is a fault of ours
    const files = readdirSync(dir).filter((f) => !/^README/.test(f)).sort();
    const records = files.flatMap((f) => kind.parse(readFileSync(`${dir}/${f}`), `samples/${kind.name}/${f}`, {}));
    for (const r of records.filter((r) => r.error !== undefined)) {
      process.stderr.write(`cellsolve: bundled sample does not read: ${r.error}\n`);
      exit = EXIT.internal;
    }
    const puzzles = records.filter((r) => r.puzzle !== undefined);
    const opts = { method: kind.defaultMethod, options: {} };
    await kind.prepare?.(gpu, puzzles.map((r) => r.puzzle), opts);
    const t0 = performance.now();
    const results = await kind.solve(gpu, puzzles.map((r) => r.puzzle), opts);
    const seconds = (performance.now() - t0) / 1000;
    const counts = new Map<string, number>();
    let generations = 0;
    results.forEach((r, i) => {
      let status = r.status;
      if ((status === 'solved' || status === 'multiple') && r.solution !== undefined && !kind.verify(puzzles[i].puzzle, r.solution)) status = 'error';
      counts.set(status, (counts.get(status) ?? 0) + 1);
      generations += r.generations;
      if (status === 'error') exit = EXIT.internal;
    });
    const summary = [...counts].map(([k, v]) => `${v} ${k}`).join(', ');
    process.stdout.write(
      `${kind.name.padEnd(9)} ${puzzles.length} bundled puzzles (${files.join(', ')}): ${summary} in ${seconds.toFixed(2)} s (compiling apart), ` +
        `${(puzzles.length / seconds).toFixed(0)} puzzles/s, ${generations} generations\n`,
    );
  }
  process.stdout.write(
    `\nWatch the automata work: npm run dev, then open the printed localhost address in a WebGPU browser.\n` +
      `More: npx cellsolve --help, npm run bench -- life, npm test.\n`,
  );
  return exit;
}
