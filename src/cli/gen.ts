// `cellsolve gen KIND`: the one driver of every kind's generator. A kind yields its output puzzle by puzzle, and each
// piece is written as soon as it is made: a puzzle that fails late (nonogram's 60-s search limit) loses none made
// before it.
import { closeSync, openSync, writeFileSync } from 'node:fs';
import type { PuzzleKind } from '../puzzles/types.ts';
import { intOption, sizeOption, UsageError, type Args } from './args.ts';
import { progressBar } from './progress.ts';
import { checkWritable, EXIT, readable } from './solve.ts';

export async function genCommand(kind: PuzzleKind, args: Args): Promise<number> {
  if (!kind.generate) throw new UsageError(`${kind.name} has no generator`);
  const [width, height] = sizeOption(args.options, [0, 0]);
  const out = typeof args.options.out === 'string' ? args.options.out : undefined;
  if (out !== undefined) checkWritable(out);
  // before generating: a picture's name for text was refused only after a long generation
  if (out !== undefined && !kind.genPictures && /\.png$/i.test(out)) {
    throw new UsageError(`gen ${kind.name} writes text: --out ${out} would hold text, not a picture (name a text file)`);
  }
  const bar = progressBar(`generating ${kind.name}`);
  // --out is opened with the first piece: a generator that fails at once leaves no empty file
  let fd: number | undefined;
  const write = (piece: string | Uint8Array) => {
    if (out === undefined) {
      process.stdout.write(piece);
      return;
    }
    try {
      fd ??= openSync(out, 'w');
      writeFileSync(fd, piece);
    } catch (e) {
      throw new UsageError(`cannot write --out ${out}: ${(e as Error).message}`);
    }
  };
  try {
    const pieces = kind.generate({
      width,
      height,
      seed: intOption(args.options, 'seed', Date.now() % 1_000_000),
      count: intOption(args.options, 'count', 1, 1),
      options: args.options,
      readFile: readable,
      progress: bar.update,
    });
    for (const piece of pieces) write(piece);
  } finally {
    bar.done();
    if (fd !== undefined) closeSync(fd);
  }
  return EXIT.ok;
}
