// Command-line arguments: `--name value`, `--flag`, `--name=value`, positionals. Flags that take no value are
// named by the caller (the command's option specs, options.ts `flagsOf`), so `--json FILE` keeps FILE positional.

export class UsageError extends Error {}

export interface Args {
  positional: string[];
  options: Record<string, string | boolean>;
}

export function parseArgs(argv: string[], flags: ReadonlySet<string>): Args {
  const positional: string[] = [];
  const options: Record<string, string | boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-' || !a.startsWith('-')) {
      positional.push(a);
      continue;
    }
    if (a === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    const eq = a.indexOf('=');
    let name = a.replace(/^--?/, '').slice(0, eq > 0 ? eq - a.search(/[^-]/) : undefined);
    if (name === 'h') name = 'help';
    if (eq > 0 && flags.has(name)) {
      // a flag takes no value: --json=false is not a quiet way to turn it on
      const v = a.slice(eq + 1);
      if (!/^(true|false|1|0|yes|no)$/i.test(v)) throw new UsageError(`--${name} is a flag: it takes no value (got '${v}')`);
      if (/^(true|1|yes)$/i.test(v)) options[name] = true;
    } else if (eq > 0) options[name] = a.slice(eq + 1);
    else if (flags.has(name)) options[name] = true;
    else {
      const v = argv[i + 1];
      if (v === undefined || (v.startsWith('--') && v.length > 2)) throw new UsageError(`option --${name} needs a value`);
      options[name] = v;
      i++;
    }
  }
  return { positional, options };
}

/** The numbers an option takes: whole ones or any, within inclusive (`min`, `max`) or exclusive (`above`, `below`) bounds. */
export interface NumberRange {
  whole?: boolean;
  min?: number;
  max?: number;
  above?: number;
  below?: number;
}

/**
 * The option's value as a number in `range` (`fallback` when it is not given), or a UsageError saying what it takes;
 * `where` names what a range depends on (`for a 7x7 maze`).
 */
export function numberOption(options: Args['options'], name: string, fallback: number, range: NumberRange, where?: string): number {
  const v = options[name];
  if (v === undefined) return fallback;
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  const inside =
    Number.isFinite(n) &&
    (!range.whole || Number.isInteger(n)) &&
    (range.min === undefined || n >= range.min) &&
    (range.max === undefined || n <= range.max) &&
    (range.above === undefined || n > range.above) &&
    (range.below === undefined || n < range.below);
  if (!inside) throw new UsageError(`--${name} takes ${rangeText(range)}${where ? ` ${where}` : ''} (got '${v}')`);
  return n;
}

function rangeText(r: NumberRange): string {
  const bounds = [
    r.min !== undefined && `>= ${r.min}`,
    r.above !== undefined && `above ${r.above}`,
    r.max !== undefined && `<= ${r.max}`,
    r.below !== undefined && `below ${r.below}`,
  ].filter(Boolean);
  return `${r.whole ? 'a whole number' : 'a number'}${bounds.length ? ` ${bounds.join(' and ')}` : ''}`;
}

export function intOption(options: Args['options'], name: string, fallback: number, min = 0): number {
  return numberOption(options, name, fallback, { whole: true, min });
}

/** --size N or --size WxH */
export function sizeOption(options: Args['options'], fallback: [number, number]): [number, number] {
  const v = options.size;
  if (v === undefined) return fallback;
  const m = /^(\d+)(?:x(\d+))?$/.exec(String(v));
  if (!m) throw new UsageError(`--size takes N or WxH (got '${v}')`);
  const w = Number(m[1]);
  const h = m[2] ? Number(m[2]) : w;
  if (w < 1 || h < 1) throw new UsageError(`--size must be at least 1x1 (got '${v}')`);
  return [w, h];
}
