// `cellsolve gen`'s driver and the kinds' generators: output is written puzzle by puzzle, so a puzzle that fails late
// loses none made before it (nonogram's 60-s search limit on the 27th of 30 lost all 26).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { UsageError } from '../src/cli/args.ts';
import { genCommand } from '../src/cli/gen.ts';
import { kinds } from '../src/puzzles/registry.ts';
import type { GenerateOptions, PuzzleKind } from '../src/puzzles/types.ts';
import { runCli, tempDir } from './cli.helpers.ts';

/** A kind whose second puzzle fails, as a nonogram past its search limit does. */
const failing = {
  name: 'failing',
  *generate() {
    yield 'first\n';
    throw new UsageError('no second puzzle within the limit');
  },
} as unknown as PuzzleKind;

describe('gen', () => {
  it('writes each puzzle as it is made: a later one that fails keeps those before it (stdout and --out), the failure a usage error', async () => {
    const written: unknown[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((s) => written.push(String(s)) > 0);
    try {
      await expect(genCommand(failing, { positional: ['failing'], options: {} })).rejects.toThrow('no second puzzle within the limit');
    } finally {
      spy.mockRestore();
    }
    expect(written.join('')).toBe('first\n');
    const out = join(tempDir('gen-'), 'made.txt');
    await expect(genCommand(failing, { positional: ['failing'], options: { out } })).rejects.toThrow('no second puzzle within the limit');
    expect(readFileSync(out, 'utf8')).toBe('first\n');
  });

  it('end to end: gen binary\'s second level-3 24x24 of seed 3 is not found; the first is on stdout, exit 2', () => {
    const r = runCli(['gen', 'binary', '--size', '24', '--level', '3', '--seed', '3', '--count', '3']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('cellsolve: no 24x24 puzzle of level 3 found');
    expect(r.stdout.match(/^# 24x24 level 3 seed 3 #\d+$/gm)).toEqual(['# 24x24 level 3 seed 3 #1']);
  });

  it('every kind yields one piece per puzzle, joined as one run of the output, the first the same as a count of 1', () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      for (const kind of kinds.filter((k) => k.generate)) {
        const opts = (count: number): GenerateOptions => ({
          width: kind.name === 'maze' ? 7 : 6, height: 0, seed: 3, count, options: {}, readFile: () => new Uint8Array(),
        });
        const pieces = [...kind.generate!(opts(3))];
        expect(pieces.length, kind.name).toBe(3);
        expect(pieces.every((p) => typeof p === 'string'), kind.name).toBe(true);
        expect(pieces[0], kind.name).toBe([...kind.generate!(opts(1))].join(''));
      }
    } finally {
      stderr.mockRestore();
    }
  });
});
