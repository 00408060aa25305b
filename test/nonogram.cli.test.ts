// `cellsolve solve nonogram` and `cellsolve gen nonogram` end to end, on the samples in samples/nonogram.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNonograms, readPngPicture, solutionPng } from '../src/puzzles/nonogram/codec.ts';
import { solveCpu } from '../src/puzzles/nonogram/reference.ts';
import { skipGpu } from './gpu.ts';
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
