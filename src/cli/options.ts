// The options each command takes (CLI.md's common ones here, a kind's own in its PuzzleKind): what `--help` prints,
// and the check that turns an unknown option (a typo such as --serch) or a value outside an option's choices into
// a usage error before anything is compiled or read.
import { MAX_SEED } from '../puzzles/random.ts';
import { findKind } from '../puzzles/registry.ts';
import type { OptionSpec, PuzzleKind } from '../puzzles/types.ts';
import { numberOption, UsageError, type Args } from './args.ts';

const HELP_OPTION: OptionSpec = { name: 'help', help: 'this help' };
const ADAPTER: OptionSpec = { name: 'adapter', value: 'A', choices: ['gpu', 'swiftshader', 'auto'], help: 'the WebGPU adapter (default auto: a real GPU if there is one)' };
const JSON_OPTION: OptionSpec = { name: 'json', help: 'one JSON object per line per puzzle' };

/** solve's options: the method, the kind's own, then CLI.md's common ones */
function solveOptions(kind: PuzzleKind): OptionSpec[] {
  return [
    { name: 'method', value: 'M', choices: kind.methods, help: `how to solve (default ${kind.defaultMethod})` },
    ...kind.solveOptions,
    JSON_OPTION,
    { name: 'out', value: 'FILE', help: 'write what standard output would show to FILE; FILE.json or FILE.jsonl: the --json records; FILE.png: a picture of each answer, where the kind draws one' },
    {
      name: 'max-generations',
      value: 'N',
      number: { whole: true, min: 1 },
      help: 'stop the automaton after N generations',
      // a method that runs no automaton would ignore the cap silently
      check: (o) => {
        const method = String(o.method ?? kind.defaultMethod);
        return kind.methodsWithoutGenerations?.includes(method) ? `--method ${method} runs no automaton whose generations --max-generations could cap` : undefined;
      },
    },
    { name: 'timeout', value: 'S', number: { above: 0 }, help: 'stop after S seconds; puzzles not answered by then are unsolved' },
    { name: 'seed', value: 'S', number: { whole: true, min: 0 }, help: 'seed for anything random' },
    ADAPTER,
    HELP_OPTION,
  ];
}

/** gen's options: CLI.md's common ones, the kind's own, help */
function genOptions(kind: PuzzleKind): OptionSpec[] {
  return [
    { name: 'size', value: 'N|WxH', help: 'the grid size' },
    // the generators' random numbers take seeds modulo 2^32 (random.ts)
    {
      name: 'seed',
      value: 'S',
      number: { whole: true, min: 0, max: MAX_SEED },
      help: kind.seedPerPuzzle ? 'the first seed (one per puzzle: S, S+1, ...)' : 'the seed of the random numbers all the puzzles are drawn from',
      // a seed past MAX_SEED would repeat seed 0's puzzles under another name
      check: (o) => {
        const seed = Number(o.seed);
        const count = o.count === undefined ? 1 : Number(o.count);
        return kind.seedPerPuzzle && seed + count - 1 > MAX_SEED ? `--seed ${seed} with --count ${count}: the puzzles' seeds (S, S+1, ...) go past ${MAX_SEED}` : undefined;
      },
    },
    { name: 'count', value: 'N', number: { whole: true, min: 1 }, help: 'how many puzzles' },
    { name: 'out', value: 'FILE', help: 'write to FILE instead of standard output' },
    ...(kind.genOptions ?? []),
    HELP_OPTION,
  ];
}

/** A command's usage line and options; `kind` for solve and gen. */
export interface CommandOptions {
  usage: string;
  options: OptionSpec[];
  /** options it passes on unchecked (a benchmark's own) */
  open?: boolean;
}

export function commandOptions(command: string, kind?: PuzzleKind): CommandOptions | undefined {
  switch (command) {
    case 'solve':
      return kind && { usage: `cellsolve solve ${kind.name} [options] [FILE... | -]`, options: solveOptions(kind) };
    case 'gen':
      return kind && (kind.generate ? { usage: `cellsolve gen ${kind.name} [options]`, options: genOptions(kind) } : undefined);
    case 'info':
      return { usage: 'cellsolve info [options]', options: [ADAPTER, { name: 'json', help: 'as JSON' }, HELP_OPTION] };
    case 'life':
      return {
        usage: 'cellsolve life FILE [options]',
        options: [
          { name: 'generations', value: 'N', number: { whole: true, min: 0 }, help: 'generations to run (default 1)' },
          { name: 'size', value: 'N|WxH', help: 'the grid size (default: the pattern’s)' },
          { name: 'torus', help: 'edges wrap around' },
          { name: 'mode', value: 'M', choices: ['one-gen', 'multi-gen'], help: 'one generation per dispatch, or several per dispatch' },
          { name: 'out', value: 'FILE', help: 'write the grid to FILE' },
          ADAPTER,
          HELP_OPTION,
        ],
      };
    case 'demo':
      return { usage: 'cellsolve demo [options]', options: [ADAPTER, HELP_OPTION] };
    case 'bench':
      return {
        usage: 'cellsolve bench [NAME...] [options]   (a benchmark\'s own options: cellsolve bench NAME --help)',
        options: [{ name: 'json', help: 'one JSON object per measured case' }, { name: 'quick', help: 'a short run' }, ADAPTER, HELP_OPTION],
        open: true,
      };
  }
  return undefined;
}

/** The flags (options without a value) of a command line, so that `--json FILE` keeps FILE a file. */
export function flagsOf(argv: string[]): Set<string> {
  const [command, kindName] = argv;
  const kind = kindName && !kindName.startsWith('-') ? findKind(kindName) : undefined;
  const specs = commandOptions(command, kind)?.options ?? [];
  return new Set(['help', 'json', 'quick', ...specs.filter((o) => o.value === undefined).map((o) => o.name)]);
}

export function helpText(c: CommandOptions): string {
  const left = (o: OptionSpec) => `--${o.name}${o.value ? ` ${o.choices ? o.choices.join('|') : o.value}` : ''}`;
  const width = Math.min(34, Math.max(...c.options.map((o) => left(o).length)));
  const lines = c.options.map((o) => {
    const l = left(o);
    return l.length > width ? `  ${l}\n  ${' '.repeat(width)}  ${o.help}` : `  ${l.padEnd(width)}  ${o.help}`;
  });
  return `${c.usage}\n\n${lines.join('\n')}\n`;
}

/** Edit distance, for "did you mean". */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

/** Throws a UsageError for an option the command does not take, a value outside an option's choices, or a
 * combination an option's `check` refuses. */
export function checkOptions(args: Args, c: CommandOptions, what: string): void {
  for (const [name, value] of Object.entries(args.options)) {
    const spec = c.options.find((o) => o.name === name);
    if (!spec) {
      if (c.open) continue;
      const near = c.options.filter((o) => distance(o.name, name) <= Math.max(1, Math.floor(name.length / 4)));
      const hint = near.length ? `did you mean ${near.map((o) => `--${o.name}`).join(' or ')}? ` : '';
      throw new UsageError(`${what} takes no option --${name} (${hint}options: ${c.options.map((o) => `--${o.name}`).join(', ')})`);
    }
    if (spec.value !== undefined && value === true) throw new UsageError(`option --${name} needs a value (${spec.choices?.join(', ') ?? spec.value})`);
    if (spec.choices && !spec.choices.includes(String(value))) throw new UsageError(`--${name} takes ${spec.choices.join(', ')} (got '${value}')`);
    if (spec.number) numberOption(args.options, name, 0, spec.number);
  }
  // combinations once every value is known good
  for (const name of Object.keys(args.options)) {
    const problem = c.options.find((o) => o.name === name)?.check?.(args.options);
    if (problem) throw new UsageError(problem);
  }
}
