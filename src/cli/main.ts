// cellsolve: the command-line front end (contract: CLI.md). Commands: info, solve, gen, bench, life, demo.
import { readFileSync } from 'node:fs';
import { GpuError, ShaderError, type AdapterChoice, type GpuContext } from '../gpu/context.ts';
import { nodeContext } from '../gpu/node.ts';
import { formatPlain, MAX_LIFE_CELLS, parsePattern, PatternError } from '../life/codec.ts';
import { runLife } from '../life/rule.ts';
import { intOption, parseArgs, sizeOption, UsageError, type Args } from './args.ts';
import { benchCommand } from './bench.ts';
import { genCommand } from './gen.ts';
import { demoCommand } from './demo.ts';
import { checkOptions, commandOptions, flagsOf, helpText } from './options.ts';
import { EXIT, kindOrUsage, solveCommand, writeOut } from './solve.ts';

const HELP = `cellsolve: solve grid puzzles with cellular automata on the GPU (WebGPU)

  cellsolve info [--adapter gpu|swiftshader|auto]
  cellsolve solve KIND [--method M] [--json] [--out FILE] [--max-generations N] [--timeout S] [FILE... | -]
  cellsolve gen KIND [--size N|WxH] [--seed S] [--count N] [--out FILE] [kind options]
  cellsolve bench [NAME] [--json] [--quick]
  cellsolve life FILE [--generations N] [--torus] [--mode one-gen|multi-gen] [--out FILE]
  cellsolve demo            the bundled default workload (what npm start runs)

  cellsolve COMMAND [KIND] --help   the command's options, a kind's own included

Exit codes: 0 all solved, 1 some multiple/unsolved/contradiction, 2 usage or bad input, 3 internal error.`;

function adapterChoice(args: Args): AdapterChoice {
  const a = String(args.options.adapter ?? 'auto');
  if (a !== 'auto' && a !== 'gpu' && a !== 'swiftshader') throw new UsageError(`--adapter takes gpu, swiftshader or auto (got '${a}')`);
  return a;
}

async function infoCommand(ctx: GpuContext, json: boolean): Promise<number> {
  const a = ctx.adapter;
  if (json) process.stdout.write(JSON.stringify(a) + '\n');
  else {
    process.stdout.write(
      `adapter: ${a.description || a.device || a.vendor} (${a.vendor}, ${a.architecture})${a.fallback ? ' [CPU fallback: SwiftShader]' : ''}\n` +
        Object.entries(a.limits).map(([k, v]) => `  ${k}: ${v}`).join('\n') + '\n',
    );
  }
  return EXIT.ok;
}

async function lifeCommand(ctx: () => Promise<GpuContext>, args: Args): Promise<number> {
  const file = args.positional[0];
  if (!file) throw new UsageError('life needs a pattern file (RLE or plain text); - reads stdin');
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch {
    throw new UsageError(`cannot read '${file}'`);
  }
  const grid = parsePattern(text, file);
  const generations = intOption(args.options, 'generations', 1);
  const mode = String(args.options.mode ?? 'one-gen');
  if (mode !== 'one-gen' && mode !== 'multi-gen') throw new UsageError(`--mode takes one-gen or multi-gen (got '${mode}')`);
  const [w, h] = sizeOption(args.options, [grid.width, grid.height]);
  if (w * h > MAX_LIFE_CELLS) throw new UsageError(`--size ${w}x${h}: at most ${MAX_LIFE_CELLS.toLocaleString('en-US')} cells`);
  if (w < grid.width || h < grid.height) process.stderr.write(`life: the ${grid.width}x${grid.height} pattern is cut to --size ${w}x${h}\n`);
  const sized = { width: w, height: h, cells: new Uint8Array(w * h) };
  for (let y = 0; y < Math.min(h, grid.height); y++) {
    for (let x = 0; x < Math.min(w, grid.width); x++) sized.cells[y * w + x] = grid.cells[y * grid.width + x];
  }
  const out = await runLife(await ctx(), [sized], { generations, torus: Boolean(args.options.torus), mode });
  const text2 = formatPlain(out.grids[0]);
  if (typeof args.options.out === 'string') writeOut(args.options.out, text2);
  else process.stdout.write(text2);
  const o = out.outcomes[0];
  process.stderr.write(`${o.status === 'fixpoint' ? 'still life' : 'ran'} after ${o.generations} generations, ${out.stats.dispatches} dispatches, ${out.stats.readbacks} readbacks\n`);
  return EXIT.ok;
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(HELP + '\n');
    return command ? EXIT.ok : EXIT.usage;
  }
  const args = parseArgs(rest, flagsOf(argv));
  const perKind = command === 'solve' || command === 'gen';
  if (perKind && args.options.help && !args.positional[0]) {
    process.stdout.write(HELP + '\n');
    return EXIT.ok;
  }
  const kind = perKind ? kindOrUsage(args.positional[0]) : undefined;
  const spec = commandOptions(command, kind);
  // bench's help names each benchmark's own options: benchCommand prints it
  if (spec && args.options.help && command !== 'bench') {
    process.stdout.write(helpText(spec));
    return EXIT.ok;
  }
  if (spec) checkOptions(args, spec, kind ? `${command} ${kind.name}` : command);
  let context: Promise<GpuContext> | null = null;
  const ctx = () => (context ??= nodeContext(adapterChoice(args)));
  switch (command) {
    case 'info':
      return infoCommand(await ctx(), Boolean(args.options.json));
    case 'solve':
      return solveCommand(ctx, kind!, args);
    case 'gen':
      return genCommand(kind!, args);
    case 'bench':
      return benchCommand(ctx, args);
    case 'life':
      return lifeCommand(ctx, args);
    case 'demo':
      return demoCommand(ctx, args);
    default:
      throw new UsageError(`unknown command '${command}' (commands: info, solve, gen, bench, life, demo)`);
  }
}

// Exits once stdout and stderr have drained: a pipe takes writes asynchronously, and process.exit() at once cut
// a 49,158-line --json answer to the first few hundred lines. (The exit itself is needed: Dawn keeps the loop alive.)
function exitAfterOutput(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

// A reader that stops early (`| head`) closes the pipe: that is not an error of ours.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.ok);
  throw e;
});

main(process.argv.slice(2)).then(
  (code) => exitAfterOutput(code),
  (e) => {
    if (e instanceof UsageError || e instanceof PatternError) {
      process.stderr.write(`cellsolve: ${e.message}\n`);
      exitAfterOutput(EXIT.usage);
      return;
    }
    process.stderr.write(`cellsolve: ${e instanceof GpuError || e instanceof ShaderError ? e.message : e?.stack ?? e}\n`);
    exitAfterOutput(EXIT.internal);
  },
);
