// Shared by the binary tests: the STPPC tables (../shared/data/binary/sgt, or the two copied into samples/binary
// when ../shared is not there, so the tests never run on nothing).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { parseBinary, type BinaryPuzzle } from '../src/puzzles/binary/codec.ts';

const DIRS = ['../shared/data/binary/sgt/', 'samples/binary/'];

export const SGT_DIR = DIRS.find((d) => existsSync(d) && readdirSync(d).some((f) => /^unruly_.*\.tsv$/.test(f)))!;

/** the STPPC table files (names) */
export const sgtFiles = readdirSync(SGT_DIR).filter((f) => /^unruly_.*\.tsv$/.test(f)).sort();

/** the puzzles of one table with their given solutions */
export function sgt(name: string): { puzzle: BinaryPuzzle; expected: string; line: number }[] {
  return parseBinary(readFileSync(SGT_DIR + name), name).map((r) => ({ puzzle: r.puzzle!, expected: r.expected!, line: r.line }));
}
