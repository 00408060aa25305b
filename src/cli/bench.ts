// `cellsolve bench NAME` = `npm run bench -- NAME`: each benchmark is bench/NAME.ts exporting bench().
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { GpuContext } from '../gpu/context.ts';
import type { OptionSpec } from '../puzzles/types.ts';
import { UsageError, type Args } from './args.ts';
import { checkOptions, commandOptions, helpText } from './options.ts';
import { EXIT } from './solve.ts';

const benchDir = fileURLToPath(new URL('../../bench/', import.meta.url));

export function benchNames(): string[] {
  return readdirSync(benchDir)
    .filter((f) => f.endsWith('.ts') && !f.startsWith('_'))
    .map((f) => f.replace(/\.ts$/, ''))
    .sort();
}

export async function benchCommand(ctx: () => Promise<GpuContext>, args: Args): Promise<number> {
  // CLI.md: `bench NAME`; a bare `bench` used to run the full life benchmark and write bench-results/ unasked
  if (args.positional.length === 0) {
    if (args.options.help) {
      process.stdout.write(`cellsolve bench NAME... [--json] [--quick] [options]   (benchmarks: ${benchNames().join(', ')}; bench NAME --help: its options)\n`);
      return EXIT.ok;
    }
    throw new UsageError(`name a benchmark: ${benchNames().join(', ')} (e.g. npm run bench -- life)`);
  }
  const names = args.positional;
  for (const name of names) {
    if (!/^[a-z0-9-]+$/.test(name) || !existsSync(`${benchDir}${name}.ts`)) {
      throw new UsageError(`unknown benchmark '${name}' (benchmarks: ${benchNames().join(', ')})`);
    }
  }
  const mods = await Promise.all(names.map((name) => import(`${benchDir}${name}.ts`)));
  // each benchmark's own options (its `options`), beside the command's: a typo is an error, not a default run
  const common = commandOptions('bench')!;
  const spec = { usage: `cellsolve bench ${names.join(' ')} [options]   (benchmarks: ${benchNames().join(', ')})`, options: [...common.options, ...mods.flatMap((m) => m.options as OptionSpec[])].filter((o, i, all) => all.findIndex((p) => p.name === o.name) === i) };
  if (args.options.help) {
    process.stdout.write(helpText(spec));
    return EXIT.ok;
  }
  checkOptions(args, spec, `bench ${names.join(' ')}`);
  for (const mod of mods) {
    await mod.bench(await ctx(), { json: Boolean(args.options.json), quick: Boolean(args.options.quick), options: args.options });
  }
  return EXIT.ok;
}
