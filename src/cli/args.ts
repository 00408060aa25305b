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
    const name = a.replace(/^--?/, '').slice(0, eq > 0 ? eq - a.search(/[^-]/) : undefined);
    if (eq > 0) options[name] = a.slice(eq + 1);
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

export function intOption(options: Args['options'], name: string, fallback: number, min = 0): number {
  const v = options[name];
  if (v === undefined) return fallback;
  const n = Number(v);
  if (typeof v !== 'string' || !Number.isInteger(n) || n < min) throw new UsageError(`--${name} takes a whole number >= ${min} (got '${v}')`);
  return n;
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
