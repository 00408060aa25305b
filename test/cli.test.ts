import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../src/cli/args.ts';
import { skipGpu } from './gpu.ts';

const cli = (args: string[], input?: string) =>
  spawnSync('node', ['bin/cellsolve.js', ...args], { encoding: 'utf8', input, timeout: 120_000 });

describe('cellsolve command line', () => {
  it('unknown command, kind, option value: clear message and exit 2', () => {
    for (const args of [['frobnicate'], ['solve', 'nosuchkind', 'x'], ['life', 'test/fixtures/glider.rle', '--generations', 'many'], ['bench', '../etc']]) {
      const r = cli(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^cellsolve: /m);
    }
  });

  it('flags take no value, so a file after one stays a file; --name=value still sets one', () => {
    expect(parseArgs(['--diagonal', 'x.txt', '--json'])).toEqual({ positional: ['x.txt'], options: { diagonal: true, json: true } });
    expect(parseArgs(['--diagonal=false', '--method', 'ca', 'y'])).toEqual({ positional: ['y'], options: { diagonal: 'false', method: 'ca' } });
  });

  it('a bad pattern names line and column, exit 2', () => {
    const r = cli(['life', '-'], 'x = 3, y = 3\nbo?o!\n');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('-:2:3:');
  });

  it.skipIf(skipGpu)('life runs a glider 4 generations on the GPU', () => {
    const r = cli(['life', 'test/fixtures/glider.rle', '--generations', '4', '--size', '6x6']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('......\n..O...\n...O..\n.OOO..\n......\n......\n');
  });

  it.skipIf(skipGpu)('a long answer reaches a pipe whole before the process exits', () => {
    const puzzle = '4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n';
    const r = spawnSync('node', ['bin/cellsolve.js', 'solve', 'sudoku', '--json', '-'], {
      encoding: 'utf8',
      input: puzzle.repeat(20_000),
      timeout: 120_000,
      maxBuffer: 1 << 30,
    });
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.length).toBe(20_000);
    expect(JSON.parse(lines[19_999]).index).toBe(19_999);
  });

  it.skipIf(skipGpu)('demo (npm start) solves every bundled sample of every kind, README notes aside', () => {
    const r = cli(['demo']);
    expect(r.status, r.stderr).toBe(0);
    for (const kind of ['sudoku', 'maze', 'binary', 'nonogram']) expect(r.stdout).toMatch(new RegExp(`^${kind} +\\d+ bundled puzzles`, 'm'));
    expect(r.stdout).not.toMatch(/README|error/);
    expect(r.stderr).not.toContain('does not read');
  });

  it.skipIf(skipGpu)('info names the adapter', () => {
    const r = cli(['info', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const info = JSON.parse(r.stdout);
    expect(info.limits.maxComputeWorkgroupsPerDimension).toBeGreaterThanOrEqual(65535);
  });
});
