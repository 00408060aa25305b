// `cellsolve solve binary` and `cellsolve gen binary` end to end (CLI.md): output forms, JSON fields, exit codes.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { formatGameId } from '../src/puzzles/binary/codec.ts';
import { skipGpu } from './gpu.ts';
import { runCli, runCliInterrupted } from './cli.helpers.ts';

const cli = runCli;

describe('cellsolve binary', () => {
  it('a bad grid names file, line and column; exit 2', () => {
    const r = cli(['solve', 'binary', '-'], '0101\n01x1\n1010\n1010\n');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('-:2:3:');
    expect(cli(['solve', 'binary', '--rules', 'bogus', '-'], '01\n10\n').status).toBe(2);
    expect(cli(['gen', 'binary', '--level', '3', '--rules', 'unruly']).status).toBe(2);
  });

  it('gen binary: a --clues past the grid\'s cells or a --seed past 2^32 - 1 is a usage error naming the option, the value and the range', () => {
    // 37 clues on a 6x6 grid left all 36 (and then found no level-2 puzzle with them)
    for (const [size, clues, max] of [['6', '37', 36], ['6x4', '1000', 24]] as const) {
      const r = cli(['gen', 'binary', '--size', size, '--seed', '1', '--clues', clues]);
      expect(r.status).toBe(2);
      expect(r.stderr).toBe(`cellsolve: --clues takes a whole number >= 0 and <= ${max} for a ${size === '6' ? '6x6' : size} grid (got '${clues}')\n`);
    }
    const all = cli(['gen', 'binary', '--size', '6', '--seed', '1', '--level', '1', '--clues', '36']);
    expect(all.status, all.stderr).toBe(0);
    expect(all.stdout).toMatch(/^(?:[01]{6}\n){6}$/m);
    const wrap = cli(['gen', 'binary', '--size', '6', '--seed', '4294967296']);
    expect(wrap.status).toBe(2);
    expect(wrap.stderr).toContain("--seed takes a whole number >= 0 and <= 4294967295 (got '4294967296')");
  });

  it('gen on large grids: 64x64 in seconds (the random grid by flips), level 3 past 20x20 refused with the reason', () => {
    const big = cli(['gen', 'binary', '--size', '64', '--seed', '2']);
    expect(big.status, big.stderr).toBe(0);
    expect(big.stdout.split('\n').filter((l) => /^[01.]{64}$/.test(l)).length).toBe(64);
    const rare = cli(['gen', 'binary', '--size', '30', '--level', '3', '--seed', '1']);
    expect(rare.status).toBe(2);
    expect(rare.stderr).toContain('no 30x30 puzzle of level 3 found in 22 attempts: level 3 puzzles are rare past 20x20');
  });

  it.skipIf(skipGpu)('solves in the input form: grid, game id, tsv (header kept, solution column filled)', () => {
    const grid = cli(['solve', 'binary', 'samples/binary/blog-6x6.txt']);
    expect(grid.status, grid.stderr).toBe(0);
    expect(grid.stdout).toBe('001101\n001011\n110010\n010101\n101010\n110100\n\n');
    const id = cli(['solve', 'binary', '-'], '8x8u:aBeABaigFhdbCiBc\n');
    // the solved grid as a game id with every cell given (the first row of unruly_8x8udn.tsv)
    const solution = '0011011010101001010100111010011001011001100110100110010111001100';
    expect(id.stdout).toBe(formatGameId(8, 8, Array.from(solution, Number), true) + '\n');
    const tsv = cli(['solve', 'binary', 'samples/binary/unruly_8x8udn.tsv']);
    expect(tsv.status, tsv.stderr).toBe(0);
    const lines = tsv.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^game_id\tw\th\tunique/);
    expect(lines.length).toBe(101);
    for (const l of lines.slice(1)) {
      const f = l.split('\t');
      expect(f[5]).toMatch(/^[01]{64}$/);
    }
  });

  it.skipIf(skipGpu)('--json: level, probes, branches; every method; gen output solves at its level', () => {
    const gen = cli(['gen', 'binary', '--size', '10x10', '--level', '3', '--seed', '4', '--count', '2']);
    expect(gen.status, gen.stderr).toBe(0);
    const full = cli(['solve', 'binary', '--json', '-'], gen.stdout);
    expect(full.status, full.stderr).toBe(0);
    const rows = full.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(rows.map((r) => [r.index, r.status, r.method, r.level, r.probes, r.branches])).toEqual([
      [0, 'solved', 'full', 3, 0, 0],
      [1, 'solved', 'full', 3, 0, 0],
    ]);
    expect(rows[0].solution).toMatch(/^[01]{100}$/);
    for (const method of ['ca', 'thesis']) {
      const r = cli(['solve', 'binary', '--json', '--method', method, '-'], gen.stdout);
      const out = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
      // level 3 needs Method 4: our automaton has it, the thesis automaton does not
      expect(out.map((x) => x.status)).toEqual(method === 'ca' ? ['solved', 'solved'] : ['unsolved', 'unsolved']);
      expect(r.status).toBe(method === 'ca' ? 0 : 1);
    }
    const multi = cli(['solve', 'binary', '--json', '-'], '....\n....\n....\n....\n');
    expect(JSON.parse(multi.stdout).status).toBe('multiple');
    expect(multi.status).toBe(1);
    // a timed-out puzzle the lanes handed to the batch path counts its time from the call's start (it said 0.55 ms),
    // and the lanes keep to the deadline (they ran their whole search: 5.5 s against a 1-s --timeout)
    const open = cli(['solve', 'binary', '--json', '--timeout', '1', '-'], `${'.'.repeat(32)}\n`.repeat(32));
    expect(JSON.parse(open.stdout)).toMatchObject({ status: 'unsolved', reason: 'timeout' });
    expect(JSON.parse(open.stdout).ms).toBeGreaterThan(900);
    expect(JSON.parse(open.stdout).ms).toBeLessThan(2500);
    // the only grid the rules force has two equal rows: every method says there is no solution (the thesis
    // automaton, which does not compare lines, had its grid rejected by the verifier: exit 3)
    for (const method of ['full', 'ca', 'thesis']) {
      const r = cli(['solve', 'binary', '--json', '--method', method, '-'], '011.\n1001\n0110\n1001\n');
      expect([JSON.parse(r.stdout).status, r.status], method).toEqual(['contradiction', 1]);
    }
  });

  it.skipIf(skipGpu)('--max-generations N caps the puzzle over all its stages: full stops at N, not N per stage; a cap the solve fits in is no stop', () => {
    // level 2: Methods 1-2 stall, the stage that adds Method 3 completes it
    const puzzle = cli(['gen', 'binary', '--size', '14', '--seed', '2']).stdout;
    const run = (...args: string[]) => JSON.parse(cli(['solve', 'binary', '--json', ...args, '-'], puzzle).stdout);
    const full = run('--lanes', 'off');
    expect(full).toMatchObject({ status: 'solved', level: 2 });
    const g = full.generations;
    for (const n of [6, g - 1]) {
      // each stage had the whole cap: 11 generations for a cap of 6
      expect(run('--lanes', 'off', '--max-generations', String(n)), `cap ${n}`).toMatchObject({ status: 'unsolved', reason: 'capped', generations: n });
    }
    // the lanes hand a capped run to the batch path
    expect(run('--max-generations', '6')).toMatchObject({ status: 'unsolved', reason: 'capped', generations: 6 });
    // the cap stopped the last stage in the generation that completed the grid: solved
    expect(run('--lanes', 'off', '--max-generations', String(g))).toMatchObject({ status: 'solved', generations: g });
    // so with one automaton alone
    const ca = run('--method', 'ca').generations;
    expect(run('--method', 'ca', '--max-generations', String(ca))).toMatchObject({ status: 'solved', generations: ca });
    expect(run('--method', 'ca', '--max-generations', String(ca - 1))).toMatchObject({ status: 'unsolved', reason: 'capped', generations: ca - 1 });
  });

  it.skipIf(skipGpu)('--large: grids past the lanes\' 32x32 go to the CPU search\'s threads on a CPU-emulated adapter, the batch path by name', () => {
    // a unique 34x34 of level 4 (the samples' first large grid)
    const level4 = readFileSync('samples/binary/generated-large-level4.txt', 'utf8').split('\n\n')[0];
    // a 34x34 that Methods 1-3 complete, made here (gen is seeded), and the same grid solved with a 2x2 square of
    // cells open that either way keeps the rules: two solutions
    const level2 = cli(['gen', 'binary', '--size', '34', '--level', '2', '--seed', '3']).stdout;
    const grid = (text: string) => text.split('\n').filter((l) => l && !l.startsWith('#'));
    const solved = grid(cli(['solve', 'binary', '--large', 'cpu', '-'], level2).stdout);
    const twoWays = openSwappableSquare(solved);
    // three equal givens side by side in the first row: no solution
    const broken = ['111' + grid(level4)[0].slice(3), ...grid(level4).slice(1)].join('\n');
    const blog = readFileSync('samples/binary/blog-6x6.txt', 'utf8');
    const run = (inputs: string[], ...args: string[]) => {
      const r = cli(['solve', 'binary', '--json', ...args, '-'], inputs.join('\n\n'));
      const recs = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
      expect(r.status, r.stderr).toBe(recs.every((x) => x.status === 'solved') ? 0 : 1);
      return recs;
    };
    const note = 'on the CPU search: grids past 32x32 (--large)';
    const notes = (recs: { note?: string }[]) => recs.map((x) => x.note ?? '');
    const onCpu = run([blog, level2, level4, broken, twoWays.join('\n')], '--large', 'cpu');
    expect(onCpu.map((x) => x.status)).toEqual(['solved', 'solved', 'solved', 'contradiction', 'multiple']);
    expect(notes(onCpu)).toEqual(['', note, note, note, note]);
    expect(onCpu.slice(1).map((x) => x.generations), 'the search runs no automaton').toEqual([0, 0, 0, 0]);
    // the thesis levels, as the GPU stages name them
    expect(onCpu.slice(1, 3).map((x) => x.level)).toEqual([2, 4]);
    expect(onCpu[2].probes).toBeGreaterThan(0);
    expect(onCpu[1].solution).toBe(solved.join(''));
    expect(new Set([onCpu[4].solution, onCpu[4].solution2]).size).toBe(2);
    // the batch path by name gives the same answers (the level-4 grid takes it ~10 s on SwiftShader: left out)
    const onGpu = run([blog, level2, broken, twoWays.join('\n')], '--large', 'gpu');
    expect(notes(onGpu)).toEqual(['', '', '', '']);
    expect(onGpu.map((x) => [x.status, x.solution])).toEqual([0, 1, 3, 4].map((k) => [onCpu[k].status, onCpu[k].solution]));
    expect(onGpu[1].generations).toBeGreaterThan(0);
    expect(notes(run([blog, level2], '--lanes', 'off')), '--lanes off asks for the batch path').toEqual(['', '']);
    expect(notes(run([blog, level2], '--lanes', 'off', '--large', 'cpu')), 'an explicit --large cpu wins').toEqual(['', note]);
    // auto: the CPU search where the adapter is CPU-emulated (SwiftShader here), the batch path on a real GPU
    const fallback = JSON.parse(cli(['info', '--json']).stdout).fallback as boolean;
    expect(notes(run([blog, level2, broken]))).toEqual(fallback ? ['', note, note] : ['', '', '']);
    // the call's deadline stops the search (an empty 40x40 takes it ~20 s): unsolved, timeout, at the deadline (`ms`
    // is the search's own time, the thread's start-up not counted)
    const open = JSON.parse(cli(['solve', 'binary', '--json', '--large', 'cpu', '--timeout', '1', '-'], `${'.'.repeat(40)}\n`.repeat(40)).stdout);
    expect(open).toMatchObject({ status: 'unsolved', reason: 'timeout', note });
    expect(open.ms).toBeGreaterThan(400);
    expect(open.ms).toBeLessThan(2500);
  });

  it.skipIf(skipGpu)('Ctrl-C prints every puzzle, the answered ones as answered and the others unsolved `interrupted` (exit 1); it killed the process with no output', async () => {
    // the blog's 6x6 and an empty 34x34, which runs on the batch path (past the lanes' 32x32) for minutes; an empty
    // 30x30, used here until the lanes' open-node rule, now ends in the lanes within seconds (as a lane's dispatch
    // goes to its end, Ctrl-C then printed it answered)
    const input = '.01...\n0.10..\n11.0..\n.1..0.\n...0..\n1..1.0\n\n' + `${'.'.repeat(34)}\n`.repeat(34);
    // (--method ca stalls on it at once: no run to stop)
    for (const args of [[], ['--lanes', 'off']]) {
      const r = await runCliInterrupted(['solve', 'binary', '--json', ...args, '-'], input, 1500);
      const what = `${args.join(' ')}: ${r.stderr}`;
      expect(r.sentAt, what).toBeGreaterThan(0);
      expect([r.code, r.signal], what).toEqual([1, null]);
      expect(r.stderr).toContain('interrupted: stopping after the work in flight');
      const recs = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
      expect(recs.map((x) => [x.status, x.reason]), what).toEqual([['solved', undefined], ['unsolved', 'interrupted']]);
    }
  }, 120_000);

  it.skipIf(skipGpu)('gen binary --rules unruly -> solve -> solve again: the grids keep their rules through both (a `# rules: unruly` line)', () => {
    const made = cli(['gen', 'binary', '--size', '6', '--rules', 'unruly', '--seed', '1', '--count', '3']);
    expect(made.status, made.stderr).toBe(0);
    expect(made.stdout.match(/^# rules: unruly$/gm)?.length).toBe(3);
    const solved = cli(['solve', 'binary', '-'], made.stdout);
    expect(solved.status, solved.stderr).toBe(0);
    expect(solved.stdout.match(/^# rules: unruly$/gm)?.length).toBe(3);
    const want = cli(['solve', 'binary', '--json', '--rules', 'unruly', '-'], made.stdout).stdout.trim().split('\n').map((l) => JSON.parse(l).solution);
    const again = cli(['solve', 'binary', '--json', '-'], solved.stdout).stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(again.map((r) => [r.status, r.solution])).toEqual(want.map((s) => ['solved', s]));
  });
});

/**
 * A solved grid (rows of 0/1) with the corners of a 2x2 square open where both ways keep every rule (a 01/10 square
 * whose swap keeps the counts, no three equal cells and the lines distinct): a puzzle with exactly two solutions.
 */
function openSwappableSquare(rows: string[]): string[] {
  const n = rows.length;
  const g = rows.map((r) => [...r].map(Number));
  const lines = (h: number[][]) => [...h, ...h[0].map((_, c) => h.map((r) => r[c]))];
  const keepsRules = (h: number[][]) => {
    const all = lines(h);
    const distinct = new Set(all.slice(0, n).map((l) => l.join(''))).size === n && new Set(all.slice(n).map((l) => l.join(''))).size === h[0].length;
    return distinct && all.every((l) => 2 * l.reduce((a, b) => a + b, 0) === l.length && l.every((v, i) => i < 2 || v !== l[i - 1] || v !== l[i - 2]));
  };
  for (let r1 = 0; r1 < n; r1++)
    for (let r2 = r1 + 1; r2 < n; r2++)
      for (let c1 = 0; c1 < g[0].length; c1++)
        for (let c2 = c1 + 1; c2 < g[0].length; c2++) {
          if (g[r1][c1] !== g[r2][c2] || g[r1][c2] !== g[r2][c1] || g[r1][c1] === g[r1][c2]) continue;
          const corners = [[r1, c1], [r1, c2], [r2, c1], [r2, c2]];
          const swapped = g.map((r) => [...r]);
          for (const [r, c] of corners) swapped[r][c] = 1 - swapped[r][c];
          if (!keepsRules(swapped)) continue;
          const open = rows.map((r) => [...r]);
          for (const [r, c] of corners) open[r][c] = '.';
          return open.map((r) => r.join(''));
        }
  throw new Error('no swappable square');
}
