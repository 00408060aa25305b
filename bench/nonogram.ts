// Nonogram benchmark (issue 6), every case beside the CPU solver of src/puzzles/nonogram/reference.ts (the exact
// line DP, probing and search, counting to 2 solutions like `full`) measured in the same run:
// - taai2011: the TAAI 2011 tournament set, 1,000 puzzles of 25x25, as one batch (`--method full`). Published
//   anchors: nonosolve 82-140 s per 1,000-puzzle set (2x Xeon), LalaFrogKK (champion 2011-2015) 463-4,245 s.
//   --count N takes the first N; --quick the first 100. The CPU solver runs beside it on the first --cpu-count
//   puzzles (default 100; the later ones take it minutes each), the GPU again on the same ones. The set runs
//   twice: to the first solution (tournament rules, as the anchors' solvers) and with uniqueness (2 solutions);
//   each run stops after --timeout seconds (default 240; puzzles still open count as unsolved); --search names the
//   lanes kernels' search for these passes (auto, the default; probing; cdcl; race), --second-search off leaves out the
//   second search hard puzzles get (the A/B for it). Beside them, on 100 puzzles each
//   (first solutions, 40 s cap): lanes vs the rounds solver on #201-300, and the three searches on #401-500.
// - stppc-20x20: STPPC Pattern 20x20 (100 puzzles, all line-solvable): puzzles/s.
// - automaton: generations of the line automaton alone on STPPC 5x5..25x25, beside the thesis CA (4,489 for a
//   10x10) and the RL paper's line steps (optimal order, 5x5: 7.6).
// - collections (--with collections): every shared collection, per collection the share solved by line logic,
//   probing and search, uniqueness, agreement with the given solutions.
// Without ../shared the cases run on generated puzzles.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { GpuContext } from '../src/gpu/context.ts';
import { parseNonograms, pictureToPuzzle, type Nonogram } from '../src/puzzles/nonogram/codec.ts';
import { lineSolve, solveCpu, verify } from '../src/puzzles/nonogram/reference.ts';
import { DEFAULT_SCORES } from '../src/puzzles/nonogram/lane.ts';
import { compileNonogramRules, emptyStats, SEARCHES, solveNonograms, type NonogramResult, type Search } from '../src/puzzles/nonogram/solver.ts';
import { BenchReport, type BenchArgs } from './_report.ts';
import type { OptionSpec } from '../src/puzzles/types.ts';

const DATA = new URL('../../shared/data/nonogram/', import.meta.url).pathname;
/** runs of each side of the STPPC 20x20 case (the median counts) */
const STPPC_REPEATS = 7;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

interface Loaded {
  puzzles: Nonogram[];
  expected: (string | undefined)[];
  source: string;
}

function load(files: string[], name: string, fallback: () => Nonogram[], options: Record<string, string> = {}): Loaded {
  if (!files.every((f) => existsSync(f))) {
    const puzzles = fallback();
    return { puzzles, expected: puzzles.map(() => undefined), source: `generated (../shared absent): ${name}` };
  }
  const recs = files.flatMap((f) => parseNonograms(readFileSync(f), f, options)).filter((r) => r.puzzle);
  return { puzzles: recs.map((r) => r.puzzle!), expected: recs.map((r) => r.expected), source: name };
}

function random(w: number, h: number, count: number, density: number): Nonogram[] {
  let s = 12345;
  const rnd = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
  return Array.from({ length: count }, () => pictureToPuzzle(Array.from({ length: w * h }, () => (rnd() < density ? 1 : 0)), w, h));
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(`${dir}/${e.name}`) : [`${dir}/${e.name}`]));
}

/** Per-level tallies, uniqueness and agreement with given solutions. */
function tally(puzzles: Nonogram[], results: NonogramResult[], expected: (string | undefined)[]) {
  const t = { line: 0, probe: 0, search: 0, unique: 0, unproven: 0, multiple: 0, none: 0, unsolved: 0, verified: 0, given: 0, givenFound: 0, givenIsUnique: 0 };
  results.forEach((r, i) => {
    if (r.status === 'solved' || r.status === 'multiple') t[r.level]++;
    // solved but not proven unique: a first-solution run, or a uniqueness run the deadline stopped
    if (r.status === 'solved' && r.unique === false) t.unproven++;
    else if (r.status === 'solved') t.unique++;
    else if (r.status === 'multiple') t.multiple++;
    else if (r.status === 'contradiction') t.none++;
    else t.unsolved++;
    if ([r.solution, r.solution2].every((s) => s === undefined || verify(puzzles[i], s)) && r.solution) t.verified++;
    if (expected[i]) {
      t.given++;
      if (r.solution === expected[i] || r.solution2 === expected[i]) t.givenFound++;
      if (r.status === 'solved' && r.solution === expected[i]) t.givenIsUnique++;
    }
  });
  return t;
}

const pct = (n: number, of: number) => `${((100 * n) / Math.max(1, of)).toFixed(1)}%`;

/** the options this benchmark takes beside --json and --quick (`cellsolve bench` rejects others) */
export const options: OptionSpec[] = [
  { name: 'count', value: 'N', number: { whole: true, min: 1 }, help: 'TAAI puzzles, the first N (default 1,000; 100 with --quick)' },
  { name: 'cpu-count', value: 'N', number: { whole: true, min: 0 }, help: 'TAAI puzzles the CPU solver runs beside the GPU (default 100)' },
  { name: 'timeout', value: 'S', number: { above: 0 }, help: 'seconds per TAAI pass (default 240)' },
  { name: 'search', value: 'S', choices: SEARCHES, help: 'the lanes kernels\' search for the TAAI passes (default auto)' },
  { name: 'second-search', value: 'on|off', choices: ['on', 'off'], help: 'off: no second search on hard puzzles' },
  { name: 'lanes', value: 'L', choices: ['on', 'off'], help: 'off: everything on the rounds solver' },
  { name: 'with', value: 'collections', help: 'every collection of ../shared/data/nonogram as well' },
];

/** TAAI 2011 puzzles (0-based) that whole runs answered last, 8-30 minutes in before CDCL ran on CPU threads */
const TAAI_TAIL = [394, 477, 492, 506, 509, 556, 562, 576, 578, 586, 590, 596, 607, 630, 720, 743, 751];

export async function bench(ctx: GpuContext, args: BenchArgs): Promise<void> {
  const o = args.options;
  const report = new BenchReport('nonogram', ctx, args);
  const warm = random(25, 25, 2, 0.5);
  const t0 = performance.now();
  // both searches' pipelines (race), so no case times a compilation
  await compileNonogramRules(ctx, [...warm, random(40, 20, 1, 0.5)[0]], { search: 'race' });
  await solveNonograms(ctx, warm);
  const compileSeconds = (performance.now() - t0) / 1000;
  const extra = String(o.with ?? '').split(',');
  const timeoutMs = Number(o.timeout ?? 240) * 1000;
  // `--lanes off`: the rounds solver (every probe copy in a batch, the host deciding each round) instead of the lanes
  // kernel (one puzzle per invocation)
  const lanes = o.lanes !== 'off';
  // `--search probing|cdcl|race`: the whole-set passes with that search of the lanes kernels (default auto)
  const search = (o.search ?? 'auto') as Search;
  if (!SEARCHES.includes(search)) throw new Error(`--search takes ${SEARCHES.join(', ')}`);
  // `--second-search off`: no second search for hard puzzles (the A/B for lane.ts DEFAULT_SCORES)
  const secondSearch = o['second-search'] !== 'off';
  const mode = lanes ? `lanes (one puzzle per invocation), --search ${search}${secondSearch ? '' : ', --second-search off'}` : 'multi-gen rounds';

  // --- TAAI 2011: 1,000 x 25x25 in one batch
  let taai: { puzzles: Nonogram[]; results: NonogramResult[]; expected: (string | undefined)[]; seconds: number } | undefined;
  {
    const n = o.count !== undefined ? Number(o.count) : args.quick ? 100 : 1000;
    const q = `${DATA}tournament/question/taai2011.txt`;
    const sol = `${DATA}tournament/solution/taai2011.txt`;
    const all = load([q, sol], 'TAAI 2011 (tournament/question/taai2011.txt)', () => random(25, 25, 20, 0.5), { solutions: sol });
    const puzzles = all.puzzles.slice(0, n);
    const expected = all.expected.slice(0, n);

    // the same first puzzles on the GPU and on the CPU solver
    const m = Math.min(puzzles.length, Number(o['cpu-count'] ?? 100));
    const head = puzzles.slice(0, m);
    const g0 = performance.now();
    const headGpu = await solveNonograms(ctx, head, { lanes });
    const gpuHead = (performance.now() - g0) / 1000;
    const c0 = performance.now();
    const headCpu = head.map((p) => solveCpu(p));
    const cpuHead = (performance.now() - c0) / 1000;
    report.add(
      {
        case: `taai2011-first${m}`,
        source: `${all.source}, first ${m}`,
        mode,
        puzzles: m,
        solved: headGpu.filter((r) => r.status === 'solved' || r.status === 'multiple').length,
        seconds: gpuHead,
        puzzlesPerSec: m / gpuHead,
        compileSeconds,
        peer: { name: 'CPU solver (TypeScript: exact line DP, probing, search; 2 solutions)', perSec: m / cpuHead, seconds: cpuHead },
        ratio: cpuHead / gpuHead,
        statusAgreement: headCpu.filter((r, i) => r.status === headGpu[i].status).length,
      },
      [
        ['puzzles', String(m)],
        ['GPU s', gpuHead.toFixed(1)],
        ['CPU solver s', cpuHead.toFixed(1)],
        ['GPU/CPU', `${(cpuHead / gpuHead).toFixed(2)}x`],
      ],
    );

    // a slice of 100 from `from`, first solutions, at most 40 s: answered and seconds
    const capMs = Math.min(timeoutMs, 40_000);
    const sliceAt = (from: number) => {
      from = Math.max(0, Math.min(from, puzzles.length - 100));
      return { from, slice: puzzles.slice(from, from + 100) };
    };
    const timed = async (slice: Nonogram[], opts: { lanes?: boolean; search?: Search; maxSolutions?: number; timeoutMs?: number; cdclThreads?: number }) => {
      const t = performance.now();
      const r = await solveNonograms(ctx, slice, { maxSolutions: 1, timeoutMs: capMs, ...opts });
      const answered = r.filter((x) => x.status === 'solved' || x.status === 'multiple');
      return { seconds: (performance.now() - t) / 1000, answered: answered.length, byCdcl: answered.filter((x) => x.search === 'cdcl').length };
    };

    // the lanes kernel beside the rounds solver on the same slice, first solutions, same cap
    if (lanes) {
      const { from, slice } = sliceAt(200);
      const onLanes = await timed(slice, { search: 'probing' });
      const rounds = await timed(slice, { lanes: false });
      report.add(
        {
          case: `taai2011-${from + 1}-${from + slice.length}-lanes-vs-rounds`,
          source: `${all.source}, #${from + 1}-${from + slice.length}`,
          mode,
          maxSolutions: 1,
          timeoutSeconds: capMs / 1000,
          puzzles: slice.length,
          solved: onLanes.answered,
          seconds: onLanes.seconds,
          peer: { name: 'rounds solver (--lanes off), same puzzles and cap', solved: rounds.answered, seconds: rounds.seconds },
          // answered per second, lanes over rounds
          ratio: onLanes.answered / onLanes.seconds / (rounds.answered / rounds.seconds),
        },
        [
          ['puzzles', `#${from + 1}-${from + slice.length}`],
          ['lanes answered / s', `${onLanes.answered} / ${onLanes.seconds.toFixed(1)}`],
          ['rounds answered / s', `${rounds.answered} / ${rounds.seconds.toFixed(1)}`],
          ['lanes/rounds (answered per s)', `${(onLanes.answered / onLanes.seconds / (rounds.answered / rounds.seconds)).toFixed(2)}x`],
        ],
      );
    }

    // the three searches of the lanes kernels on a hard slice, first solutions, same cap
    if (lanes) {
      const { from, slice } = sliceAt(400);
      const runs = { probing: await timed(slice, { search: 'probing' }), cdcl: await timed(slice, { search: 'cdcl' }), race: await timed(slice, { search: 'race' }) };
      const rate = (r: { answered: number; seconds: number }) => r.answered / r.seconds;
      report.add(
        {
          case: `taai2011-${from + 1}-${from + slice.length}-searches`,
          source: `${all.source}, #${from + 1}-${from + slice.length}`,
          mode,
          maxSolutions: 1,
          timeoutSeconds: capMs / 1000,
          puzzles: slice.length,
          solved: runs.probing.answered,
          seconds: runs.probing.seconds,
          searches: runs,
          peer: { name: '--search cdcl and race, same puzzles and cap', cdcl: runs.cdcl, race: runs.race },
          // answered per second, over probing's
          ratio: { cdcl: rate(runs.cdcl) / rate(runs.probing), race: rate(runs.race) / rate(runs.probing) },
        },
        [
          ['puzzles', `#${from + 1}-${from + slice.length}`],
          ...(['probing', 'cdcl', 'race'] as const).map((k): [string, string] => [`${k} answered / s`, `${runs[k].answered} / ${runs[k].seconds.toFixed(1)}${k === 'race' ? ` (${runs.race.byCdcl} by CDCL)` : ''}`]),
          ['cdcl/probing, race/probing (answered per s)', `${(rate(runs.cdcl) / rate(runs.probing)).toFixed(2)}x, ${(rate(runs.race) / rate(runs.probing)).toFixed(2)}x`],
        ],
      );
    }

    // the puzzles whole runs answered last (0-based: TAAI_TAIL), uniqueness: CDCL on a CPU thread beside the GPU
    // (the default where there are threads) against the CDCL kernel, the rest of `auto` alike
    if (lanes && search === 'auto' && all.puzzles.length > Math.max(...TAAI_TAIL)) {
      const tail = TAAI_TAIL.map((i) => all.puzzles[i]);
      const tailMs = Math.min(timeoutMs, 60_000);
      const threads = await timed(tail, { maxSolutions: 2, timeoutMs: tailMs });
      const kernel = await timed(tail, { maxSolutions: 2, timeoutMs: tailMs, cdclThreads: 0 });
      report.add(
        {
          case: 'taai2011-tail-cdcl-threads-vs-kernel',
          source: `${all.source}, 0-based ${TAAI_TAIL.join(', ')}`,
          mode: `${mode}, CDCL on a CPU thread (the default)`,
          maxSolutions: 2,
          timeoutSeconds: tailMs / 1000,
          puzzles: tail.length,
          solved: threads.answered,
          seconds: threads.seconds,
          threads,
          peer: { name: 'the CDCL kernel instead (cdclThreads: 0), same puzzles and cap', ...kernel },
          // answered, threads over kernel (a kernel that answers none: the threads' count)
          ratio: threads.answered / Math.max(1, kernel.answered),
        },
        [
          ['puzzles', `${tail.length} (the whole runs' last)`],
          ['CDCL on a CPU thread: answered / s', `${threads.answered} / ${threads.seconds.toFixed(1)} (${threads.byCdcl} by CDCL)`],
          ['CDCL kernel: answered / s', `${kernel.answered} / ${kernel.seconds.toFixed(1)} (${kernel.byCdcl} by CDCL)`],
        ],
      );
    }

    for (const maxSolutions of [1, 2]) {
      const stats = emptyStats();
      const cpu0 = process.cpuUsage();
      const t = performance.now();
      const results = await solveNonograms(ctx, puzzles, { stats, timeoutMs, maxSolutions, lanes, search, secondSearch });
      const seconds = (performance.now() - t) / 1000;
      const cpuUse = process.cpuUsage(cpu0);
      const tl = tally(puzzles, results, expected);
      const open = results.filter((r) => r.status === 'unsolved').length;
      const probes = results.reduce((s, r) => s + r.probes, 0);
      // answers by the anchors' times (each result's ms counts from the batch's start)
      const answeredBy = (sec: number) => results.filter((r) => r.status !== 'unsolved' && r.ms <= sec * 1000).length;
      // answered by the second search a hard puzzle gets (the other branch score, lane.ts DEFAULT_SCORES)
      const bySecondSearch = results.filter((r) => r.status !== 'unsolved' && r.branchScore === DEFAULT_SCORES[1]).length;
      const byCdclThread = results.filter((r) => r.status !== 'unsolved' && r.cpuThread).length;
      const byCdclKernel = results.filter((r) => r.status !== 'unsolved' && r.search === 'cdcl' && !r.cpuThread).length;
      if (maxSolutions === 2 && puzzles.length === all.puzzles.length) taai = { puzzles, results, expected, seconds };
      const hardest = results
        .map((r, i) => ({ puzzle: i + 1, status: r.status, ms: Math.round(r.ms), probes: r.probes, branches: r.branches }))
        .sort((x, y) => y.ms - x.ms || y.probes - x.probes)
        .slice(0, 5);
      const name = maxSolutions === 1 ? 'taai2011-first' : 'taai2011-unique';
      report.add(
        {
          case: name,
          source: `${all.source}${puzzles.length < all.puzzles.length ? `, first ${puzzles.length}` : ''}`,
          mode,
          maxSolutions,
          timeoutSeconds: timeoutMs / 1000,
          cells: puzzles.reduce((s, p) => s + p.width * p.height, 0),
          grids: stats.grids,
          copies: stats.copies,
          puzzles: puzzles.length,
          solved: tl.unique + tl.unproven + tl.multiple,
          unique: tl.unique,
          unproven: tl.unproven,
          multiple: tl.multiple,
          unsolved: open,
          answeredBy82s: answeredBy(82),
          answeredBy140s: answeredBy(140),
          bySecondSearch,
          byCdclThread,
          byCdclKernel,
          byLevel: { line: tl.line, probe: tl.probe, search: tl.search },
          givenFound: tl.givenFound,
          // probes of each puzzle's answering search (an open one's: its first search's): what the answers cost
          probes,
          probesPerSec: probes / seconds,
          // the kernels' whole work: every search's probes (also of searches a sibling's answer ended), CDCL conflicts
          kernelWork: stats.work,
          kernelProbesPerSec: (stats.work?.probes ?? 0) / seconds,
          branches: results.reduce((s, r) => s + r.branches, 0),
          seconds,
          processCpuSeconds: (cpuUse.user + cpuUse.system) / 1e6,
          puzzlesPerSec: (tl.unique + tl.unproven + tl.multiple) / seconds,
          dispatches: stats.dispatches,
          readbacks: stats.readbacks,
          gpuSeconds: stats.gpuMs / 1000,
          readSeconds: stats.readMs / 1000,
          hostSeconds: stats.hostMs / 1000,
          hardest,
          compileSeconds,
          loadAverage: loadavg()[0],
          anchors: { nonosolve: '82-140 s per 1,000 (2x Xeon)', LalaFrogKK: '463-4,245 s' },
        },
        [
          ['puzzles', String(puzzles.length)],
          ['seconds', seconds.toFixed(1)],
          ['solved', String(tl.unique + tl.unproven + tl.multiple)],
          ['open', String(open)],
          ['by 82 s / 140 s', `${answeredBy(82)}/${answeredBy(140)}`],
          ['by the second search', String(bySecondSearch)],
          ['by CDCL on a CPU thread / the kernel', `${byCdclThread} / ${byCdclKernel}`],
          ['unique', String(tl.unique)],
          ['not proven unique', String(tl.unproven)],
          ['multiple', String(tl.multiple)],
          ['line/probe/search', `${tl.line}/${tl.probe}/${tl.search}`],
          ['given found', `${tl.givenFound}/${tl.given}`],
          // the lanes kernel's rounds are dispatches of whole searches; copies and host time are the rounds solver's
          ...((lanes
            ? [
                ['probes of the answers', `${probes} (${Math.round(probes / seconds / 1000)}k/s)`],
                ['kernel probes / conflicts', `${stats.work?.probes ?? 0} (${Math.round((stats.work?.probes ?? 0) / seconds / 1000)}k/s) / ${stats.work?.conflicts ?? 0}`],
                ['rounds', String(stats.dispatches)],
              ]
            : [
                ['copies', String(stats.copies)],
                ['rounds', String(stats.dispatches)],
                ['gpu/read/host s', `${(stats.gpuMs / 1000).toFixed(1)}/${(stats.readMs / 1000).toFixed(1)}/${(stats.hostMs / 1000).toFixed(1)}`],
              ]) as [string, string][]),
          ['load', loadavg()[0].toFixed(1)],
        ],
      );
    }
  }

  // --- STPPC 20x20 puzzles/s
  {
    const f = `${DATA}sgt/pattern_20x20.tsv`;
    const { puzzles, source } = load([f], 'sgt/pattern_20x20.tsv', () => random(20, 20, 100, 0.6));
    // a call takes ~20 ms here, and one call's time swung the ratio from 1.7x to 3.1x between runs: each side runs
    // STPPC_REPEATS times, alternating, and the median counts
    let stats = emptyStats();
    let results: NonogramResult[] = [];
    const gpuTimes: number[] = [];
    const cpuTimes: number[] = [];
    for (let k = 0; k < STPPC_REPEATS; k++) {
      stats = emptyStats();
      const t = performance.now();
      results = await solveNonograms(ctx, puzzles, { stats, lanes });
      gpuTimes.push((performance.now() - t) / 1000);
      const cpuT = performance.now();
      for (const p of puzzles) solveCpu(p);
      cpuTimes.push((performance.now() - cpuT) / 1000);
    }
    const seconds = median(gpuTimes);
    const cpuSeconds = median(cpuTimes);
    const tl = tally(puzzles, results, puzzles.map(() => undefined));
    report.add(
      {
        case: 'stppc-20x20',
        source,
        mode,
        cells: puzzles.reduce((s, p) => s + p.width * p.height, 0),
        puzzles: puzzles.length,
        solved: tl.unique + tl.unproven + tl.multiple,
        generations: results.reduce((s, r) => s + r.generations, 0),
        seconds,
        puzzlesPerSec: puzzles.length / seconds,
        repeats: STPPC_REPEATS,
        dispatches: stats.dispatches,
        readbacks: stats.readbacks,
        compileSeconds,
        peer: { name: 'CPU solver (TypeScript: exact line DP, probing, search; 2 solutions)', perSec: puzzles.length / cpuSeconds },
        ratio: cpuSeconds / seconds,
      },
      [
        ['puzzles', String(puzzles.length)],
        // answered, as the JSON's `solved` (with ../shared these are all unique; generated ones may have two)
        ['answered', `${tl.unique + tl.unproven + tl.multiple}${tl.multiple ? ` (${tl.multiple} multiple)` : ''}`],
        ['puzzles/s', `${(puzzles.length / seconds).toFixed(1)} (median of ${STPPC_REPEATS})`],
        ['CPU puzzles/s', (puzzles.length / cpuSeconds).toFixed(1)],
        ['GPU/CPU', `${(cpuSeconds / seconds).toFixed(2)}x`],
      ],
    );
  }

  // --- the line automaton's generations
  {
    const sizes = [5, 10, 15, 20, 25];
    const rows: [string, string][] = [];
    const c: Record<string, unknown> = { case: 'automaton', mode: 'line logic alone' };
    for (const n of sizes) {
      const f = `${DATA}sgt/pattern_${n}x${n}.tsv`;
      const { puzzles } = load([f], f, () => random(n, n, 20, 0.6));
      const res = await solveNonograms(ctx, puzzles, { method: 'line' });
      const solved = res.filter((r) => r.status === 'solved');
      const gens = solved.map((r) => r.generations);
      const settles = puzzles.map((p) => lineSolve(p).settles);
      c[`${n}x${n}`] = {
        puzzles: puzzles.length,
        solved: solved.length,
        meanGenerations: gens.reduce((a, b) => a + b, 0) / Math.max(1, gens.length),
        maxGenerations: Math.max(0, ...gens),
        meanSettles: settles.reduce((a, b) => a + b, 0) / puzzles.length,
      };
      rows.push([`${n}x${n}`, `${solved.length}/${puzzles.length} solved, generations mean ${(c[`${n}x${n}`] as { meanGenerations: number }).meanGenerations.toFixed(1)} max ${Math.max(0, ...gens)}`]);
    }
    c.thesis = '4,489 generations for one 10x10 (thesis 4.2)';
    c.rlPaper = 'optimal line order: 7.6 line steps on its 5x5s (003, Figure 6); a generation here settles every line at once';
    report.add(c as { case: string }, rows);
  }

  // --- every collection
  if (extra.includes('collections') && existsSync(DATA)) {
    const sets: [string, string[], Record<string, string>][] = [
      ['mikix', walk(`${DATA}mikix-nonogram-db/db`).filter((f) => f.endsWith('.non')).sort(), {}],
      ['jwilk', walk(`${DATA}jwilk-nonogram/data`).filter((f) => f.endsWith('.nin')).sort(), {}],
      ['stppc', walk(`${DATA}sgt`).filter((f) => f.endsWith('.tsv')).sort(), {}],
      ['taai2011', [`${DATA}tournament/question/taai2011.txt`], { solutions: `${DATA}tournament/solution/taai2011.txt` }],
    ];
    for (const [name, files, opt] of sets) {
      const { puzzles, expected } = name === 'taai2011' && taai ? taai : load(files, name, () => [], opt);
      const t = performance.now();
      const results = name === 'taai2011' && taai ? taai.results : await solveNonograms(ctx, puzzles, { timeoutMs, lanes });
      const seconds = name === 'taai2011' && taai ? taai.seconds : (performance.now() - t) / 1000;
      const tl = tally(puzzles, results, expected);
      const all = puzzles.length;
      report.add(
        { case: `collection-${name}`, puzzles: all, seconds, ...tl },
        [
          ['puzzles', String(all)],
          ['line', pct(tl.line, all)],
          ['probing', pct(tl.probe, all)],
          ['search', pct(tl.search, all)],
          ['unique', String(tl.unique)],
          ['not proven unique', String(tl.unproven)],
          ['multiple', String(tl.multiple)],
          ['open', String(tl.unsolved)],
          ['no solution', String(tl.none)],
          ['verified', String(tl.verified)],
          ['given found', `${tl.givenFound}/${tl.given}`],
          ['s', seconds.toFixed(1)],
        ],
      );
    }
  }
  report.save();
}
