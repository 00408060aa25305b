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

  it.skipIf(skipGpu)('info names the adapter', () => {
    const r = cli(['info', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const info = JSON.parse(r.stdout);
    expect(info.limits.maxComputeWorkgroupsPerDimension).toBeGreaterThanOrEqual(65535);
  });
});
