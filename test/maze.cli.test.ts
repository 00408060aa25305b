import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMazes } from '../src/puzzles/maze/codec.ts';
import { skipGpu } from './gpu.ts';
import { runCli, tempDir } from './cli.helpers.ts';

const cli = runCli;

describe('cellsolve gen/solve maze', () => {
  it('a ragged maze is a usage error naming line and column (exit 2)', () => {
    const r = cli(['solve', 'maze', '-'], '#S###\n# #\n###E#\n');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('-:2:4: ragged maze');
  });

  it('gen maze is seeded and writes text', () => {
    const a = cli(['gen', 'maze', '--size', '21x15', '--seed', '3', '--count', '2']);
    const b = cli(['gen', 'maze', '--size', '21x15', '--seed', '3', '--count', '2']);
    expect(a.status, a.stderr).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(parseMazes(new TextEncoder().encode(a.stdout)).filter((r) => r.maze).length).toBe(2);
  });

  it.skipIf(skipGpu)('solves text mazes from stdin: o marks the path, JSON lines, contradiction exits 1, PNG out', () => {
    const two = cli(['gen', 'maze', '--size', '21x11', '--seed', '5', '--count', '2', '--loops', '3']).stdout;
    const text = cli(['solve', 'maze', '-'], two);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout.split('\n\n').filter((s) => s.includes('o')).length).toBe(2);
    const json = cli(['solve', 'maze', '--json', '--method', 'wavefront', '-'], two);
    const lines = json.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.index, l.line, l.status])).toEqual([[0, 1, 'solved'], [1, 13, 'solved']]);
    expect(lines[0].pathLength).toBeGreaterThan(10);
    expect(lines[0].dispatches).toBeGreaterThan(0);
    const blocked = cli(['solve', 'maze', '--json', '-'], '#S###\n# # #\n###E#\n');
    expect(blocked.status).toBe(1);
    expect(JSON.parse(blocked.stdout).status).toBe('contradiction');
    const dir = tempDir('maze-');
    const out = join(dir, 'solved.png');
    const png = cli(['solve', 'maze', '--out', out, '-'], two.split('\n\n')[0]);
    expect(png.status, png.stderr).toBe(0);
    expect(parseMazes(readFileSync(out))[0].maze!.width).toBe(21);
  });
});
