// `cellsolve solve KIND`: the one driver for every kind (CLI.md). Reads inputs, solves all puzzles in one call to
// the kind (one batch, chunked by the engine where needed), verifies every solution on the CPU, prints.
import { accessSync, constants, existsSync, readFileSync, readdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { GpuContext } from '../gpu/context.ts';
import { findKind, kinds } from '../puzzles/registry.ts';
import type { PuzzleKind, PuzzleRecord, SolveOptions, SolveResult } from '../puzzles/types.ts';
import { intOption, UsageError, type Args } from './args.ts';
import { progressBar } from './progress.ts';

export const EXIT = { ok: 0, notSolved: 1, usage: 2, internal: 3 } as const;

/** A SIGINT within this many ms of the first is the same stop delivered twice, not the second Ctrl-C that quits. */
const SECOND_INTERRUPT_MS = 200;

export function kindOrUsage(name: string | undefined) {
  const names = kinds.map((k) => k.name).join(', ') || '(none registered)';
  if (!name) throw new UsageError(`name a puzzle kind: ${names}`);
  const kind = findKind(name);
  if (!kind) throw new UsageError(`unknown puzzle kind '${name}' (kinds: ${names})`);
  return kind;
}

/** An input: a file's name and bytes; `from` is the command-line path it came from (a folder, or the file itself). */
export interface Input {
  file: string;
  bytes: Uint8Array;
  from: string;
}

/** Files named on the command line; a folder stands for the files in it and in its subfolders (a data set's puzzles
 * sit in folders by source), each folder's entries sorted by name; '-' (or none) is stdin. */
export function readInputs(paths: string[]): Input[] {
  if (paths.length === 0) paths = ['-'];
  const out: Input[] = [];
  for (const p of paths) {
    if (p === '-') {
      out.push({ file: '-', bytes: readFileSync(0), from: p });
      continue;
    }
    let st;
    try {
      st = statSync(p);
    } catch {
      throw new UsageError(`cannot read '${p}': no such file`);
    }
    if (st.isDirectory()) {
      // a link back to a folder above is read once, not forever
      const seen = new Set<string>();
      const walk = (dir: string) => {
        const real = realpathSync(dir);
        if (seen.has(real)) return;
        seen.add(real);
        for (const name of readdirSync(dir).sort()) {
          // a data folder's notes (and .git) are not puzzles
          if (/^\.|^(readme|license|licence|copying|notice)\b|\.md$/i.test(name)) continue;
          const f = join(dir, name);
          const entry = statSync(f, { throwIfNoEntry: false });
          if (entry?.isDirectory()) walk(f);
          else if (entry?.isFile()) out.push({ file: f, bytes: readable(f), from: p });
        }
      };
      walk(p);
    } else out.push({ file: p, bytes: readable(p), from: p });
  }
  return out;
}

/** What an input list was, for "no puzzle in ...": its files, a folder that held none (or only notes) named as such. */
function describeInputs(paths: string[], inputs: Input[]): string {
  return (paths.length ? paths : ['-'])
    .flatMap((p) => {
      const files = inputs.filter((i) => i.from === p).map((i) => i.file);
      return files.length ? files : [`${p} (a folder with no puzzle file: notes such as README, LICENSE and .md files, and hidden ones, are skipped)`];
    })
    .join(', ');
}

/** A file's bytes, or a usage error naming it (a missing file is the user's, not an internal error). */
export function readable(file: string): Uint8Array {
  try {
    return readFileSync(file);
  } catch (e) {
    throw new UsageError(`cannot read '${file}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** `kind` is args.positional[0], found by the caller; --method was checked against kind.methods with the options. */
export async function solveCommand(ctx: () => Promise<GpuContext>, kind: PuzzleKind, args: Args): Promise<number> {
  const o = args.options;
  const method = String(o.method ?? kind.defaultMethod);
  // --out x.png: a picture per puzzle beside the usual output; any other --out takes what stdout would show
  const out = typeof o.out === 'string' ? o.out : undefined;
  const pictures = out !== undefined && /\.png$/i.test(out);
  if (pictures && !kind.picture) {
    throw new UsageError(`${kind.name} answers are text, not pictures: --out ${out} would hold text (name a text file)`);
  }
  if (out !== undefined) checkWritable(out);
  // an --out named .json or .jsonl takes the JSON records (grid text in a .json file was no use to anyone)
  const json = Boolean(o.json) || (out !== undefined && /\.jsonl?$/i.test(out));
  const paths = args.positional.slice(1);
  const inputs = readInputs(paths);
  const records: PuzzleRecord<unknown>[] = [];
  for (const input of inputs) records.push(...kind.parse(input.bytes, input.file, o));
  const puzzles = records.filter((r) => r.puzzle !== undefined);
  for (const r of puzzles) {
    if (r.expected !== undefined && !kind.verify(r.puzzle, r.expected)) process.stderr.write(`${r.file}:${r.line}: warning: the solution given with the puzzle does not fit its clues\n`);
  }
  // an empty answer is not mistaken for a silent failure
  if (records.length === 0) process.stderr.write(`cellsolve: no ${kind.name} puzzle in ${describeInputs(paths, inputs)}\n`);
  const results = new Map<PuzzleRecord<unknown>, SolveResult>();

  // Records are printed in input order as soon as they and every one before them are known (a kind that reports
  // results early, as nonogram's lanes do, streams a long run); an --out text file is written at the end.
  let exit: number = EXIT.ok;
  const raise = (code: number) => (exit = Math.max(exit, code));
  const toFile = out !== undefined && !pictures;
  let outText = '';
  let pending = '';
  let next = 0;
  // records whose text is in the output so far (kind.format's `position`)
  let formatted = 0;
  const flush = () => {
    for (; next < records.length; next++) {
      const record = records[next];
      if (record.puzzle !== undefined && !results.has(record)) break;
      emit(record, next);
    }
    // one write per flush: a 49,158-puzzle answer is not 49,158 writes
    if (toFile) outText += pending;
    else if (pending) process.stdout.write(pending);
    pending = '';
  };
  const emit = (record: PuzzleRecord<unknown>, index: number) => {
    let result = results.get(record);
    if (!result) {
      raise(EXIT.usage);
      const r = { index, file: record.file, line: record.line, status: 'error', method, generations: 0, ms: 0, error: record.error };
      if (json) pending += JSON.stringify(r) + '\n';
      else process.stderr.write(`${record.error}\n`);
      return;
    }
    // CLI.md: a GPU answer that the CPU verifier rejects is a bug, reported as such
    const rejected = (result.status === 'solved' || result.status === 'multiple') &&
      [result.solution, result.solution2].some((s) => s !== undefined && !kind.verify(record.puzzle, s));
    if (rejected) result = { ...result, status: 'error', extra: { ...result.extra, error: 'verifier rejected' } };
    if (result.status === 'error') raise(EXIT.internal);
    else if (result.status !== 'solved') raise(EXIT.notSolved);
    if (json) {
      const { extra, ...rest } = result;
      // a solution given with the puzzle (a goal, a solution column or file): is it one of ours?
      const given = record.expected !== undefined && result.solution !== undefined ? { matchesGiven: [result.solution, result.solution2].includes(record.expected) } : {};
      pending += JSON.stringify({ index, file: record.file, line: record.line, ...rest, method, ...extra, ...given }) + '\n';
    } else if (result.status === 'error') process.stderr.write(`${record.file}:${record.line}: verifier rejected the solution\n`);
    else pending += kind.format(record, result, out, formatted++);
    if (pictures && result.status !== 'error') {
      // one picture per puzzle: the first takes the name given, later ones add their index before the extension
      const name = index === 0 ? out! : out!.replace(/(\.[^./]*)?$/, (ext) => `-${index}${ext}`);
      const png = kind.picture!(record, result);
      if (png) writeOut(name, png);
      else process.stderr.write(`${record.file}:${record.line}: ${result.status}, no picture to draw (${name} not written)\n`);
    }
  };

  /** Opens the adapter, compiles, solves; an abort before the solve starts leaves every puzzle `interrupted`. */
  const solvePuzzles = async (signal: AbortSignal) => {
    const gpu = await untilAborted(ctx(), signal);
    const solveOptions: SolveOptions = {
      method,
      maxGenerations: o['max-generations'] !== undefined ? intOption(o, 'max-generations', 0, 1) : undefined,
      timeoutMs: o.timeout !== undefined ? Number(o.timeout) * 1000 : undefined,
      seed: intOption(o, 'seed', 1),
      options: o,
    };
    if (gpu && kind.prepare) {
      // CLI.md: `ms` excludes pipeline compilation, reported here once per call
      const c0 = performance.now();
      const compiled = await untilAborted(kind.prepare(gpu, puzzles.map((r) => r.puzzle), solveOptions), signal);
      if (compiled !== false && !signal.aborted) process.stderr.write(`${kind.name}: pipelines ready in ${((performance.now() - c0) / 1000).toFixed(2)} s\n`);
    }
    if (!gpu || signal.aborted) {
      for (const r of puzzles) results.set(r, { status: 'unsolved', generations: 0, reason: 'interrupted', ms: 0 });
      return;
    }
    const bar = progressBar(`solving ${puzzles.length} ${kind.name}`);
    const t0 = performance.now();
    const onResult = (i: number, r: SolveResult) => {
      results.set(puzzles[i], r);
      flush();
    };
    const solved = await kind.solve(gpu, puzzles.map((r) => r.puzzle), { ...solveOptions, signal, progress: bar.update, onResult });
    bar.done();
    process.stderr.write(bar.active ? `solved in ${((performance.now() - t0) / 1000).toFixed(2)} s\n` : '');
    // the results reported early stay as they were printed
    puzzles.forEach((r, i) => results.has(r) || results.set(r, solved[i]));
  };

  if (puzzles.length) {
    // a long run stopped with Ctrl-C still prints what it answered, every other puzzle `interrupted`; so does one
    // stopped while the adapter opens or the pipelines compile (1-10 s on SwiftShader); a second Ctrl-C quits at once
    const interrupt = new AbortController();
    let firstAt = 0;
    const onInterrupt = () => {
      if (interrupt.signal.aborted) {
        // GNU `timeout -s INT` (without --foreground) signals the child and then its process group: one stop arrives
        // twice within milliseconds; a person's second Ctrl-C comes later than that
        if (performance.now() - firstAt < SECOND_INTERRUPT_MS) return;
        process.exit(130);
      }
      firstAt = performance.now();
      process.stderr.write(`\ninterrupted: stopping after the work in flight (Ctrl-C again to quit at once)\n`);
      interrupt.abort();
    };
    if (kind.interruptible) process.on('SIGINT', onInterrupt);
    try {
      await solvePuzzles(interrupt.signal);
    } finally {
      process.off('SIGINT', onInterrupt);
    }
  }
  flush();
  if (toFile) writeOut(out!, outText);
  return exit;
}

/** `work`'s value, or undefined as soon as `signal` aborts (the work itself goes on unawaited: the process exits). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise<T | undefined>((resolve, reject) => {
    const abort = () => resolve(undefined);
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/** Refuses an --out path that cannot be written before any work is done (not after a long solve): a folder, a file
 * that is not writable, a folder that is missing or not writable. */
export function checkWritable(file: string): void {
  const refuse = (why: string) => new UsageError(`cannot write --out ${file}: ${why}`);
  const st = statSync(file, { throwIfNoEntry: false });
  if (st?.isDirectory()) throw refuse('it is a folder');
  const dir = dirname(resolve(file));
  try {
    accessSync(st ? file : dir, constants.W_OK);
  } catch {
    throw refuse(st ? 'it is not writable' : existsSync(dir) ? 'its folder is not writable' : `no folder ${dir}`);
  }
}

/** Writes an --out file, a failure a usage error naming it. */
export function writeOut(file: string, data: string | Uint8Array): void {
  try {
    writeFileSync(file, data);
  } catch (e) {
    throw new UsageError(`cannot write --out ${file}: ${(e as Error).message}`);
  }
}
