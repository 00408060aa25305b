// Binary puzzle benchmark (issue 5). Cases:
// - full-14x14: the complete solver (`--method full`) on a batch of 10,000 generated 14x14 puzzles (levels 1-4 in
//   equal parts), beside the CPU solver (src/puzzles/binary/search.ts: propagation, probing, branching, counting to
//   2 solutions like `full`) on the same puzzles in the same run; --count N changes the batch;
// - ca-14x14: our automaton alone on the same batch, beside the CPU propagation alone;
// - --with sgt: the table of ../shared/data/binary/sgt per file: every puzzle solved by `full` and checked against
//   the given solution; % solved by the thesis automaton and by our automaton without probing, their generations,
//   the thesis level histogram (from `full`);
// - --with open: grids with few givens (empty, and a tenth of a random solution given), 16x16 to 32x32, one call
//   each to two solutions with a 30-s deadline, beside the CPU solver with a branch cap (`multiple` needs both);
// - --with large: the unique grids past 32x32 of samples/binary/generated-large-level4.txt (34x34 to 64x64, level
//   4), one call each: the batch path (`--large gpu`) beside the CPU search's threads (`--large cpu`, the default
//   on SwiftShader) and the search in this thread; --quick leaves out the 64x64 (a minute on the batch path);
// - --with levels: the thesis automaton's generation counts on generated 10x10 puzzles of levels 1 and 2, to put
//   beside the thesis' figures (4.3: 7-9 for level 1, 50-150 on average for level 2, 63 for its example).
// Generating 14x14 puzzles costs the CPU ~1.5 s each at level 4, so the batch is 10,000 / 16 generated puzzles,
// each in its 16 symmetric forms (8 rotations and reflections x swapping 0 and 1: the same difficulty, different
// grids), and the generated ones are kept in bench-results/ for the next run.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { GpuContext } from '../src/gpu/context.ts';
import { cellsToString, formatGameId, parseBinary, parseGameId, stringToCells, UNKNOWN, type BinaryPuzzle } from '../src/puzzles/binary/codec.ts';
import { generatePuzzle, randomSolution, rng } from '../src/puzzles/binary/generate.ts';
import { checkSolution } from '../src/puzzles/binary/reference.ts';
import { BinarySearch } from '../src/puzzles/binary/search.ts';
import { solveFullLanes } from '../src/puzzles/binary/lane.ts';
import { runCa, runThesis, solveFull } from '../src/puzzles/binary/solver.ts';
import { BenchReport, type BenchArgs } from './_report.ts';
import type { OptionSpec, SolveOptions } from '../src/puzzles/types.ts';
import { binary } from '../src/puzzles/binary/index.ts';

const SGT = new URL('../../shared/data/binary/sgt/', import.meta.url).pathname;

interface Item {
  puzzle: BinaryPuzzle;
  solution: string;
  level: number;
}

/** symmetry t (0..15) of a square grid: bit 0 mirror x, bit 1 mirror y, bit 2 transpose, bit 3 swap 0 and 1 */
function symmetric(n: number, cells: ArrayLike<number>, t: number): Uint8Array {
  const out = new Uint8Array(n * n);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      let sx = t & 1 ? n - 1 - x : x;
      let sy = t & 2 ? n - 1 - y : y;
      if (t & 4) [sx, sy] = [sy, sx];
      const v = cells[sy * n + sx];
      out[y * n + x] = t & 8 && v !== UNKNOWN ? 1 - v : v;
    }
  }
  return out;
}

/** `count` puzzles of size n: generated ones (cached in bench-results/) in their 16 symmetric forms */
function batchOf(n: number, count: number, seed: number): { items: Item[]; generateSeconds: number; cached: boolean } {
  const bases = Math.ceil(count / 16);
  const file = `bench-results/binary-generated-${n}x${n}-seed${seed}.tsv`;
  const have: Item[] = [];
  if (existsSync(file)) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const [level, id, solution] = line.split('\t');
      if (id) have.push({ puzzle: parseGameId(id, 0), solution, level: Number(level) });
    }
  }
  const t0 = performance.now();
  const random = rng(seed + have.length);
  const cached = have.length >= bases;
  for (let i = have.length; i < bases; i++) {
    const level = 1 + (i % 4);
    const g = generatePuzzle(n, n, level, true, random);
    have.push({ puzzle: g.puzzle, solution: cellsToString(g.solution), level });
  }
  const generateSeconds = (performance.now() - t0) / 1000;
  if (!cached) {
    mkdirSync('bench-results', { recursive: true });
    writeFileSync(file, have.map((it) => `${it.level}\t${formatGameId(n, n, it.puzzle.cells, true)}\t${it.solution}\n`).join(''));
  }
  const items: Item[] = [];
  const seen = new Set<string>();
  for (let t = 0; t < 16 && items.length < count; t++) {
    for (const it of have.slice(0, bases)) {
      if (items.length >= count) break;
      const cells = symmetric(n, it.puzzle.cells, t);
      const key = cellsToString(cells);
      if (seen.has(key)) continue;
      seen.add(key);
      items.push({ puzzle: { width: n, height: n, cells, distinct: true }, solution: cellsToString(symmetric(n, stringToCells(it.solution) as Uint8Array, t)), level: it.level });
    }
  }
  return { items, generateSeconds, cached };
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(0)}%`;

/** the options this benchmark takes beside --json and --quick (`cellsolve bench` rejects others) */
export const options: OptionSpec[] = [
  { name: 'count', value: 'N', number: { whole: true, min: 1 }, help: 'puzzles in the 14x14 batch (default 10,000; 1,000 with --quick)' },
  { name: 'size', value: 'N', number: { whole: true, min: 2 }, help: 'grid size of the batch (default 14)' },
  { name: 'seed', value: 'S', number: { whole: true, min: 0 }, help: 'seed of the generated batch (default 1)' },
  { name: 'lanes', value: 'L', choices: ['on', 'off'], help: 'full on the lanes (default) or the batch path' },
  { name: 'with', value: 'sgt,levels,open,large', help: 'extra cases: the STPPC tables, the thesis levels, grids with few givens, grids past 32x32' },
  { name: 'level-count', value: 'N', number: { whole: true, min: 1 }, help: 'puzzles per level for --with levels (default 100)' },
];

export async function bench(ctx: GpuContext, args: BenchArgs): Promise<void> {
  const o = args.options;
  const report = new BenchReport('binary', ctx, args);
  const extra = String(o.with ?? '').split(',');
  const count = Number(o.count ?? (args.quick ? 1000 : 10_000));
  const n = Number(o.size ?? 14);

  const { items, generateSeconds, cached } = batchOf(n, count, Number(o.seed ?? 1));
  const puzzles = items.map((it) => it.puzzle);
  process.stdout.write(`${items.length} ${n}x${n} puzzles (${cached ? 'generated earlier, bench-results/' : `generated in ${generateSeconds.toFixed(0)} s`}), levels 1-4 in equal parts\n`);

  // compile and warm up outside the timings
  const t0 = performance.now();
  // the complete solver with one puzzle per invocation (lane.ts); `--lanes off`: the batch path (probe copies)
  const lanes = o.lanes !== 'off';
  const full = lanes ? solveFullLanes : solveFull;
  await full(ctx, puzzles.slice(0, 4));
  await runCa(ctx, puzzles.slice(0, 4));
  const compileSeconds = (performance.now() - t0) / 1000;

  // ---- the complete solver
  const c0 = performance.now();
  const cpu = puzzles.map((p) => new BinarySearch(p).solve(2)!);
  const cpuSeconds = (performance.now() - c0) / 1000;
  const g0 = performance.now();
  const { results, stats } = await full(ctx, puzzles);
  const seconds = (performance.now() - g0) / 1000;
  // the lanes' dispatches (each with one readback); the batch path's for grids they hand back
  const laneDispatches = (stats as { laneDispatches?: number }).laneDispatches ?? 0;
  const solved = results.filter((r, i) => r.status === 'solved' && r.solution === items[i].solution && checkSolution(puzzles[i], r.solution) === null).length;
  const cpuSolved = cpu.filter((r, i) => r.count === 1 && cellsToString(r.solutions[0]) === items[i].solution).length;
  const levelsAgree = results.filter((r, i) => r.extra?.level === items[i].level).length;
  const probes = results.reduce((s, r) => s + ((r.extra?.probes as number) ?? 0), 0);
  const branches = results.reduce((s, r) => s + ((r.extra?.branches as number) ?? 0), 0);
  report.add(
    {
      case: `full${lanes ? '-lanes' : ''}-${n}x${n}`,
      mode: 'one-gen',
      cells: n * n * puzzles.length,
      grids: stats.grids,
      copies: stats.copies,
      puzzles: puzzles.length,
      solved,
      levelsAgree,
      probes,
      branches,
      generations: stats.generations,
      seconds,
      puzzlesPerSec: puzzles.length / seconds,
      dispatches: stats.dispatches + laneDispatches,
      readbacks: stats.readbacks + laneDispatches,
      compileSeconds,
      peer: { name: 'CPU solver (TypeScript: line propagation, probing, branching, 2 solutions)', perSec: puzzles.length / cpuSeconds, solved: cpuSolved },
      ratio: cpuSeconds / seconds,
    },
    [
      ['puzzles', String(puzzles.length)],
      ['solved', String(solved)],
      ['puzzles/s', (puzzles.length / seconds).toFixed(0)],
      ['CPU puzzles/s', (puzzles.length / cpuSeconds).toFixed(0)],
      ['GPU/CPU', `${(cpuSeconds / seconds).toFixed(3)}x`],
      ['level = generator\'s', pct(levelsAgree, puzzles.length)],
      ['probes', String(probes)],
      ['branches', String(branches)],
      ['grid copies', String(stats.copies)],
      ['engine grids (packs)', String(stats.grids)],
      ['dispatches', String(stats.dispatches + laneDispatches)],
    ],
  );

  // ---- our automaton alone
  const a0 = performance.now();
  const ca = await runCa(ctx, puzzles);
  const caSeconds = (performance.now() - a0) / 1000;
  const p0 = performance.now();
  const closures = puzzles.map((p) => new BinarySearch(p).closure());
  const closureSeconds = (performance.now() - p0) / 1000;
  const caSolved = ca.filter((r) => r.status === 'done').length;
  const twinAgree = ca.filter((r, i) => closures[i] && cellsToString(r.cells) === cellsToString(closures[i]!)).length;
  report.add(
    {
      case: `ca-${n}x${n}`,
      mode: 'one-gen',
      cells: n * n * puzzles.length,
      grids: puzzles.length,
      puzzles: puzzles.length,
      solved: caSolved,
      generations: ca.reduce((s, r) => Math.max(s, r.generations), 0),
      meanGenerations: mean(ca.map((r) => r.generations)),
      seconds: caSeconds,
      puzzlesPerSec: puzzles.length / caSeconds,
      sameFixpointAsCpu: twinAgree,
      peer: { name: 'CPU line propagation (Methods 1-4)', perSec: puzzles.length / closureSeconds },
      ratio: closureSeconds / caSeconds,
    },
    [
      ['solved alone', pct(caSolved, puzzles.length)],
      ['mean generations', mean(ca.map((r) => r.generations)).toFixed(1)],
      ['puzzles/s', (puzzles.length / caSeconds).toFixed(0)],
      ['CPU propagation/s', (puzzles.length / closureSeconds).toFixed(0)],
      ['same fixpoint', pct(twinAgree, puzzles.length)],
    ],
  );

  if (extra.includes('sgt')) await sgtTable(ctx, report);
  if (extra.includes('levels')) await thesisLevels(ctx, report, Number(o['level-count'] ?? 100));
  if (extra.includes('open')) await openGrids(ctx, report);
  if (extra.includes('large')) await largeGrids(ctx, report, args.quick);
  report.save();
}

/** The per-file table of ../shared/data/binary/sgt. */
async function sgtTable(ctx: GpuContext, report: BenchReport): Promise<void> {
  if (!existsSync(SGT)) {
    process.stdout.write(`sgt: ${SGT} not found\n`);
    return;
  }
  const rows: string[] = [
    '| file | puzzles | full: solved = given | thesis solved | thesis generations mean/max | ca solved (no probing) | ca generations mean/max | level 1/2/3/4 | probes mean | branches |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const f of readdirSync(SGT).filter((x) => x.endsWith('.tsv')).sort()) {
    const recs = parseBinary(readFileSync(SGT + f), f).filter((r) => r.puzzle);
    const puzzles = recs.map((r) => r.puzzle!);
    const expected = recs.map((r) => r.expected!);
    const { results } = await solveFullLanes(ctx, puzzles);
    const thesis = await runThesis(ctx, puzzles);
    const ca = await runCa(ctx, puzzles);
    const ok = results.filter((r, i) => r.status === 'solved' && r.solution === expected[i]).length;
    const thesisOk = thesis.filter((r, i) => r.status === 'done' && cellsToString(r.cells) === expected[i]);
    const caOk = ca.filter((r, i) => r.status === 'done' && cellsToString(r.cells) === expected[i]);
    const tg = thesisOk.map((r) => r.generations);
    const cg = caOk.map((r) => r.generations);
    const levels = [1, 2, 3, 4].map((l) => results.filter((r) => r.extra?.level === l).length);
    const probes = mean(results.map((r) => r.extra?.probes as number));
    const branches = results.reduce((s, r) => s + ((r.extra?.branches as number) ?? 0), 0);
    const mm = (xs: number[]) => (xs.length ? `${mean(xs).toFixed(1)} / ${Math.max(...xs)}` : '-');
    rows.push(`| ${f} | ${puzzles.length} | ${ok} | ${pct(thesisOk.length, puzzles.length)} | ${mm(tg)} | ${pct(caOk.length, puzzles.length)} | ${mm(cg)} | ${levels.join(' / ')} | ${probes.toFixed(1)} | ${branches} |`);
    report.add(
      {
        case: `sgt-${f.replace(/\.tsv$/, '')}`,
        puzzles: puzzles.length,
        solved: ok,
        thesisSolved: thesisOk.length,
        thesisGenerations: { mean: mean(tg), max: tg.length ? Math.max(...tg) : null },
        caSolved: caOk.length,
        caGenerations: { mean: mean(cg), max: cg.length ? Math.max(...cg) : null },
        levels,
        meanProbes: probes,
        branches,
      },
      [
        ['full', `${ok}/${puzzles.length}`],
        ['thesis', pct(thesisOk.length, puzzles.length)],
        ['ca', pct(caOk.length, puzzles.length)],
        ['levels', levels.join('/')],
      ],
    );
  }
  process.stdout.write('\n' + rows.join('\n') + '\n\n');
}

/**
 * Grids with few givens, one call each (as a user solving one grid runs it): the lanes (past their node cap, the
 * batch path) to two solutions with a 30-s deadline, beside the CPU search capped at 20,000 branch points.
 */
async function openGrids(ctx: GpuContext, report: BenchReport): Promise<void> {
  const random = rng(29);
  const rows = ['| grid | full: status | s | branches | CPU search: status | s | branches |', '|---|---|---|---|---|---|---|'];
  for (const n of [16, 20, 24, 28, 30, 32]) {
    for (const given of [0, 0.1]) {
      const solution = randomSolution(n, n, true, random);
      const puzzle: BinaryPuzzle = { width: n, height: n, cells: solution.map((v) => (random() < given ? v : UNKNOWN)), distinct: true };
      const name = `${n}x${n} ${given ? `${given * 100}% given` : 'empty'}`;
      const t0 = performance.now();
      const { results } = await solveFullLanes(ctx, [puzzle], { timeoutMs: 30_000 });
      const gpuSeconds = (performance.now() - t0) / 1000;
      const r = results[0];
      for (const s of [r.solution, r.solution2]) if (s && checkSolution(puzzle, s)) throw new Error(`open ${name}: a solution breaks a rule`);
      const t1 = performance.now();
      const cpu = new BinarySearch(puzzle).solve(2, 20_000);
      const cpuSeconds = (performance.now() - t1) / 1000;
      const cpuStatus = !cpu ? 'capped' : cpu.count === 2 ? 'multiple' : cpu.count === 1 ? 'solved' : 'contradiction';
      rows.push(`| ${name} | ${r.status} | ${gpuSeconds.toFixed(2)} | ${r.extra?.branches ?? '-'} | ${cpuStatus} | ${cpuSeconds.toFixed(2)} | ${cpu?.branches ?? '20,000+'} |`);
      report.add(
        { case: `open-${n}x${n}-${given ? 'tenth' : 'empty'}`, status: r.status, seconds: gpuSeconds, branches: r.extra?.branches, cpuStatus, cpuSeconds, cpuBranches: cpu?.branches ?? null },
        [
          ['full', `${r.status} ${gpuSeconds.toFixed(2)} s`],
          ['CPU search', `${cpuStatus} ${cpuSeconds.toFixed(2)} s`],
          ['GPU/CPU time', `${(cpuSeconds / gpuSeconds).toFixed(2)}x`],
        ],
      );
    }
  }
  process.stdout.write('\n' + rows.join('\n') + '\n\n');
}

/**
 * Grids past the lanes' 32x32, one call each (as a user solving one grid runs it): the batch path (each probe round a
 * dispatch and a readback) beside the CPU search on the kind's threads (index.ts `--large`) and in this thread.
 */
async function largeGrids(ctx: GpuContext, report: BenchReport, quick: boolean): Promise<void> {
  const file = new URL('../samples/binary/generated-large-level4.txt', import.meta.url).pathname;
  const puzzles = parseBinary(readFileSync(file), file).map((r) => r.puzzle!).filter((p) => !quick || p.width < 64);
  const rows = ['| grid | batch path: status | s | probes | CPU threads: status | s | CPU search here: s | batch/threads time |', '|---|---|---|---|---|---|---|---|'];
  const solveOptions = (large: string): SolveOptions => ({ method: 'full', options: { large }, timeoutMs: 120_000 });
  for (const puzzle of puzzles) {
    const name = `${puzzle.width}x${puzzle.height}`;
    const timed = async (large: string) => {
      const t0 = performance.now();
      const [r] = await binary.solve(ctx, [puzzle], solveOptions(large));
      for (const s of [r.solution, r.solution2]) if (s && checkSolution(puzzle, s)) throw new Error(`large ${name}: a solution breaks a rule`);
      return { r, seconds: (performance.now() - t0) / 1000 };
    };
    const gpu = await timed('gpu');
    const threads = await timed('cpu');
    const t1 = performance.now();
    new BinarySearch(puzzle).solve(2);
    const hereSeconds = (performance.now() - t1) / 1000;
    const ratio = gpu.seconds / threads.seconds;
    rows.push(`| ${name} | ${gpu.r.status} | ${gpu.seconds.toFixed(2)} | ${gpu.r.extra?.probes} | ${threads.r.status} | ${threads.seconds.toFixed(2)} | ${hereSeconds.toFixed(2)} | ${ratio.toFixed(1)}x |`);
    report.add(
      { case: `large-${name}`, status: gpu.r.status, seconds: gpu.seconds, probes: gpu.r.extra?.probes, threadsStatus: threads.r.status, threadsSeconds: threads.seconds, cpuSeconds: hereSeconds },
      [
        ['batch path', `${gpu.r.status} ${gpu.seconds.toFixed(2)} s`],
        ['CPU threads', `${threads.r.status} ${threads.seconds.toFixed(2)} s`],
        ['batch/threads time', `${ratio.toFixed(1)}x`],
      ],
    );
  }
  process.stdout.write('\n' + rows.join('\n') + '\n\n');
}

/** The thesis automaton's generations by level on generated 10x10 puzzles, beside the thesis' figures. */
async function thesisLevels(ctx: GpuContext, report: BenchReport, count: number): Promise<void> {
  const random = rng(2017);
  const sets: [string, number, number | undefined, string][] = [
    ['level 1', 1, undefined, '7-9'],
    ['level 2', 2, undefined, '50-150 on average'],
    ['level 2, 28 clues', 2, 28, '50-150 on average (Figure 3.16 has 28 legible clues: 63)'],
  ];
  const rows = ['| 10x10 puzzles | count | clues mean | thesis automaton: solved | generations mean | min | max | thesis (4.3) | our ca: generations mean / max |', '|---|---|---|---|---|---|---|---|---|'];
  for (const [name, level, clues, theirs] of sets) {
    const puzzles = Array.from({ length: count }, () => generatePuzzle(10, 10, level, true, random, undefined, clues).puzzle);
    const th = await runThesis(ctx, puzzles);
    const ca = await runCa(ctx, puzzles);
    const gens = th.filter((r) => r.status === 'done').map((r) => r.generations);
    const cg = ca.map((r) => r.generations);
    const clueMean = mean(puzzles.map((p) => p.cells.filter((c) => c !== UNKNOWN).length));
    rows.push(`| ${name} | ${count} | ${clueMean.toFixed(1)} | ${gens.length} | ${mean(gens).toFixed(1)} | ${Math.min(...gens)} | ${Math.max(...gens)} | ${theirs} | ${mean(cg).toFixed(1)} / ${Math.max(...cg)} |`);
    report.add(
      { case: `thesis-${name.replace(/[ ,]+/g, '-')}`, puzzles: count, clues: clueMean, solved: gens.length, generations: { mean: mean(gens), min: Math.min(...gens), max: Math.max(...gens) }, thesis: theirs, caGenerations: { mean: mean(cg), max: Math.max(...cg) } },
      [
        ['solved', `${gens.length}/${count}`],
        ['generations mean', mean(gens).toFixed(1)],
        ['min/max', `${Math.min(...gens)}/${Math.max(...gens)}`],
        ['thesis', theirs],
      ],
    );
  }
  process.stdout.write('\n' + rows.join('\n') + '\n\n');
}
