// `cellsolve solve nonogram` and `cellsolve gen nonogram` end to end, on the samples in samples/nonogram.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNonograms, readPngPicture, solutionPng } from '../src/puzzles/nonogram/codec.ts';
import { solveCpu } from '../src/puzzles/nonogram/reference.ts';
import { skipGpu } from './gpu.ts';
import { pictureJson } from './nonogram.helpers.ts';
import { runCli, tempDir } from './cli.helpers.ts';

const cli = (args: string[], input?: string) => runCli(args, input, 300_000);
const S = 'samples/nonogram/';

const taai = '../shared/data/nonogram/tournament/question/taai2011.txt';

describe('cellsolve gen/solve nonogram', () => {
  it.runIf(!skipGpu && existsSync(taai))('a long run streams its answers in order; Ctrl-C stops it after the rounds in flight and prints every puzzle (exit 1)', async () => {
    const child = spawn('node', ['bin/cellsolve.js', 'solve', 'nonogram', '--json', taai]);
    let stdout = '';
    let stderr = '';
    let streamed = '';
    const interrupt = () => {
      if (child.killed) return;
      streamed = stdout;
      child.kill('SIGINT');
    };
    child.stdout.on('data', (d) => {
      stdout += d;
      // the first answers are out while the run goes on: interrupt it a second later
      setTimeout(interrupt, 1000);
    });
    child.stderr.on('data', (d) => {
      stderr += d;
      // without streamed answers, interrupt anyway after a while (and fail below)
      if (/pipelines ready/.test(stderr)) setTimeout(interrupt, 60_000);
    });
    const code = await new Promise<number | null>((done) => child.on('exit', done));
    expect(streamed.length, 'answers printed before the interrupt').toBeGreaterThan(0);
    expect(JSON.parse(streamed.split('\n')[0]).index).toBe(0);
    expect(code, stderr).toBe(1);
    expect(stderr).toContain('interrupted: stopping after the work in flight');
    const recs = stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(recs.length).toBe(1000);
    expect(recs.filter((r) => r.status === 'multiple').length).toBeGreaterThan(0);
    expect(recs.filter((r) => r.status === 'unsolved' && r.reason === 'interrupted').length).toBeGreaterThan(100);
  }, 120_000);


  it.skipIf(skipGpu)('Ctrl-C while the pipelines compile prints every puzzle interrupted (exit 1) at once; it killed the process with no output', async () => {
    // --search race compiles the lanes and CDCL kernels: 2.6-10 s on SwiftShader here (the whole run ~3 s on a quiet
    // machine), the signal comes 1.2 s in (node and tsx load in ~0.5 s)
    const child = spawn('node', ['bin/cellsolve.js', 'solve', 'nonogram', '--json', '--search', 'race', `${S}heart.non`, `${S}two-ways.json`]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    let sentAt = 0;
    let compiledBefore = '';
    const timer = setTimeout(() => {
      compiledBefore = stderr;
      sentAt = Date.now();
      child.kill('SIGINT');
    }, 1200);
    const [code, signal] = await new Promise<[number | null, string | null]>((done) => child.on('exit', (c, s) => done([c, s])));
    clearTimeout(timer);
    expect(sentAt, 'the signal came before the run ended').toBeGreaterThan(0);
    expect(compiledBefore, 'the signal came while compiling').not.toContain('pipelines ready');
    expect([code, signal], stderr).toEqual([1, null]);
    expect(Date.now() - sentAt, 'it does not wait for the compilation').toBeLessThan(2000);
    expect(stdout.trim().split('\n').map((l) => JSON.parse(l)).map((r) => [r.index, r.status, r.reason])).toEqual([[0, 'unsolved', 'interrupted'], [1, 'unsolved', 'interrupted']]);
    expect(stderr).not.toContain('pipelines ready');
  }, 60_000);

  it.skipIf(skipGpu)('--out x.png draws every puzzle with a solution and says which had none; any other --out takes what stdout would show', () => {
    const dir = tempDir('nonogram-');
    const png = join(dir, 'mix.png');
    const inputs = [`${S}heart.non`, `${S}no-solution.nin`, `${S}two-ways.json`];
    const r = cli(['solve', 'nonogram', '--json', '--out', png, ...inputs]);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l).status)).toEqual(['solved', 'contradiction', 'multiple']);
    expect(r.stderr).toContain('no-solution.nin:2: contradiction, no picture to draw');
    expect([png, join(dir, 'mix-1.png'), join(dir, 'mix-2.png')].map(existsSync)).toEqual([true, false, true]);
    const txt = join(dir, 'all.txt');
    const t = cli(['solve', 'nonogram', '--out', txt, ...inputs]);
    expect(t.status).toBe(1);
    expect(t.stdout).toBe('');
    expect(readFileSync(txt, 'utf8')).toBe(cli(['solve', 'nonogram', ...inputs]).stdout);
    // an --out that cannot be written is refused before anything is solved
    const bad = cli(['solve', 'nonogram', '--out', join(dir, 'no', 'such', 'x.txt'), `${S}heart.non`]);
    expect([bad.status, bad.stderr]).toEqual([2, expect.stringContaining('cannot write --out')]);
    expect(bad.stderr).not.toContain('pipelines ready');
  });

  it.skipIf(skipGpu)('--long-lines: puzzles past the lanes kernel (lines over 31 cells) go to the CPU solver on a CPU-emulated adapter, the GPU rounds solver by name', () => {
    const dir = tempDir('nonogram-');
    const file = join(dir, 'wide.jsonl');
    // a 40x36 and a 100x8 with no solution beside the heart (10x10, on the lanes kernel)
    const contradictory = readFileSync('test/fixtures/nonogram-mixed-widths.jsonl', 'utf8').trim().split('\n')[2];
    writeFileSync(file, [pictureJson(40, 36, 7, 70), contradictory].join('\n'));
    const run = (...args: string[]) => {
      const r = cli(['solve', 'nonogram', '--json', ...args, `${S}heart.non`, file]);
      expect(r.status, r.stderr).toBe(1);
      return r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    };
    const notes = (recs: { note?: string }[]) => recs.map((x) => x.note ?? '');
    const onCpu = run('--long-lines', 'cpu');
    expect(notes(onCpu)).toEqual(['', 'on the CPU solver: lines past 31 cells (--long-lines)', 'on the CPU solver: lines past 31 cells (--long-lines)']);
    const onGpu = run('--long-lines', 'gpu');
    expect(notes(onGpu)).toEqual(['', '', '']);
    expect(notes(run('--lanes', 'off')), '--lanes off asks for the rounds solver').toEqual(['', '', '']);
    // ... but an explicit --long-lines cpu wins for the long puzzles (they stayed on the GPU), the heart on the rounds solver
    const both = run('--long-lines', 'cpu', '--lanes', 'off');
    expect(notes(both)).toEqual(notes(onCpu));
    expect(both.map((x) => x.status)).toEqual(onCpu.map((x) => x.status));
    expect(both[0].search, 'the rounds solver names no lanes search').toBeUndefined();
    expect(onCpu[0].search).toBe('probing');
    for (const recs of [onCpu, onGpu]) {
      expect(recs.map((x) => x.status)).toEqual(['solved', recs[1].status, 'contradiction']);
      expect(['solved', 'multiple']).toContain(recs[1].status);
    }
    expect(onCpu[1].status).toBe(onGpu[1].status);
    // auto: the CPU solver where the adapter is CPU-emulated (SwiftShader here), the rounds solver on a real GPU
    const fallback = JSON.parse(cli(['info', '--json']).stdout).fallback as boolean;
    expect(notes(run())).toEqual(notes(fallback ? onCpu : onGpu));
  });

  it('on the CPU paths --timeout is one deadline for the call, not one per puzzle, and Ctrl-C stops at once; --max-solutions 1 says unique: false there too', async () => {
    // three 130x130 random pictures: lines past 127 cells go to the CPU solver, which takes seconds for each
    const dir = tempDir('nonogram-');
    const file = join(dir, 'large.jsonl');
    writeFileSync(file, [1, 2, 3].map((seed) => pictureJson(130, 130, seed, 55)).join('\n'));
    const t0 = Date.now();
    const r = cli(['solve', 'nonogram', '--json', '--timeout', '2', file]);
    const took = Date.now() - t0;
    const recs = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(recs.map((x) => [x.status, x.reason])).toEqual([['unsolved', 'timeout'], ['unsolved', 'timeout'], ['unsolved', 'timeout']]);
    // each used to get two seconds of its own, one after another (6 s and more); now they share the call's two, a
    // worker thread per core, and a puzzle not started by then is not started at all (compile and start-up ~2 s)
    expect(took, 'one 2-s deadline for the three').toBeLessThan(6500);
    expect(recs.every((x) => x.ms <= 2600), JSON.stringify(recs.map((x) => x.ms))).toBe(true);
    expect(recs[0].note).toMatch(/^on the CPU solver: /);
    // Ctrl-C stops the CPU solver at once (its searches run in worker threads), every puzzle still printed
    const child = spawn('node', ['bin/cellsolve.js', 'solve', 'nonogram', '--json', '--method', 'cpu', file]);
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    setTimeout(() => child.kill('SIGINT'), 2500);
    const t1 = Date.now();
    const code = await new Promise<number | null>((done) => child.on('exit', done));
    expect(Date.now() - t1, 'a long CPU search used to hold the process until it ended').toBeLessThan(4000);
    expect(code).toBe(1);
    expect(stdout.trim().split('\n').map((l) => JSON.parse(l).reason)).toEqual(['interrupted', 'interrupted', 'interrupted']);
    const one = cli(['solve', 'nonogram', '--json', '--method', 'cpu', '--max-solutions', '1', `${S}two-ways.json`]);
    expect(JSON.parse(one.stdout)).toMatchObject({ status: 'solved', unique: false });
  });

  it.skipIf(skipGpu)('one interrupt delivered twice within milliseconds (GNU timeout -s INT signals the child and its group) is one Ctrl-C, not the second that quits', async () => {
    // random 31x31 pictures on the lanes kernel, hard ones: the run stops after the rounds in flight, so it is still
    // going when the echo comes
    const dir = tempDir('nonogram-');
    const file = join(dir, 'hard.jsonl');
    writeFileSync(file, Array.from({ length: 40 }, (_, i) => pictureJson(31, 31, 2000 + i, 50)).join('\n'));
    const child = spawn('node', ['bin/cellsolve.js', 'solve', 'nonogram', '--json', '--search', 'probing', file]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      if (!/pipelines ready/.test(d)) return;
      // the echo 40 ms after the first: two signals sent at once may merge into one on the way
      setTimeout(() => {
        child.kill('SIGINT');
        setTimeout(() => child.kill('SIGINT'), 40);
      }, 200);
    });
    const [code, signal] = await new Promise<[number | null, string | null]>((done) => child.on('exit', (c, s) => done([c, s])));
    // it exited 130 with the output cut
    expect([code, signal], stderr).toEqual([1, null]);
    const recs = stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(recs.map((r) => r.index)).toEqual([...Array(40).keys()]);
    expect(recs.some((r) => r.reason === 'interrupted')).toBe(true);
  }, 60_000);

  it('a puzzle on the CPU solver\'s threads keeps its note, level and real ms when Ctrl-C stops it (0 ms only if it never started); its ms is the solve\'s, not the thread\'s start-up', async () => {
    // three 130x130 random pictures: past the GPU's 127 cells, on the CPU solver's two threads, seconds each
    const dir = tempDir('nonogram-');
    const file = join(dir, 'large.jsonl');
    writeFileSync(file, [1, 2, 3].map((seed) => pictureJson(130, 130, seed, 55)).join('\n'));
    const child = spawn('node', ['bin/cellsolve.js', 'solve', 'nonogram', '--json', file]);
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    setTimeout(() => child.kill('SIGINT'), 3500);
    expect(await new Promise<number | null>((done) => child.on('exit', done))).toBe(1);
    const recs = stdout.trim().split('\n').map((l) => JSON.parse(l));
    const cores = availableParallelism();
    expect(recs.map((r) => r.reason)).toEqual(['interrupted', 'interrupted', 'interrupted']);
    for (const r of recs) expect(r.note).toMatch(/^on the CPU solver: lines of 130 cells/);
    // the ones in hand ran for seconds: they said ms 0, without note or level
    for (const r of recs.slice(0, Math.min(cores, 3))) {
      expect(r.ms, JSON.stringify(r)).toBeGreaterThan(200);
      expect(r.probes).toBeGreaterThan(0);
      expect(['probe', 'search']).toContain(r.level);
    }
    if (cores === 2) expect([recs[2].ms, recs[2].probes], 'never started').toEqual([0, 0]);
    // a 1x1 took 300+ ms: the thread's start-up
    const one = cli(['solve', 'nonogram', '--json', '--method', 'cpu', '-'], '{"rows": [[1]], "columns": [[1]]}');
    expect(JSON.parse(one.stdout).ms).toBeLessThan(100);
  });

  it('with --timeout, easy puzzles behind hard ones on the CPU solver\'s threads are reached: each puzzle gets a slice of the time first', () => {
    // two 130x130 random pictures that take far longer than the call's 4 s, then the heart and a 1x1
    const dir = tempDir('nonogram-');
    const file = join(dir, 'hard-first.jsonl');
    const heart = parseNonograms(readFileSync(`${S}heart.non`), 'heart.non')[0].puzzle!;
    writeFileSync(file, [
      ...[1, 2].map((seed) => pictureJson(130, 130, seed, 55)),
      JSON.stringify({ rows: heart.rows, columns: heart.columns }),
      '{"rows": [[1]], "columns": [[1]]}',
    ].join('\n'));
    const t0 = Date.now();
    const r = cli(['solve', 'nonogram', '--json', '--method', 'cpu', '--timeout', '4', file]);
    const took = Date.now() - t0;
    const recs = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    // they were taken in input order: the hard two held both threads to the deadline, the others 'timeout', ms 0
    expect(recs.map((x) => [x.status, x.reason])).toEqual([['unsolved', 'timeout'], ['unsolved', 'timeout'], ['solved', undefined], ['solved', undefined]]);
    expect(took, 'one 4-s deadline for the call').toBeLessThan(8000);
    for (const x of recs.slice(0, 2)) {
      expect(x.ms).toBeGreaterThan(900);
      expect(x.ms).toBeLessThan(4200);
    }
    // a puzzle the slice stopped runs again with what is left: a 45x45 that takes ~2.2 s here, then 19 1x1s, 10 s
    // (a slice of 1 s each); its ms counts both passes
    const again = join(dir, 'again.jsonl');
    writeFileSync(again, [pictureJson(45, 45, 2, 50), ...Array(19).fill('{"rows": [[1]], "columns": [[1]]}')].join('\n'));
    const a = cli(['solve', 'nonogram', '--json', '--method', 'cpu', '--timeout', '10', again]);
    const [first, ...rest] = a.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect([first.status, first.reason, first.level]).toEqual(['multiple', undefined, 'search']);
    expect(first.ms).toBeGreaterThan(1500);
    expect(rest.map((x) => x.status)).toEqual(Array(19).fill('solved'));
  });

  it.skipIf(skipGpu)('--max-generations caps the line automaton in every method and reports how far it got', () => {
    const run = (...args: string[]) => JSON.parse(cli(['solve', 'nonogram', '--json', ...args, `${S}heart.non`]).stdout);
    // the heart needs two generations: the second completes it, so a cap of 2 is no stop
    expect(run('--method', 'line', '--max-generations', '2')).toMatchObject({ status: 'solved', generations: 2 });
    for (const method of ['line', 'full']) {
      const capped = run('--method', method, '--max-generations', '1');
      expect(capped, method).toMatchObject({ status: 'unsolved', reason: 'capped', generations: 1 });
      expect(capped.partial, method).toMatch(/^[01?]{42}$/);
      expect(capped.partial, method).toContain('?');
    }
  });

  it('the .non answers of several puzzles read back puzzle by puzzle (stdout and --out x.non); one puzzle\'s is a plain .non', () => {
    const dir = tempDir('nonogram-');
    const inputs = [`${S}heart.non`, `${S}two-ways.json`, `${S}no-solution.nin`];
    const out = join(dir, 'all.non');
    const r = cli(['solve', 'nonogram', '--method', 'cpu', '--out', out, ...inputs]);
    expect(r.status, r.stderr).toBe(1);
    const back = parseNonograms(readFileSync(out), out);
    // they were joined with nothing between them: one record, "a second 'rows' block"
    expect(back.map((x) => x.error)).toEqual([undefined, undefined, undefined]);
    expect(back.map((x) => [x.puzzle!.width, x.puzzle!.height])).toEqual([[7, 6], [2, 2], [2, 2]]);
    const again = cli(['solve', 'nonogram', '--method', 'cpu', '--json', out]);
    expect(again.stdout.trim().split('\n').map((l) => JSON.parse(l).status)).toEqual(['solved', 'multiple', 'contradiction']);
    // a .nonpack's records on stdout too; a record that could not be read (stderr) leaves no separator in front
    const pack = join(dir, 'pack.nonpack');
    writeFileSync(pack, `width 1\nheight 1\nrows\nx\ncolumns\n1\n====\n${readFileSync(`${S}heart.non`, 'utf8')}====\n${readFileSync(`${S}heart.non`, 'utf8')}`);
    const p = cli(['solve', 'nonogram', '--method', 'cpu', pack]);
    expect(p.status).toBe(2);
    expect(p.stdout.startsWith('title "Heart"')).toBe(true);
    expect(parseNonograms(new TextEncoder().encode(p.stdout), 'p.non').map((x) => x.expected)).toEqual([expect.any(String), expect.any(String)]);
    const one = cli(['solve', 'nonogram', '--method', 'cpu', `${S}heart.non`]);
    expect(one.stdout).not.toContain('====');
  });

  it('--out x.nonpack is written in .non form, which the .nonpack reader takes back', () => {
    const dir = tempDir('nonogram-');
    const out = join(dir, 'all.nonpack');
    const r = cli(['solve', 'nonogram', '--method', 'cpu', '--out', out, `${S}heart.non`, `${S}two-ways.json`]);
    expect(r.status, r.stderr).toBe(1);
    // it was the '#'/'.' grid text, every record of it an error when read back
    const back = parseNonograms(readFileSync(out), out);
    expect(back.map((x) => x.error)).toEqual([undefined, undefined]);
    expect(back[0].expected).toMatch(/^[01]+$/);
  });

  it('unreadable inputs are usage errors naming the file (exit 2), and a folder skips its notes', () => {
    const dir = tempDir('nonogram-');
    const missing = cli(['solve', 'nonogram', '--solutions', join(dir, 'none.txt'), `${S}heart.non`]);
    expect([missing.status, missing.stderr]).toEqual([2, expect.stringContaining(`cannot read --solutions '${join(dir, 'none.txt')}': ENOENT`)]);
    const noPicture = cli(['gen', 'nonogram', '--image', join(dir, 'none.png')]);
    expect([noPicture.status, noPicture.stderr]).toEqual([2, expect.stringContaining(`cannot read '${join(dir, 'none.png')}'`)]);
    writeFileSync(join(dir, 'fake.png'), 'not a picture');
    const fake = cli(['gen', 'nonogram', '--image', join(dir, 'fake.png')]);
    expect([fake.status, fake.stderr]).toEqual([2, expect.stringContaining('fake.png: not a readable PNG')]);
    const data = tempDir('nonogram-');
    writeFileSync(join(data, 'README.md'), '# notes on these puzzles\nwidth 3\n');
    writeFileSync(join(data, 'p.json'), '{"rows": [[1]], "columns": [[1]]}');
    const folder = cli(['solve', 'nonogram', '--method', 'cpu', '--json', data]);
    expect(folder.status, folder.stderr).toBe(0);
    expect(folder.stdout.trim().split('\n').map((l) => JSON.parse(l).file)).toEqual([join(data, 'p.json')]);
  });

  it('gen nonogram --image keeps to --level and refuses the options it would ignore; the tournament format is square', () => {
    const dir = tempDir('nonogram-');
    const png = join(dir, 'diag.png');
    // a picture whose clues need probing (gen's seed 6 at 20x20 says so), drawn as `solve --out` draws it
    const made = cli(['gen', 'nonogram', '--size', '20x20', '--seed', '6', '--format', 'json']);
    expect(made.stderr).toContain('probing needed');
    writeFileSync(png, solutionPng(JSON.parse(made.stdout).goal, 20, 20, 8));
    const line = cli(['gen', 'nonogram', '--image', png, '--level', 'line']);
    expect([line.status, line.stderr]).toEqual([2, expect.stringContaining('its clues need probe, more than --level line; not kept')]);
    expect(cli(['gen', 'nonogram', '--image', png, '--level', 'probe']).status).toBe(0);
    const count = cli(['gen', 'nonogram', '--image', png, '--count', '3', '--seed', '1']);
    expect([count.status, count.stderr]).toEqual([2, expect.stringContaining('--image makes one puzzle from the picture: --count, --seed would be ignored')]);
    const t = cli(['gen', 'nonogram', '--size', '5x3', '--format', 'tournament']);
    expect([t.status, t.stderr]).toEqual([2, expect.stringContaining('the tournament format holds square puzzles only')]);
    const p = cli(['gen', 'nonogram', '--size', '5', '--out', join(dir, 'x.png')]);
    expect([p.status, p.stderr]).toEqual([2, expect.stringContaining('would hold text, not a picture')]);
  });

  it('a solution given with a puzzle (a goal, --solutions) is compared with ours in the JSON; one that does not fit its clues is warned of', () => {
    const heart = readFileSync(`${S}heart.non`, 'utf8');
    const ok = cli(['solve', 'nonogram', '--json', '--method', 'cpu', '-'], heart);
    expect(JSON.parse(ok.stdout).matchesGiven).toBe(true);
    const wrong = heart.replace(/goal "(.)/, (_, c) => `goal "${c === '0' ? '1' : '0'}`);
    const w = cli(['solve', 'nonogram', '--json', '--method', 'cpu', '-'], wrong);
    expect(JSON.parse(w.stdout).matchesGiven).toBe(false);
    expect(w.stderr).toContain('-:1: warning: the solution given with the puzzle does not fit its clues');
  });

  it('a bad clue is a usage error naming line and column (exit 2)', () => {
    const r = cli(['solve', 'nonogram', '--json', '-'], '3 2\n1\n1 x\n1\n1\n0\n');
    expect(r.status).toBe(2);
    const rec = JSON.parse(r.stdout.trim());
    expect(rec.status).toBe('error');
    expect(rec.error).toBe("-:3:3: bad clue token 'x': expected a whole number");
  });

  it('gen nonogram is seeded, keeps only unique puzzles and says what solves them', () => {
    const a = cli(['gen', 'nonogram', '--size', '10x8', '--seed', '3', '--count', '2']);
    const b = cli(['gen', 'nonogram', '--size', '10x8', '--seed', '3', '--count', '2']);
    expect(a.status, a.stderr).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stderr).toMatch(/seed 3: 10x8 uniquely solvable .*(line logic alone suffices|needed)/);
    const recs = parseNonograms(new TextEncoder().encode(a.stdout), 'gen.nonpack');
    expect(recs.length).toBe(2);
    for (const r of recs) {
      expect(r.puzzle!.width).toBe(10);
      const res = solveCpu(r.puzzle!);
      expect(res.status).toBe('solved');
      expect(res.solution).toBe(r.expected);
    }
    const line = cli(['gen', 'nonogram', '--size', '12x12', '--seed', '9', '--level', 'line', '--format', 'gameid']);
    expect(line.status, line.stderr).toBe(0);
    expect(line.stdout).toMatch(/^12x12:/);
    expect(line.stderr).toContain('line logic alone suffices');
    // webpbn XML: one <puzzleset> of both puzzles, each with its goal, read back as the same puzzles
    const xml = cli(['gen', 'nonogram', '--size', '10x8', '--seed', '3', '--count', '2', '--format', 'xml']);
    expect(xml.status, xml.stderr).toBe(0);
    expect(xml.stdout.match(/<puzzleset>/g)?.length).toBe(1);
    const back = parseNonograms(new TextEncoder().encode(xml.stdout), 'gen.xml');
    expect(back.map((r) => [r.error, r.expected])).toEqual(recs.map((r) => [undefined, r.expected]));
  });

  it('gen nonogram on a large size repairs a picture with a second solution instead of drawing another', () => {
    // 44x44 seed 3 drew 63 pictures (8.5 s) before; random 60x60 pictures are almost never unique as drawn
    const big = cli(['gen', 'nonogram', '--size', '44x44', '--seed', '3', '--format', 'json']);
    expect(big.status, big.stderr).toBe(0);
    expect(big.stderr).toMatch(/seed 3: 44x44 uniquely solvable after 1 picture and \d+ cells? flipped/);
    const rec = parseNonograms(new TextEncoder().encode(big.stdout), 'gen.json')[0];
    const res = solveCpu(rec.puzzle!);
    expect(res.status).toBe('solved');
    expect(res.solution).toBe(rec.expected);
  });

  it('gen nonogram past 30x30 draws denser pictures by default, so a 100x100 comes at once (it was refused at 0.55)', () => {
    // at 0.55 line logic settles nothing of a random 100x100 and the CPU check gave up after two 30-s tries
    const big = cli(['gen', 'nonogram', '--size', '100x100', '--seed', '1', '--format', 'json']);
    expect(big.status, big.stderr).toBe(0);
    expect(big.stderr).toContain('density 0.65 (denser for large sizes');
    const rec = parseNonograms(new TextEncoder().encode(big.stdout), 'gen.json')[0];
    expect(rec.puzzle!.width).toBe(100);
    const res = solveCpu(rec.puzzle!);
    expect(res.status).toBe('solved');
    expect(res.solution).toBe(rec.expected);
    const filled = [...rec.expected!].filter((c) => c === '1').length / 10_000;
    expect(filled).toBeGreaterThan(0.6);
    // an explicit density is kept, and small sizes keep 0.55 without a note
    expect(cli(['gen', 'nonogram', '--size', '20x20', '--seed', '1']).stderr).not.toContain('density');
    expect(cli(['gen', 'nonogram', '--size', '40x40', '--seed', '1', '--density', '0.55']).stderr).not.toContain('density');
  });

  it('gen nonogram --image: a picture scaled up reads back one cell per block, --size resamples it', () => {
    const made = cli(['gen', 'nonogram', '--size', '12x9', '--seed', '5']);
    expect(made.status, made.stderr).toBe(0);
    const [record] = parseNonograms(new TextEncoder().encode(made.stdout), 'made.non');
    const dir = tempDir('nonogram-');
    const png = join(dir, 'made.png');
    // the way `solve nonogram --out x.png` draws it: 512 / 12 = 42 pixels a cell
    writeFileSync(png, solutionPng(record.expected!, 12, 9, 42));
    const back = cli(['gen', 'nonogram', '--image', png, '--format', 'json']);
    expect(back.status, back.stderr).toBe(0);
    expect(back.stderr).toContain('504x378 pixels, 12x9 cells (one cell per 42x42 block), uniquely solvable');
    const json = JSON.parse(back.stdout);
    expect([json.rows, json.columns, json.goal]).toEqual([record.puzzle!.rows, record.puzzle!.columns, record.expected]);
    const resampled = cli(['gen', 'nonogram', '--image', png, '--size', '12x9', '--format', 'json']);
    expect(resampled.stderr).toContain('12x9 cells (resampled)');
    expect(JSON.parse(resampled.stdout).goal).toBe(record.expected);
  });

  it.skipIf(skipGpu)('solves the samples: .non out with goal, JSON lines with probes and branches, multiple and no solution exit 1, PNG out', () => {
    const heart = cli(['solve', 'nonogram', `${S}heart.non`]);
    expect(heart.status, heart.stderr).toBe(0);
    expect(heart.stdout).toContain('goal "011011011111111111111011111000111000001000"');
    const json = cli(['solve', 'nonogram', '--json', `${S}heart.non`, `${S}stppc-pattern-10x10.tsv`, `${S}stppc-pattern-25x25.txt`]);
    expect(json.status, json.stderr).toBe(0);
    const lines = json.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.length).toBe(1 + 3 + 5);
    for (const l of lines) {
      expect(l.status).toBe('solved');
      expect(l.method).toBe('full');
      expect(l.level).toBe('line');
      expect(l.probes).toBe(0);
      expect(l.branches).toBe(0);
      expect(l.generations).toBeGreaterThan(0);
    }
    expect(lines.map((l) => l.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(lines[1].line).toBe(2);
    const two = cli(['solve', 'nonogram', '--json', `${S}two-ways.json`]);
    expect(two.status).toBe(1);
    const t = JSON.parse(two.stdout);
    expect(t.status).toBe('multiple');
    // the probing search answered, with the first branch score (a puzzle this small never gets a second search)
    expect([t.search, t.branchScore]).toEqual(['probing', 'weaker']);
    expect([t.solution, t.solution2].sort()).toEqual(['0110', '1001']);
    // --max-solutions 1 (tournament rules): the first solution, not proven unique
    const first = cli(['solve', 'nonogram', '--json', '--max-solutions', '1', `${S}two-ways.json`]);
    expect(first.status, first.stderr).toBe(0);
    const f = JSON.parse(first.stdout);
    expect(f.status).toBe('solved');
    expect(['0110', '1001']).toContain(f.solution);
    expect(f.unique).toBe(false);
    expect(cli(['solve', 'nonogram', '--max-solutions', '3', `${S}two-ways.json`]).status).toBe(2);
    // --search cdcl: learned clauses; the answer names its search and counts conflicts
    const cdcl = cli(['solve', 'nonogram', '--json', '--search', 'cdcl', `${S}two-ways.json`, `${S}no-solution.nin`]);
    expect(cdcl.status, cdcl.stderr).toBe(1);
    const [c1, c2] = cdcl.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect([c1.status, c1.search, c1.level, [c1.solution, c1.solution2].sort()]).toEqual(['multiple', 'cdcl', 'search', ['0110', '1001']]);
    expect(c1.decisions).toBeGreaterThan(0);
    expect(typeof c1.conflicts).toBe('number');
    // which of the searches answered (cdcl.ts CDCL_SEARCHES)
    expect([c1.decayShift, c1.filledFirst, c1.rootProbing, c1.targetPhases]).toEqual([4, false, true, true]);
    expect(c2.status).toBe('contradiction');
    const badSearch = cli(['solve', 'nonogram', '--search', 'dfs', `${S}two-ways.json`]);
    expect(badSearch.status).toBe(2);
    expect(badSearch.stderr).toContain('--search takes auto, probing, cdcl, race');
    const none = cli(['solve', 'nonogram', '--json', `${S}no-solution.nin`]);
    expect(none.status).toBe(1);
    expect(JSON.parse(none.stdout).status).toBe('contradiction');
    const line = cli(['solve', 'nonogram', '--method', 'line', `${S}two-ways.json`]);
    expect(line.status).toBe(1);
    expect(line.stdout).toContain('unsolved (stalled)');
    expect(line.stdout).toContain('??\n??');
    const dir = tempDir('nonogram-');
    const out = join(dir, 'heart.png');
    const png = cli(['solve', 'nonogram', '--out', out, `${S}heart.non`]);
    expect(png.status, png.stderr).toBe(0);
    const pic = readPngPicture(readFileSync(out));
    expect(pic.width % 7).toBe(0);
    // the PNG reads back one cell per block: the heart's own clues
    const [back] = parseNonograms(readFileSync(out), out);
    const [heartRecord] = parseNonograms(readFileSync(`${S}heart.non`), 'heart.non');
    expect([back.puzzle!.rows, back.puzzle!.columns]).toEqual([heartRecord.puzzle!.rows, heartRecord.puzzle!.columns]);
  });
});
