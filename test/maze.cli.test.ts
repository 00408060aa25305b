import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMazes } from '../src/puzzles/maze/codec.ts';
import { skipGpu } from './gpu.ts';
import { runCli, runCliInterrupted, tempDir } from './cli.helpers.ts';

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

  it('gen maze: a --loops or --seed the generator cannot honour is a usage error naming the option, the value and the range', () => {
    // a 7x7 maze has 3x3 lattice cells: 12 walls between them, 8 opened by the perfect maze, 4 left to open
    const walls = (text: string) => text.split('#').length - 1;
    const perfect = cli(['gen', 'maze', '--size', '7', '--seed', '1']);
    const four = cli(['gen', 'maze', '--size', '7', '--seed', '1', '--loops', '4']);
    expect(four.status, four.stderr).toBe(0);
    expect(walls(perfect.stdout) - walls(four.stdout)).toBe(4);
    // it made the same 4 loops, silently, for 5 or 1000
    for (const loops of ['5', '1000']) {
      const r = cli(['gen', 'maze', '--size', '7', '--seed', '1', '--loops', loops]);
      expect(r.status, loops).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`cellsolve: --loops takes a whole number >= 0 and <= 4 for a 7x7 maze (got '${loops}')\n`);
    }
    expect(cli(['gen', 'maze', '--size', '201x5', '--loops', '100']).stderr).toContain('<= 99 for a 201x5 maze');
    // seeds are read modulo 2^32: 2^32 made seed 0's maze
    const wrap = cli(['gen', 'maze', '--size', '7', '--seed', '4294967296']);
    expect(wrap.status).toBe(2);
    expect(wrap.stderr).toContain("--seed takes a whole number >= 0 and <= 4294967295 (got '4294967296')");
    expect(cli(['gen', 'maze', '--size', '7', '--seed', '4294967295']).status).toBe(0);
    const past = cli(['gen', 'maze', '--size', '7', '--seed', '4294967295', '--count', '2']);
    expect(past.status).toBe(2);
    expect(past.stderr).toContain('--seed 4294967295 with --count 2');
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

  it.skipIf(skipGpu)('--format png|text forces the input format (CLI.md): png on text is an error record at 1:1 naming the file, text reads a .png name as text', () => {
    const dir = tempDir('maze-format-');
    const maze = cli(['gen', 'maze', '--size', '21x11', '--seed', '5']).stdout;
    const named = join(dir, 'drawn.png');
    writeFileSync(named, maze);
    const text = cli(['solve', 'maze', '--json', '--format', 'text', named]);
    expect(text.status, text.stderr).toBe(0);
    expect(JSON.parse(text.stdout)).toMatchObject({ file: named, line: 1, status: 'solved' });
    const notPng = cli(['solve', 'maze', '--json', '--format', 'png', named]);
    expect(notPng.status).toBe(2);
    expect(JSON.parse(notPng.stdout)).toMatchObject({
      index: 0, file: named, line: 1, status: 'error', error: `${named}:1:1: not a PNG (--format png): the file does not start with the PNG signature`,
    });
    expect(notPng.stderr).not.toMatch(/\bat \S+ \(/); // no stack trace
    // without --json the message goes to stderr; standard input too
    const piped = cli(['solve', 'maze', '--format', 'png', '-'], maze);
    expect(piped.status).toBe(2);
    expect(piped.stderr).toContain('-:1:1: not a PNG (--format png)');
    // a real PNG: png reads it (as detection does), text reads its bytes as text
    const png = 'samples/maze/tiny.png';
    expect(JSON.parse(cli(['solve', 'maze', '--json', '--format', 'png', png]).stdout).status).toBe('solved');
    const asText = cli(['solve', 'maze', '--json', '--format', 'text', png]);
    expect(asText.status).toBe(2);
    expect(JSON.parse(asText.stdout.split('\n')[0])).toMatchObject({ file: png, line: 1, status: 'error' });
    expect(asText.stdout).toContain(`${png}:1:`);
    expect(cli(['solve', 'maze', '--format', 'jpg', png]).stderr).toContain("--format takes text, png (got 'jpg')");
  });

  it.skipIf(skipGpu)('--max-generations N caps dead-end filling and the wavefront together: auto stops at N, not N plus the fill', () => {
    // 20 loops: dead-end filling (1 generation in place) leaves them to the wavefront
    const maze = cli(['gen', 'maze', '--size', '201', '--seed', '1', '--loops', '20']).stdout;
    const run = (...args: string[]) => JSON.parse(cli(['solve', 'maze', '--json', ...args, '-'], maze).stdout);
    const full = run();
    expect(full).toMatchObject({ status: 'solved', deadendGenerations: 1 });
    const g = full.generations;
    expect(g).toBe(1 + full.wavefrontGenerations);
    for (const n of [7, g - 1]) {
      // the wavefront had the whole cap again on top of the fill's generation: 8 for a cap of 7
      expect(run('--max-generations', String(n)), `cap ${n}`).toMatchObject({ status: 'unsolved', reason: 'capped', generations: n, wavefrontGenerations: n - 1 });
    }
    // a cap the solve fits in is no stop
    expect(run('--max-generations', String(g))).toMatchObject({ status: 'solved', generations: g });
    // so is a cap that stops the wavefront in the generation that reaches the end: labels up to the end's are final
    const wave = run('--method', 'wavefront');
    const n = String(wave.generations);
    expect(run('--method', 'wavefront', '--max-generations', n)).toMatchObject({ status: 'solved', generations: wave.generations, pathLength: wave.pathLength });
    // and a walker the cap stops as it has walked the path (it said 'capped' at exactly its uncapped generations)
    const small = cli(['gen', 'maze', '--size', '41', '--seed', '2']).stdout;
    const walk = (...args: string[]) => JSON.parse(cli(['solve', 'maze', '--json', '--method', 'walker', ...args, '-'], small).stdout);
    const walked = walk();
    expect(walked.status).toBe('solved');
    expect(walk('--max-generations', String(walked.generations))).toMatchObject({ status: 'solved', generations: walked.generations, pathLength: walked.pathLength });
    expect(walk('--max-generations', String(walked.generations - 1))).toMatchObject({ status: 'unsolved', reason: 'capped' });
  });

  it.skipIf(skipGpu)('Ctrl-C prints the maze unsolved `interrupted` with its generations so far (exit 1); it killed the process with no output', async () => {
    // a 1501x1501 depth-first maze: the wavefront walks its long corridors for many seconds; a 7x7 beside it is solved
    const dir = tempDir('maze-');
    const [small, big] = [join(dir, 'small.txt'), join(dir, 'big.txt')];
    for (const [size, file] of [['7x7', small], ['1501x1501', big]]) expect(runCli(['gen', 'maze', '--size', size, '--seed', '3', '--out', file]).status).toBe(0);
    const r = await runCliInterrupted(['solve', 'maze', '--json', '--method', 'wavefront', small, big], '', 1000);
    expect(r.sentAt, r.stderr).toBeGreaterThan(0);
    expect([r.code, r.signal], r.stderr).toEqual([1, null]);
    expect(r.stderr).toContain('interrupted: stopping after the work in flight');
    const recs = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(recs.map((x) => [x.status, x.reason])).toEqual([['solved', undefined], ['unsolved', 'interrupted']]);
    expect(recs[1].generations).toBeGreaterThan(0);
  }, 120_000);
});
