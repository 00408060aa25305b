import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../src/cli/args.ts';
import { flagsOf } from '../src/cli/options.ts';
import { kinds } from '../src/puzzles/registry.ts';
import { tempDir } from './cli.helpers.ts';
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

  it('an option the command does not take, or a value outside its choices: exit 2 before anything compiles', () => {
    const typo = cli(['solve', 'nonogram', '--serch', 'cdcl', 'x.non']);
    expect(typo.status).toBe(2);
    expect(typo.stderr).toContain('no option --serch (did you mean --search?');
    const choice = cli(['solve', 'nonogram', '--search', 'cdc', 'x.non']);
    expect(choice.status).toBe(2);
    expect(choice.stderr).toContain("--search takes auto, probing, cdcl, race (got 'cdc')");
    expect(choice.stderr).not.toContain('pipelines ready');
    for (const args of [['gen', 'maze', '--loop', '3'], ['life', 'x.rle', '--tours'], ['info', '--adapter', 'cpu'], ['solve', 'sudoku', '--method', 'ilca', '--preset', 'nope', '-'], ['bench', 'nonogram', '--timout', '9']]) {
      const r = cli(args, '4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n');
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/^cellsolve: .*--(loop|tours|adapter|preset|timout)/m);
    }
  });

  it('a number option outside its range, or a size or --out a command cannot take, is a usage error before anything is read or compiled', () => {
    const cases: [string[], string][] = [
      [['solve', 'nonogram', '--timeout', '-1', 'x.non'], "--timeout takes a number above 0 (got '-1')"],
      [['solve', 'nonogram', '--timeout', 'abc', 'x.non'], "--timeout takes a number above 0 (got 'abc')"],
      [['solve', 'maze', '--max-generations', '1.5', 'x.png'], "--max-generations takes a whole number >= 1 (got '1.5')"],
      [['solve', 'binary', '--probe-cells', '0', 'x.txt'], "--probe-cells takes a whole number >= 1 (got '0')"],
      [['solve', 'sudoku', '--method', 'ilca', '--lr', '', 'x.txt'], "--lr takes a number >= 0 (got '')"],
      [['gen', 'sudoku', '--clues', 'x'], "--clues takes a whole number >= 0 (got 'x')"],
      [['gen', 'nonogram', '--density', '1'], "--density takes a number above 0 and below 1 (got '1')"],
      // the CPU solver cannot cap generations: it was ignored (the long puzzles went to the rounds solver)
      [['solve', 'nonogram', '--max-generations', '3', '--long-lines', 'cpu', 'x.non'], '--long-lines cpu with --max-generations: the CPU solver counts no generations to cap'],
      [['solve', 'binary', '--max-generations', '3', '--large', 'cpu', 'x.txt'], '--large cpu with --max-generations: the CPU search counts no generations to cap'],
      [['solve', 'nonogram', '--method', 'cpu', '--max-generations', '3', 'x.non'], '--method cpu runs no automaton whose generations --max-generations could cap'],
      [['gen', 'maze', '--loops', '-1'], "--loops takes a whole number >= 0 (got '-1')"],
      [['gen', 'binary', '--count', '0'], "--count takes a whole number >= 1 (got '0')"],
      [['gen', 'sudoku', '--box', '4x2'], '--box 4x2 does not tile a 9x9 grid'],
      [['gen', 'sudoku', '--size', '4x6'], 'a sudoku is square: give --size N (got 4x6)'],
      [['bench', 'nonogram', '--count', 'abc'], "--count takes a whole number >= 1 (got 'abc')"],
      // a bare `bench` ran the whole life benchmark
      [['bench'], 'name a benchmark: binary, life, maze, nonogram'],
      [['solve', 'sudoku', '--out', 'x.png', 'x.txt'], 'sudoku answers are text, not pictures: --out x.png would hold text'],
      [['gen', 'maze', '--size', '2'], 'a maze needs at least 3x3 cells (got 2x2)'],
      [['gen', 'maze', '--size', '100001'], 'a generated maze has at most 268,435,456 cells'],
      [['gen', 'sudoku', '--size', '64'], 'a 64x64 sudoku is not supported'],
      [['gen', 'nonogram', '--size', '100000'], 'a generated nonogram has at most 409,600 cells'],
      // it was a RangeError and a stack trace (exit 3)
      [['life', 'test/fixtures/glider.rle', '--size', '70000'], '--size 70000x70000: at most 1,073,741,824 cells'],
    ];
    for (const [args, message] of cases) {
      const r = cli(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toContain(`cellsolve: ${message}`);
      expect(r.stderr, args.join(' ')).not.toMatch(/pipelines ready|cannot read/);
    }
  });

  it('an --out naming a folder, or a file in a folder that is missing, is refused before any work (solve and gen)', () => {
    const dir = tempDir('cli-');
    const cases: [string[], string][] = [
      // EISDIR came after the whole solve, its answers lost
      [['solve', 'nonogram', '--timeout', '5', '--out', dir, 'samples/nonogram/heart.non'], `cannot write --out ${dir}: it is a folder`],
      [['solve', 'maze', '--out', join(dir, 'none', 'x.txt'), 'samples/maze/none.txt'], `cannot write --out ${join(dir, 'none', 'x.txt')}: no folder ${join(dir, 'none')}`],
      [['gen', 'nonogram', '--size', '10', '--seed', '1', '--out', dir], `cannot write --out ${dir}: it is a folder`],
      // a picture's name for text was refused after generating
      [['gen', 'nonogram', '--size', '10', '--seed', '1', '--out', join(dir, 'x.png')], `gen nonogram writes text: --out ${join(dir, 'x.png')} would hold text`],
      [['gen', 'binary', '--size', '6', '--seed', '1', '--out', join(dir, 'x.png')], `gen binary writes text: --out ${join(dir, 'x.png')} would hold text`],
    ];
    for (const [args, message] of cases) {
      const r = cli(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toContain(`cellsolve: ${message}`);
      expect(r.stderr, args.join(' ')).not.toMatch(/pipelines ready|cannot read|seed 1:/);
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a folder is read with its subfolders, in sorted order, its notes and hidden files skipped; an empty one is named', () => {
    const dir = tempDir('cli-');
    const puzzle = '{"rows": [[1]], "columns": [[1]]}';
    mkdirSync(join(dir, 'b', 'c'), { recursive: true });
    mkdirSync(join(dir, '.git'));
    mkdirSync(join(dir, 'empty'));
    for (const f of ['z.json', 'b/c/p.json', 'b/a.json', '.git/x.json', '.h.json']) writeFileSync(join(dir, f), puzzle);
    writeFileSync(join(dir, 'b', 'README.md'), '# notes\nwidth 3\n');
    const r = cli(['solve', 'nonogram', '--method', 'cpu', '--json', dir]);
    expect(r.status, r.stderr).toBe(0);
    // the subfolders were skipped: only z.json was read
    expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l).file)).toEqual(['b/a.json', 'b/c/p.json', 'z.json'].map((f) => join(dir, f)));
    // it said "no nonogram puzzle in " and named nothing
    const empty = cli(['solve', 'nonogram', '--method', 'cpu', join(dir, 'empty')]);
    expect([empty.status, empty.stdout]).toEqual([0, '']);
    expect(empty.stderr).toContain(`cellsolve: no nonogram puzzle in ${join(dir, 'empty')} (a folder with no puzzle file: notes such as README, LICENSE and .md files, and hidden ones, are skipped)`);
    // a folder of notes alone says so too (it said "a folder with no file in it")
    mkdirSync(join(dir, 'notes'));
    for (const f of ['README.md', 'LICENSE']) writeFileSync(join(dir, 'notes', f), 'text\n');
    const notes = cli(['solve', 'nonogram', '--method', 'cpu', join(dir, 'notes')]);
    expect(notes.stderr).toContain(`no nonogram puzzle in ${join(dir, 'notes')} (a folder with no puzzle file: notes such as README`);
  });

  it('gen: a --seed whose puzzles\' seeds S, S+1, ... go past 2^32 - 1 is refused for every kind that uses them; binary draws all from one stream', () => {
    for (const kind of ['maze', 'nonogram', 'sudoku']) {
      // nonogram's second puzzle said "seed 4294967296": seed 0's puzzle again
      const r = cli(['gen', kind, '--size', kind === 'maze' ? '7' : '6', '--seed', '4294967295', '--count', '2']);
      expect(r.status, kind).toBe(2);
      expect(r.stderr, kind).toContain(`cellsolve: --seed 4294967295 with --count 2: the puzzles' seeds (S, S+1, ...) go past 4294967295`);
      expect(cli(['gen', kind, '--size', kind === 'maze' ? '7' : '6', '--seed', '4294967294', '--count', '2']).status, kind).toBe(0);
    }
    expect(cli(['gen', 'binary', '--size', '6', '--seed', '4294967295', '--count', '2']).status).toBe(0);
  });

  it.skipIf(skipGpu)('an --out named .json or .jsonl holds the JSON records, with or without --json', () => {
    const dir = tempDir('out-json');
    for (const name of ['a.json', 'b.JSONL']) {
      const file = join(dir, name);
      const r = cli(['solve', 'sudoku', '--out', file, 'samples/sudoku/generated-9x9-25-clues.txt']);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toBe('');
      const records = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      expect(records.length).toBeGreaterThan(0);
      for (const rec of records) expect(rec.status).toBe('solved');
    }
  });

  it('an input with no puzzle says so on stderr and exits 0', () => {
    for (const kind of kinds) {
      const r = cli(['solve', kind.name, '-'], '');
      expect(r.status, kind.name).toBe(0);
      expect(r.stdout, kind.name).toBe('');
      expect(r.stderr, kind.name).toContain(`cellsolve: no ${kind.name} puzzle in -`);
    }
  });

  it('--help after a command lists its options, a kind\'s own included, and exits 0', () => {
    for (const kind of kinds) {
      const r = cli(['solve', kind.name, '--help']);
      expect(r.status, kind.name).toBe(0);
      expect(r.stdout).toContain(`--method ${kind.methods.join('|')}`);
      for (const o of kind.solveOptions) expect(r.stdout, `${kind.name} --${o.name}`).toContain(`--${o.name}`);
      if (kind.generate) {
        const g = cli(['gen', kind.name, '--help']);
        expect(g.status).toBe(0);
        for (const o of kind.genOptions ?? []) expect(g.stdout, `gen ${kind.name} --${o.name}`).toContain(`--${o.name}`);
      }
    }
    expect(cli(['solve', '--help']).stdout).toContain('cellsolve solve KIND');
    expect(cli(['bench', 'nonogram', '--help']).stdout).toContain('--second-search on|off');
  });

  it('flags take no value, so a file after one stays a file; --flag=false turns it off, not on; -h is --help', () => {
    const flags = flagsOf(['solve', 'sudoku']);
    expect(parseArgs(['--diagonal', 'x.txt', '--json'], flags)).toEqual({ positional: ['x.txt'], options: { diagonal: true, json: true } });
    expect(parseArgs(['--diagonal=false', '--method', 'ca', 'y'], flags)).toEqual({ positional: ['y'], options: { method: 'ca' } });
    expect(parseArgs(['--json=yes', '-h'], flags)).toEqual({ positional: [], options: { json: true, help: true } });
    expect(() => parseArgs(['--json=maybe'], flags)).toThrow("--json is a flag: it takes no value (got 'maybe')");
    const help = cli(['solve', 'nonogram', '-h']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--max-solutions');
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

  it.skipIf(skipGpu)('solve sudoku reads grids drawn over nine lines and answers in their style; --format line reads rows one per line', () => {
    const r = cli(['solve', 'sudoku', 'samples/sudoku/drawn-grids.txt']);
    expect(r.status, r.stderr).toBe(0);
    const input = readFileSync('samples/sudoku/drawn-grids.txt', 'utf8').split('\n').filter((l) => !l.startsWith('#'));
    // the same lines, digits where the blanks were, a blank line after each grid
    const digits = (text: string) => text.trimEnd().split('\n').map((l) => l.replace(/[0-9.]/g, 'd'));
    expect(digits(r.stdout)).toEqual(digits(input.join('\n')));
    expect(r.stdout).toContain('Grid 01\n612957483\n');
    const json = cli(['solve', 'sudoku', '--json', 'samples/sudoku/drawn-grids.txt']);
    expect(json.stdout.trim().split('\n').map((l) => JSON.parse(l).line)).toEqual([3, 14]);
    const lines = cli(['solve', 'sudoku', '--json', '--format', 'line', 'samples/sudoku/drawn-grids.txt']);
    expect(lines.status).toBe(2);
    expect(lines.stdout.trim().split('\n').length).toBeGreaterThan(2);
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

  it.skipIf(skipGpu)('bench web-fps --json gives every case the contract\'s fields and the adapter chromium really used', () => {
    const r = cli(['bench', 'web-fps', '--quick', '--seconds', '0.5', '--json', '--sample', 'life-random:256']);
    expect(r.status, r.stderr).toBe(0);
    const cases = r.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    expect(cases.map((c) => c.case)).toEqual(['raf-only', 'pan-fitted', 'pan-zoom4', 'pan-while-running']);
    for (const c of cases) {
      for (const field of ['bench', 'case', 'adapter', 'mode', 'cells', 'grids', 'generations', 'seconds', 'generationsPerSec', 'cellUpdatesPerSec', 'peer', 'ratio']) expect(c, field).toHaveProperty(field);
      expect(c.adapter).toMatch(/^chromium: .*swiftshader/i);
      expect(c.cells).toBe(256 * 256);
    }
    expect(cases[3].generations, 'the automaton ran while the view panned').toBeGreaterThan(0);
  }, 120_000);

  it.skipIf(skipGpu)('info names the adapter', () => {
    const r = cli(['info', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const info = JSON.parse(r.stdout);
    expect(info.limits.maxComputeWorkgroupsPerDimension).toBeGreaterThanOrEqual(65535);
  });
});
