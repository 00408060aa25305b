// Sudoku benchmark (issue 7). Every case beside the CPU solver of src/puzzles/sudoku/reference.ts (bitmask DFS with
// naked and hidden singles, counting to 2 solutions like `full`) and @algorithm.ts/sudoku (dancing links, first
// solution only), measured in the same run:
// - 17-clue: the complete solver (`--method full`: one puzzle per GPU invocation, src/puzzles/sudoku/lane.ts) on
//   the 17-clue set (a stride sample; --count N or all); wall time includes packing, the readback and decoding;
// - codegolf-hard: the same on the code-golf hard set;
// - 16x16: STPPC solo_4x4di (100 puzzles);
// - ca-* (--with ca): share of each set the elimination automaton solves alone, per rule set;
// - ilca * (--with ilca): the paper's ILCA table, 10 runs per puzzle on STPPC Basic/Intermediate/Advanced/Extreme
//   (--presets 'base;sr=40', --ilca-puzzles N, --runs N, --seed S, --ilca-engine cpu|gpu).
// Without ../shared the cases run on generated puzzles.
import { existsSync, readFileSync } from 'node:fs';
import type { GpuContext } from '../src/gpu/context.ts';
import { parseSudoku } from '../src/puzzles/sudoku/codec.ts';
import { emptyPuzzle, generate } from '../src/puzzles/sudoku/generate.ts';
import { ilcaSeed } from '../src/puzzles/sudoku/index.ts';
import { ILCA_PRESETS, ilcaRunCpu, runIlca } from '../src/puzzles/sudoku/ilca.ts';
import { caRun, RULE_HIDDEN, RULE_LOCKED, RULE_NAKED, solveCpu, symbolOf, verify, type SudokuPuzzle } from '../src/puzzles/sudoku/reference.ts';
import { runCa, solveFull } from '../src/puzzles/sudoku/solver.ts';
import { BenchReport, type BenchArgs } from './_report.ts';
import type { OptionSpec } from '../src/puzzles/types.ts';

const DATA = new URL('../../shared/data/sudoku/', import.meta.url).pathname;

function load(name: string, count: number, fallback: () => SudokuPuzzle[]): { puzzles: SudokuPuzzle[]; source: string } {
  const file = DATA + name;
  if (!existsSync(file)) return { puzzles: fallback(), source: 'generated (../shared absent)' };
  const all = parseSudoku(readFileSync(file), name).filter((r) => r.puzzle).map((r) => r.puzzle!);
  if (count >= all.length) return { puzzles: all, source: `${name} (all ${all.length})` };
  const stride = all.length / count;
  return { puzzles: Array.from({ length: count }, (_, i) => all[Math.floor(i * stride)]), source: `${name} (${count} of ${all.length}, every ${stride.toFixed(1)}th)` };
}

/**
 * @algorithm.ts/sudoku (dancing links), the fastest JavaScript solver on npm as measured for issue 7: puzzles/s,
 * or null when it is absent or cannot take these puzzles (square boxes only). It stops at the first solution (no
 * uniqueness check, less work than ours). Boards are one-dimensional, -1 blank, values 0..n-1; its answers are
 * checked by our verifier, so an API change shows as null, not as a number.
 */
async function peerDlx(puzzles: SudokuPuzzle[]): Promise<number | null> {
  let mod: any;
  try {
    const name = '@algorithm.ts/sudoku'; // a variable: type-checks without the package installed
    mod = await import(/* @vite-ignore */ name);
  } catch {
    return null;
  }
  const p0 = puzzles[0];
  if (!p0 || p0.boxW !== p0.boxH || p0.regions || p0.diagonal || puzzles.some((p) => p.n !== p0.n)) return null;
  try {
    const solver = new mod.SudokuSolver({ childMatrixWidth: p0.boxW });
    const boards = puzzles.map((p) => Array.from(p.givens, (v) => v - 1));
    const out: number[] = new Array(p0.n * p0.n).fill(-1);
    const t = performance.now();
    for (const b of boards) solver.solve(b, out);
    const s = (performance.now() - t) / 1000;
    solver.solve(boards[0], out);
    return verify(p0, out.map((v) => symbolOf(v + 1)).join('')) ? puzzles.length / s : null;
  } catch {
    return null;
  }
}

function generated(n: number, count: number, clues: number): SudokuPuzzle[] {
  return Array.from({ length: count }, (_, i) => generate(emptyPuzzle(n), clues, i + 1, 3).puzzle);
}

/** the options this benchmark takes beside --json and --quick (`cellsolve bench` rejects others) */
export const options: OptionSpec[] = [
  { name: 'count', value: 'N|all', help: 'puzzles per set (a stride sample; all: every one)' },
  { name: 'with', value: 'ca,ilca', help: 'extra cases: the automaton alone, the ILCA table' },
  { name: 'presets', value: "'P;P'", help: 'ILCA presets for --with ilca (default all)' },
  { name: 'ilca-puzzles', value: 'N', number: { whole: true, min: 1 }, help: 'puzzles per level for --with ilca (default 100)' },
  { name: 'runs', value: 'N', number: { whole: true, min: 1 }, help: 'ILCA runs per puzzle (default 10)' },
  { name: 'seed', value: 'S', number: { whole: true, min: 0 }, help: 'ILCA seed (default 1)' },
  { name: 'ilca-engine', value: 'E', choices: ['gpu', 'cpu'], help: 'cpu: the ILCA\'s CPU twin' },
];

export async function bench(ctx: GpuContext, args: BenchArgs): Promise<void> {
  const o = args.options;
  const q = args.quick;
  const report = new BenchReport('sudoku', ctx, args);
  const t0 = performance.now();
  // compile + warm up both kernels (standard 9x9 on digit planes, other shapes cell by cell)
  await solveFull(ctx, [...generated(4, 2, 6), ...generated(9, 2, 30)]);
  const compileSeconds = (performance.now() - t0) / 1000;
  const count = (d: number) => (o.count === 'all' ? Infinity : Number(o.count ?? (q ? d / 10 : d)));
  const extra = String(o.with ?? '').split(',');

  const cases: [string, string, number, () => SudokuPuzzle[]][] = [
    ['17-clue', 'puzzles2_17_clue', count(2000), () => generated(9, 50, 24)],
    ['codegolf-hard', 'codegolf_hard_sudokus.txt', count(500), () => generated(9, 50, 24)],
    ['16x16', 'sgt/solo_4x4di.tsv', count(100), () => generated(16, 5, 120)],
  ];
  for (const [name, file, n, fallback] of cases) {
    const { puzzles, source } = load(file, n, fallback);
    const t = performance.now();
    const { results, stats } = await solveFull(ctx, puzzles);
    const seconds = (performance.now() - t) / 1000;
    const ok = results.filter((r, i) => (r.status === 'solved' || r.status === 'multiple') && verify(puzzles[i], r.solution!)).length;
    const multiples = results.filter((r) => r.status === 'multiple').length;
    const branches = results.reduce((s, r) => s + ((r.extra?.branches as number) ?? 0), 0);
    const c0 = performance.now();
    for (const p of puzzles) solveCpu(p, 2);
    const cpuSeconds = (performance.now() - c0) / 1000;
    const dlx = await peerDlx(puzzles);
    report.add(
      {
        case: name,
        source,
        mode: 'lanes: one puzzle per invocation (9x9 on digit planes, lane9.wgsl; other shapes cell by cell, lane.wgsl)',
        cells: puzzles.reduce((s, p) => s + p.n * p.n, 0),
        grids: stats.grids,
        puzzles: puzzles.length,
        solved: ok,
        multiples,
        meanBranches: branches / puzzles.length,
        seconds,
        puzzlesPerSec: puzzles.length / seconds,
        dispatches: stats.dispatches,
        readbacks: stats.readbacks,
        compileSeconds,
        peer: { name: 'CPU solver (TypeScript bitmask DFS, singles, 2 solutions)', perSec: puzzles.length / cpuSeconds },
        ratio: cpuSeconds / seconds,
        ...(dlx ? { peer2: { name: '@algorithm.ts/sudoku (dancing links)', perSec: dlx }, ratio2: puzzles.length / seconds / dlx } : {}),
      },
      [
        ['puzzles', String(puzzles.length)],
        ['solved+multiple', `${ok}`],
        ['multiple', String(multiples)],
        ['puzzles/s', (puzzles.length / seconds).toFixed(0)],
        ['CPU puzzles/s', (puzzles.length / cpuSeconds).toFixed(0)],
        ['GPU/CPU', `${(cpuSeconds / seconds).toFixed(3)}x`],
        ['@algorithm.ts/sudoku/s', dlx ? dlx.toFixed(0) : 'n/a'],
        ...(dlx ? [['GPU/DLX', `${(puzzles.length / seconds / dlx).toFixed(3)}x`] as [string, string]] : []),
        ['mean branches', (branches / puzzles.length).toFixed(2)],
        ['copies', String(stats.grids)],
      ],
    );
  }

  if (extra.includes('ca')) {
    // share solved by the automaton alone (tdoku's no-guess figures for 17-clue: singles 44.6%, +locked 76.0%)
    for (const file of ['puzzles2_17_clue', 'codegolf_hard_sudokus.txt', 'puzzles7_serg_benchmark', 'norvig_top95.txt', 'sgt/solo_4x4di.tsv']) {
      const { puzzles, source } = load(file, count(2000), () => generated(9, 20, 24));
      const rows: [string, string][] = [['puzzles', String(puzzles.length)]];
      const c: Record<string, unknown> = { case: `ca-${file.replace(/^sgt\//, '')}`, source, puzzles: puzzles.length };
      for (const [label, rules] of [['singles', RULE_NAKED | RULE_HIDDEN], ['+locked', RULE_NAKED | RULE_HIDDEN | RULE_LOCKED]] as const) {
        const t = performance.now();
        const r = await runCa(ctx, puzzles, { rules, mode: 'rounds' });
        const s = (performance.now() - t) / 1000;
        const solved = r.filter((x) => x.status === 'solved').length;
        c[label] = { solved, share: solved / puzzles.length, seconds: s };
        rows.push([label, `${((100 * solved) / puzzles.length).toFixed(1)}%`]);
      }
      // the CPU twin's synchronous fixpoint must agree (the in-place rounds reach the same one)
      const twin = puzzles.filter((p) => caRun(p).status === 'solved').length;
      rows.push(['CPU twin +locked', `${((100 * twin) / puzzles.length).toFixed(1)}%`]);
      c.twinSolved = twin;
      report.add(c as { case: string }, rows);
    }
  }

  if (extra.includes('ilca')) {
    // The paper's Tables 2-6: resolution rate and mean time-steps (solved runs) per difficulty, 10 runs per puzzle
    const presets = String(o.presets ?? Object.keys(ILCA_PRESETS).join(';')).split(';');
    const per = Number(o['ilca-puzzles'] ?? 100);
    const runs = Number(o.runs ?? 10);
    const seed = Number(o.seed ?? 1);
    for (const preset of presets) {
      const params = ILCA_PRESETS[preset];
      const rows: [string, string][] = [];
      const c: Record<string, unknown> = { case: `ilca ${preset}`, params, runs, seed, engine: o['ilca-engine'] === 'cpu' ? 'cpu twin' : 'gpu' };
      let all = 0;
      let allSolved = 0;
      const t = performance.now();
      for (const [label, file] of [['Basic', 'solo_3x3db'], ['Intermediate', 'solo_3x3di'], ['Advanced', 'solo_3x3da'], ['Extreme', 'solo_3x3de']]) {
        const { puzzles } = load(`sgt/${file}.tsv`, per, () => generated(9, 10, 30));
        const jobs = puzzles.flatMap((puzzle, i) => Array.from({ length: runs }, (_, r) => ({ puzzle, seed: ilcaSeed(seed, i, r) })));
        // --ilca-engine cpu: the CPU twin (test/sudoku-ilca.test.ts holds it bit-identical to the GPU), for when
        // SwiftShader is too slow for 4,000 runs of 250 steps per parameter set
        const res = o['ilca-engine'] === 'cpu' ? jobs.map((j) => ilcaRunCpu(j.puzzle, j.seed, params)) : await runIlca(ctx, jobs, params);
        const won = res.filter((x, j) => x.solved && verify(jobs[j].puzzle, x.values.join('')));
        const rate = won.length / res.length;
        const steps = won.reduce((s, x) => s + x.steps, 0) / Math.max(1, won.length);
        c[label] = { rate, meanSteps: steps, runs: res.length };
        all += res.length;
        allSolved += won.length;
        rows.push([label, `${(100 * rate).toFixed(1)}% ${steps.toFixed(0)} steps`]);
      }
      c.overall = allSolved / all;
      c.seconds = (performance.now() - t) / 1000;
      rows.push(['overall', `${((100 * allSolved) / all).toFixed(1)}%`], ['time', `${(c.seconds as number).toFixed(0)} s`]);
      report.add(c as { case: string }, rows);
    }
  }
  report.save();
}
