// The ILCA table of issue 7 (seed 002, Tables 2-6): resolution rate (share of runs resolved within 250 steps, every
// answer checked by the CPU verifier) and mean time-steps of the resolved runs, by difficulty, 10 runs per puzzle,
// for each of the paper's parameter sets and our improved variant, next to the paper's figures. Two puzzle sets:
// - paper: drawn as the paper's generator draws them (MATLAB Central 13846 Cs.m, `paperPuzzle`): 100 per level at
//   Table 1's d values (33/34/33), each cell blanked with probability d; `--filter sud` keeps only the draws that
//   generator's solver sud.m accepts (singles, or one guess then singles, see `sudAccepts`);
// - stppc: the STPPC graded sets solo_3x3db/di/da/de (Basic/Intermediate/Advanced/Extreme) of ../shared.
// Options: --sets paper,stppc|none  --presets 'base;sr=40' (names in ILCA_PRESETS)  --puzzles N (per level, 100)
// --runs N (10)  --seed S (1)  --engine gpu|cpu (default gpu; cpu: the CPU twin, bit-identical to the GPU by
// test/sudoku-ilca.test.ts)  --capped true (the capped reading of eq. 7 as well)  --timing-puzzles N (per level, 10).
// A timing case runs the same jobs on the GPU and the CPU twin and compares them (runs/s, ratio, same outcomes).
import { existsSync, readFileSync } from 'node:fs';
import type { GpuContext } from '../src/gpu/context.ts';
import { parseSudoku } from '../src/puzzles/sudoku/codec.ts';
import { rng } from '../src/puzzles/random.ts';
import { ilcaSeed } from '../src/puzzles/sudoku/index.ts';
import { ILCA_PRESETS, ilcaRunCpu, PAPER_LEVELS, paperD, paperPuzzle, runIlca, type IlcaParams } from '../src/puzzles/sudoku/ilca.ts';
import { caRun, gridString, popcount, RULE_HIDDEN, RULE_NAKED, verify, type SudokuPuzzle } from '../src/puzzles/sudoku/reference.ts';
import { BenchReport, type BenchArgs } from './_report.ts';
import type { OptionSpec } from '../src/puzzles/types.ts';

const SGT = new URL('../../shared/data/sudoku/sgt/', import.meta.url).pathname;

/** The paper's figures (Tables 2-6): [rate %, mean time-steps] per level, and the overall rate. */
export const PAPER_TABLES: Record<string, { levels: ([number, number] | null)[]; overall: number | null; source: string }> = {
  base: { levels: [[99.9, 5], [96.7, 11], [58, 35], [35.5, 55]], overall: 72.5, source: 'Table 2' },
  'lp/lr=20': { levels: [[100, 5], [100, 13], [93, 49], [77, 95]], overall: 92.5, source: 'Table 3' },
  'lp=3.5': { levels: [[100, 5], [100, 17], [98, 78], [87, 109]], overall: 96.3, source: 'Table 4' },
  'sr=40': { levels: [[100, 6], [100, 26], [99, 91], [96, 121]], overall: 98.8, source: 'Table 5' },
  // Table 6 gives each level's best combination only: Hard's is lp/lr = 15, sr = 50; Evil's and the overall 15/65
  'lp/lr=15,sr=50': { levels: [null, null, [100, 78], null], overall: null, source: 'Table 6 (Hard)' },
  'lp/lr=15,sr=65': { levels: [null, null, null, [98, 114]], overall: 99.3, source: 'Table 6 (Evil, overall)' },
};

/**
 * sud.m's acceptance (MATLAB Central 13846, the generator's check): the singles fixpoint solves the puzzle, or it
 * leaves more than 15 blanks and one guess (cells column by column, candidates in order) followed by singles does.
 * Cs.m discards a rejected draw and draws again (though its returned matrix is the first draw's: `Cs(n);` drops
 * the recursive result), so the paper's puzzles are either these or the unfiltered draws.
 */
export function sudAccepts(p: SudokuPuzzle): boolean {
  const rules = RULE_NAKED | RULE_HIDDEN;
  const s = caRun(p, rules);
  if (s.status === 'solved') return true;
  if (s.status === 'contradiction') return false;
  const open = s.masks.filter((m) => popcount(m) !== 1).length;
  if (open <= 15) return false;
  for (let c = 0; c < p.n; c++) {
    for (let r = 0; r < p.n; r++) {
      const x = r * p.n + c;
      const m = s.masks[x];
      if (popcount(m) === 1) continue;
      for (let v = 0; v < p.n; v++) {
        if (!(m & (1 << v))) continue;
        const start = Uint32Array.from(s.masks);
        start[x] = 1 << v;
        if (caRun(p, rules, 10_000, start).status === 'solved') return true;
      }
    }
  }
  return false;
}

/** 100 puzzles per level (or `per`), as Table 1: d values 33/34/33, deterministic from the seed. */
export function paperSet(per: number, seed: number, filter: boolean): { level: string; puzzles: SudokuPuzzle[]; draws: number }[] {
  return PAPER_LEVELS.map(([level, ds], li) => {
    const random = rng(seed * 16 + li);
    const puzzles: SudokuPuzzle[] = [];
    let draws = 0;
    for (let i = 0; i < per; i++) {
      for (;;) {
        draws++;
        const p = paperPuzzle(paperD(ds, i, per), random);
        if (!filter || sudAccepts(p)) {
          puzzles.push(p);
          break;
        }
      }
    }
    return { level, puzzles, draws };
  });
}

export function stppcSet(per: number): { level: string; puzzles: SudokuPuzzle[]; draws: number }[] | null {
  if (!existsSync(SGT)) return null;
  return [
    ['Basic', 'solo_3x3db'],
    ['Intermediate', 'solo_3x3di'],
    ['Advanced', 'solo_3x3da'],
    ['Extreme', 'solo_3x3de'],
  ].map(([level, file]) => {
    const puzzles = parseSudoku(readFileSync(`${SGT}${file}.tsv`), file)
      .filter((r) => r.puzzle)
      .map((r) => r.puzzle!)
      .slice(0, per);
    return { level, puzzles, draws: puzzles.length };
  });
}

interface Outcome {
  solved: boolean;
  steps: number;
  values: Uint8Array;
}

async function runJobs(ctx: GpuContext, jobs: { puzzle: SudokuPuzzle; seed: number }[], params: IlcaParams, engine: string): Promise<Outcome[]> {
  return engine === 'gpu' ? runIlca(ctx, jobs, params) : jobs.map((j) => ilcaRunCpu(j.puzzle, j.seed, params));
}

const givensOf = (ps: SudokuPuzzle[]) => ps.reduce((s, p) => s + p.givens.filter((v) => v).length, 0) / Math.max(1, ps.length);

/** the options this benchmark takes beside --json and --quick (`cellsolve bench` rejects others) */
export const options: OptionSpec[] = [
  { name: 'sets', value: 'paper,stppc|none', help: 'puzzle sets (default paper,stppc)' },
  { name: 'presets', value: "'P;P'", help: 'presets (names in ILCA_PRESETS; default all)' },
  { name: 'puzzles', value: 'N', number: { whole: true, min: 1 }, help: 'paper puzzles per level (default 100; 10 with --quick)' },
  { name: 'runs', value: 'N', number: { whole: true, min: 1 }, help: 'runs per puzzle (default 10)' },
  { name: 'seed', value: 'S', number: { whole: true, min: 0 }, help: 'seed (default 1)' },
  { name: 'engine', value: 'E', choices: ['gpu', 'cpu'], help: 'cpu: the CPU twin (bit-identical)' },
  { name: 'filter', value: 'sud', choices: ['sud'], help: 'only the draws sud.m accepts' },
  { name: 'capped', value: 'B', choices: ['true', 'false'], help: 'the capped reading of eq. 7 as well' },
  { name: 'timing-puzzles', value: 'N', number: { whole: true, min: 1 }, help: 'puzzles per level of the timing case (default 10)' },
  { name: 'timing-preset', value: 'P', help: 'preset of the timing case (default sr=40)' },
];

export async function bench(ctx: GpuContext, args: BenchArgs): Promise<void> {
  const o = args.options;
  const report = new BenchReport('sudoku-ilca', ctx, args);
  // --sets none: only the GPU-against-CPU-twin timing case
  const sets = String(o.sets ?? 'paper,stppc').split(',').filter((s) => s && s !== 'none');
  const presets = String(o.presets ?? Object.keys(ILCA_PRESETS).join(';')).split(';');
  const per = Number(o.puzzles ?? (args.quick ? 10 : 100));
  const runs = Number(o.runs ?? 10);
  const seed = Number(o.seed ?? 1);
  const engine = o.engine === 'cpu' ? 'cpu' : 'gpu';
  const filter = o.filter === 'sud';
  const readings: [string, boolean][] = o.capped === true || o.capped === 'true' ? [['', false], [' capped', true]] : [['', false]];

  for (const setName of sets) {
    const levels = setName === 'paper' ? paperSet(per, seed, filter) : stppcSet(per);
    if (!levels) {
      report.add({ case: `ilca ${setName}`, skipped: '../shared absent' }, [['skipped', '../shared absent']]);
      continue;
    }
    const label = setName === 'paper' ? `paper-like${filter ? ' (sud.m filter)' : ''}` : 'STPPC';
    report.add(
      { case: `ilca ${label} puzzles`, levels: levels.map((l) => ({ level: l.level, puzzles: l.puzzles.length, meanGivens: givensOf(l.puzzles), draws: l.draws })) },
      levels.map((l) => [l.level, `${l.puzzles.length} puzzles, ${givensOf(l.puzzles).toFixed(1)} givens${filter && setName === 'paper' ? `, ${l.draws} draws` : ''}`]),
    );
    for (const preset of presets) {
      for (const [suffix, capped] of readings) {
        if (capped && ILCA_PRESETS[preset]?.capped) continue; // already capped
        const params = { ...ILCA_PRESETS[preset], capped: ILCA_PRESETS[preset]?.capped || capped };
        if (!ILCA_PRESETS[preset]) throw new Error(`--presets: unknown '${preset}' (${Object.keys(ILCA_PRESETS).join(', ')})`);
        const paper = PAPER_TABLES[preset];
        const c: Record<string, unknown> = { case: `ilca ${label} ${preset}${suffix}`, params, runs, seed, engine: engine === 'cpu' ? 'cpu twin' : 'gpu' };
        const rows: [string, string][] = [];
        let all = 0;
        let allSolved = 0;
        const t = performance.now();
        for (const [li, { level, puzzles }] of levels.entries()) {
          const jobs = puzzles.flatMap((puzzle, i) => Array.from({ length: runs }, (_, r) => ({ puzzle, seed: ilcaSeed(seed, i, r) })));
          const res = await runJobs(ctx, jobs, params, engine);
          const won = res.filter((x, j) => x.solved && verify(jobs[j].puzzle, gridString(x.values)));
          const rate = won.length / Math.max(1, res.length);
          const steps = won.reduce((s, x) => s + x.steps, 0) / Math.max(1, won.length);
          const ref = setName === 'paper' ? paper?.levels[li] : null;
          c[level] = { rate, meanSteps: won.length ? steps : null, runs: res.length, paper: ref ? { rate: ref[0] / 100, meanSteps: ref[1] } : null };
          all += res.length;
          allSolved += won.length;
          rows.push([level, `${(100 * rate).toFixed(1)}% ${won.length ? steps.toFixed(0) : '-'}${ref ? ` (paper ${ref[0]}% ${ref[1]})` : ''}`]);
        }
        c.overall = allSolved / Math.max(1, all);
        c.seconds = (performance.now() - t) / 1000;
        const ov = setName === 'paper' ? paper?.overall : null;
        rows.push(['overall', `${((100 * allSolved) / Math.max(1, all)).toFixed(1)}%${ov ? ` (paper ${ov}%)` : ''}`], ['time', `${(c.seconds as number).toFixed(0)} s`]);
        report.add(c as { case: string }, rows);
      }
    }
  }

  // GPU against the CPU twin on the same jobs: runs/s side by side, and the same outcome for every run
  const timing = paperSet(Number(o['timing-puzzles'] ?? (args.quick ? 3 : 10)), seed, false);
  const params = ILCA_PRESETS[String(o['timing-preset'] ?? 'sr=40')];
  const jobs = timing.flatMap((l) => l.puzzles).flatMap((puzzle, i) => Array.from({ length: runs }, (_, r) => ({ puzzle, seed: ilcaSeed(seed, i, r) })));
  // the shader's pipeline is compiled once per process and grid shape (SwiftShader: ~1 s): timed apart
  let t = performance.now();
  await runIlca(ctx, jobs.slice(0, 1), params);
  const compileSeconds = (performance.now() - t) / 1000;
  // wall time, and the process's CPU time (SwiftShader's worker threads included): the machine is shared, and the
  // GPU path on 2 cores suffers more from other load than the single-threaded CPU twin
  const cpuTime = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1e6;
  let u = process.cpuUsage();
  t = performance.now();
  const gpu = await runIlca(ctx, jobs, params);
  const gpuSeconds = (performance.now() - t) / 1000;
  const gpuCpuSeconds = cpuTime(process.cpuUsage(u));
  u = process.cpuUsage();
  t = performance.now();
  const cpu = jobs.map((j) => ilcaRunCpu(j.puzzle, j.seed, params));
  const cpuSeconds = (performance.now() - t) / 1000;
  const cpuCpuSeconds = cpuTime(process.cpuUsage(u));
  const same = gpu.every((g, j) => g.solved === cpu[j].solved && g.steps === cpu[j].steps && gridString(g.values) === gridString(cpu[j].values));
  const steps = cpu.reduce((s, x) => s + x.steps, 0);
  report.add(
    {
      case: 'ilca gpu vs cpu twin',
      preset: String(o['timing-preset'] ?? 'sr=40'),
      puzzles: jobs.length,
      seconds: gpuSeconds,
      firstCallSeconds: compileSeconds,
      cpuSeconds: gpuCpuSeconds,
      puzzlesPerSec: jobs.length / gpuSeconds,
      solved: gpu.filter((g) => g.solved).length,
      timeSteps: steps,
      peer: { name: 'ILCA CPU twin (ilcaRunCpu)', perSec: jobs.length / cpuSeconds, seconds: cpuSeconds, cpuSeconds: cpuCpuSeconds },
      ratio: cpuSeconds / gpuSeconds,
      identical: same,
    },
    [
      ['runs', String(jobs.length)],
      ['gpu', `${(jobs.length / gpuSeconds).toFixed(1)} runs/s`],
      ['cpu twin', `${(jobs.length / cpuSeconds).toFixed(1)} runs/s`],
      ['ratio', `${(cpuSeconds / gpuSeconds).toFixed(2)}x`],
      ['cpu time per run', `gpu ${((1000 * gpuCpuSeconds) / jobs.length).toFixed(2)} ms, cpu twin ${((1000 * cpuCpuSeconds) / jobs.length).toFixed(2)} ms (${(cpuCpuSeconds / gpuCpuSeconds).toFixed(2)}x)`],
      ['identical', String(same)],
      ['first call', `${compileSeconds.toFixed(2)} s (pipeline compile, not in the gpu figure)`],
    ],
  );
  report.save();
}
