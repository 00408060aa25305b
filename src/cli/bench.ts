// `cellsolve bench [NAME]` = `npm run bench -- NAME`: each benchmark is bench/NAME.ts exporting bench().
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { GpuContext } from '../gpu/context.ts';
import { UsageError, type Args } from './args.ts';
import { EXIT } from './solve.ts';

const benchDir = fileURLToPath(new URL('../../bench/', import.meta.url));

export function benchNames(): string[] {
  return readdirSync(benchDir)
    .filter((f) => f.endsWith('.ts') && !f.startsWith('_'))
    .map((f) => f.replace(/\.ts$/, ''))
    .sort();
}

export async function benchCommand(ctx: () => Promise<GpuContext>, args: Args): Promise<number> {
  const names = args.positional.length ? args.positional : ['life'];
  for (const name of names) {
    if (!/^[a-z0-9-]+$/.test(name) || !existsSync(`${benchDir}${name}.ts`)) {
      throw new UsageError(`unknown benchmark '${name}' (benchmarks: ${benchNames().join(', ')})`);
    }
  }
  if (args.positional.length === 0) process.stderr.write(`benchmarks: ${benchNames().join(', ')} (running life; name one or more to run them)\n`);
  for (const name of names) {
    const mod = await import(`${benchDir}${name}.ts`);
    await mod.bench(await ctx(), { json: Boolean(args.options.json), quick: Boolean(args.options.quick), options: args.options });
  }
  return EXIT.ok;
}
