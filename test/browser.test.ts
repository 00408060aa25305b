// The viewer end to end in a real browser: Debian chromium, WebGPU on SwiftShader, the built site served on
// localhost. Loads a sample of every kind the viewer knows, runs it to its end, checks the status text and canvas
// pixels, saves screenshots under test-output/ and fails on any console error.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBinary } from '../src/puzzles/binary/codec.ts';
import { caRun, METHODS_ALL } from '../src/puzzles/binary/reference.ts';
import { parseMazes } from '../src/puzzles/maze/codec.ts';
import { bfsPath } from '../src/puzzles/maze/reference.ts';
import puppeteer from 'puppeteer';
import { CHROMIUM, haveChromium, openFile, openViewer, screenshot, settleFrames, waitForStatus, type ViewerPage } from './browser-harness.ts';
import { skipGpu } from './gpu.ts';
import { tempDir } from './cli.helpers.ts';
import { randomPicture } from './nonogram.helpers.ts';

describe.skipIf(skipGpu || !haveChromium)('web viewer in chromium (WebGPU on SwiftShader)', () => {
  let v: ViewerPage;

  beforeAll(async () => {
    v = await openViewer();
  }, 90_000);

  afterAll(async () => {
    await v?.close();
  });

  it('runs Life: step, play, reset, and draws live cells', async () => {
    const { page } = v;
    await page.evaluate(() => window.cellsolveViewer!.loadSample('life-gosper-gun.rle'));
    await waitForStatus(page, ['ready']);
    await page.click('#step');
    await page.waitForFunction(() => document.getElementById('generation')!.textContent === '1', { timeout: 20_000 });
    await page.click('#play');
    await page.waitForFunction(() => Number(document.getElementById('generation')!.textContent) >= 60, { timeout: 30_000 });
    await page.click('#play'); // pause
    await waitForStatus(page, ['paused']);
    const gens = Number(await page.$eval('#generation', (e) => e.textContent));
    expect(gens).toBeGreaterThanOrEqual(60);
    expect(Number(await page.$eval('#gens-per-sec', (e) => e.textContent))).toBeGreaterThan(0);
    // the gun's left block (pattern cells (0,4),(1,4),(0,5),(1,5)) never changes: it must be drawn alive
    const field = await page.evaluate(() => window.cellsolveViewer!.snapshot());
    expect(field).not.toBeNull();
    await page.evaluate(() => {
      const view = window.cellsolveViewer!.view;
      view.pixelsPerCell = 8;
      view.centerX = 128;
      view.centerY = 128;
    });
    await settleFrames(page);
    // the 36x9 gun sits centred in a 256x256 field: its origin is at (110, 123)
    const [bx, by] = await page.evaluate(() => window.cellsolveViewer!.cellToClient(110, 127));
    const [ex, ey] = await page.evaluate(() => window.cellsolveViewer!.cellToClient(112, 127));
    const shot = await screenshot(page, 'viewer-life-gun');
    const alive = shot.pixel(bx, by);
    const dead = shot.pixel(ex, ey);
    expect(alive[1], `alive cell pixel ${alive}`).toBeGreaterThan(150);
    expect(dead[1], `dead cell pixel ${dead}`).toBeLessThan(60);
    await page.click('#reset');
    await page.waitForFunction(() => document.getElementById('generation')!.textContent === '0', { timeout: 20_000 });
    expect(v.errors).toEqual([]);
  });

  it('solves the 101x101 maze by dead-end filling and draws the path', async () => {
    const { page } = v;
    // the page reads and verifies mazes through the command line's registered kind
    expect(await page.evaluate(() => window.cellsolveViewer!.registered)).toContain('maze');
    const maze = parseMazes(readFileSync(new URL('../samples/web/maze-101.png', import.meta.url)), 'maze-101.png')[0].maze!;
    const path = bfsPath(maze)!;
    await page.evaluate(() => window.cellsolveViewer!.loadSample('maze-101.png'));
    await waitForStatus(page, ['ready']);
    // generation 0 is drawn before anything runs: open cells white
    await settleFrames(page);
    const mid = path[Math.floor(path.length / 2)];
    const midXY = await page.evaluate((x: number, y: number) => window.cellsolveViewer!.cellToClient(x, y), mid % maze.width, Math.floor(mid / maze.width));
    const start = (await screenshot(page, 'viewer-maze-101-start')).pixel(...midXY);
    expect(Math.min(...start), `open cell at generation 0: ${start}`).toBeGreaterThan(200);
    // part-way: dead ends filling (a frame of the animation)
    await page.select('#speed', '16');
    await page.click('#play');
    await page.waitForFunction(() => Number(document.getElementById('generation')!.textContent) >= 100, { timeout: 30_000 });
    await page.click('#play');
    await waitForStatus(page, ['paused']);
    await settleFrames(page);
    await screenshot(page, 'viewer-maze-101-running');
    await page.select('#speed', '0');
    await page.click('#play');
    expect(await waitForStatus(page, [])).toBe('solved');
    expect(await page.$eval('#detail', (e) => e.textContent)).toContain(`path of ${path.length} cells`);
    await settleFrames(page);
    const onPath = path[Math.floor(path.length / 2)];
    const onPathXY = await page.evaluate((x: number, y: number) => window.cellsolveViewer!.cellToClient(x, y), onPath % maze.width, Math.floor(onPath / maze.width));
    // an open cell off the path: filled as a dead end (fake path)
    const inPath = new Set(path);
    let fake = -1;
    for (let i = 0; i < maze.open.length && fake < 0; i++) if (maze.open[i] && !inPath.has(i)) fake = i;
    const fakeXY = await page.evaluate((x: number, y: number) => window.cellsolveViewer!.cellToClient(x, y), fake % maze.width, Math.floor(fake / maze.width));
    const shot = await screenshot(page, 'viewer-maze-101-solved');
    const pathPixel = shot.pixel(...onPathXY);
    const fakePixel = shot.pixel(...fakeXY);
    // palette (shaders/render/maze.wgsl): path orange (1.0, 0.45, 0.1), fake path slate blue (0.25, 0.32, 0.45)
    expect(pathPixel[0], `path pixel ${pathPixel}`).toBeGreaterThan(200);
    expect(pathPixel[2], `path pixel ${pathPixel}`).toBeLessThan(80);
    expect(fakePixel[2], `fake pixel ${fakePixel}`).toBeGreaterThan(fakePixel[0]);
    expect(v.errors).toEqual([]);
  });

  for (const method of ['deadend-chains', 'wavefront', 'walker']) {
    it(`solves the 101x101 maze with --method ${method} and draws the path`, async () => {
      const { page } = v;
      const maze = parseMazes(readFileSync(new URL('../samples/web/maze-101.png', import.meta.url)), 'maze-101.png')[0].maze!;
      const path = bfsPath(maze)!;
      await page.select('#kind', 'maze');
      await page.select('#method', method);
      await page.evaluate(() => window.cellsolveViewer!.loadSample('maze-101.png'));
      await waitForStatus(page, ['ready']);
      await page.select('#speed', '0');
      await page.click('#play');
      expect(await waitForStatus(page, [])).toBe('solved');
      expect(await page.$eval('#detail', (e) => e.textContent)).toContain(`path of ${path.length} cells`);
      await settleFrames(page);
      const cell = path[Math.floor(path.length / 3)];
      const xy = await page.evaluate((x: number, y: number) => window.cellsolveViewer!.cellToClient(x, y), cell % maze.width, Math.floor(cell / maze.width));
      const pixel = (await screenshot(page, `viewer-maze-101-${method}`)).pixel(...xy);
      expect(pixel[0], `path pixel ${pixel}`).toBeGreaterThan(200);
      expect(pixel[2], `path pixel ${pixel}`).toBeLessThan(80);
      expect(v.errors).toEqual([]);
    });
  }

  it('solves a 9x9 sudoku with the elimination automaton and draws the deduced digits', async () => {
    const { page } = v;
    const text = readFileSync(new URL('../samples/web/sudoku-9x9-basic.txt', import.meta.url), 'utf8');
    const grid = text.split('\n').find((l) => /^[.0-9]{81}$/.test(l.trim()))!.trim();
    await page.evaluate(() => window.cellsolveViewer!.loadSample('sudoku-9x9-basic.txt'));
    await waitForStatus(page, ['ready']);
    await page.select('#speed', '1');
    await page.click('#play');
    expect(await waitForStatus(page, [])).toBe('solved');
    expect(await page.$eval('#detail', (e) => e.textContent)).toContain('checked by the verifier');
    await settleFrames(page);
    const shot = await screenshot(page, 'viewer-sudoku-9x9-solved');
    // every blank cell now shows a deduced digit: blue strokes (0.35, 0.7, 1.0) inside the cell
    const blanks = [...grid].map((c, i) => (c === '.' || c === '0' ? i : -1)).filter((i) => i >= 0);
    for (const cell of [blanks[0], blanks[blanks.length - 1]]) {
      const [x0, y0] = await page.evaluate((x: number, y: number) => window.cellsolveViewer!.cellToClient(x, y), (cell % 9) - 0.5, Math.floor(cell / 9) - 0.5);
      const [x1, y1] = await page.evaluate((x: number, y: number) => window.cellsolveViewer!.cellToClient(x, y), (cell % 9) + 0.5, Math.floor(cell / 9) + 0.5);
      let blue = 0;
      for (let y = y0 + 2; y < y1 - 2; y += 2) {
        for (let x = x0 + 2; x < x1 - 2; x += 2) {
          const [r, g, b] = shot.pixel(x, y);
          if (b > 200 && g > 120 && r < 140) blue++;
        }
      }
      expect(blue, `deduced digit pixels in cell ${cell}`).toBeGreaterThan(5);
    }
    expect(v.errors).toEqual([]);
  });

  it('finishes a sudoku the automaton cannot with the command line\'s full search, and draws it', async () => {
    const { page } = v;
    await page.select('#kind', 'sudoku');
    await page.select('#method', 'ca');
    await page.evaluate(() => window.cellsolveViewer!.loadSample('sudoku-9x9-extreme.txt'));
    await waitForStatus(page, ['ready']);
    await page.select('#speed', '0');
    await page.click('#play');
    expect(await waitForStatus(page, [])).toBe('solved');
    const detail = await page.$eval('#detail', (e) => e.textContent ?? '');
    expect(detail).toMatch(/automaton stalls with \d+ undecided cells/);
    expect(detail).toContain('--method full finished it');
    await settleFrames(page);
    await screenshot(page, 'viewer-sudoku-9x9-extreme-search');
    expect(v.errors).toEqual([]);
  });

  it('solves a 15x15 nonogram by line logic and draws filled cells and clues', async () => {
    const { page } = v;
    const id = readFileSync(new URL('../samples/web/nonogram-15x15.txt', import.meta.url), 'utf8').split('\n').find((l) => /^\d+x\d+:/.test(l))!;
    // the expected picture, from STPPC's own solution column for this game id
    const tsv = new URL('../../shared/data/nonogram/sgt/pattern_15x15.tsv', import.meta.url);
    await page.evaluate(() => window.cellsolveViewer!.loadSample('nonogram-15x15.txt'));
    await waitForStatus(page, ['ready']);
    await page.select('#speed', '1');
    await page.click('#play');
    expect(await waitForStatus(page, [])).toBe('solved');
    expect(await page.$eval('#detail', (e) => e.textContent)).toContain('checked by the verifier');
    await settleFrames(page);
    // the plot counts the cells the grid shows unknown: none on a solved grid (its count shader read the planes
    // one word early and ended at 4)
    await page.waitForFunction(() => window.cellsolveViewer!.snapshot()?.counter === 0, { timeout: 10_000 });
    const shot = await screenshot(page, 'viewer-nonogram-15x15-solved');
    let solution: string | null = null;
    if (existsSync(tsv)) solution = readFileSync(tsv, 'utf8').split('\n').find((l) => l.startsWith(id.trim() + '\t'))?.split('\t')[5] ?? null;
    if (solution) {
      for (const i of [solution.indexOf('1'), solution.indexOf('0'), solution.lastIndexOf('1')]) {
        const xy = await page.evaluate((x: number, y: number) => window.cellsolveViewer!.cellToClient(x, y), (i % 15) + 0.25, Math.floor(i / 15) + 0.25);
        const [r, g, b] = shot.pixel(...xy);
        // palette (shaders/render/nonogram.wgsl): filled ink (0.08, 0.09, 0.12), empty paper (0.93, 0.93, 0.9)
        if (solution[i] === '1') expect(r + g + b, `filled cell ${i}: ${[r, g, b]}`).toBeLessThan(120);
        else expect(r + g + b, `empty cell ${i}: ${[r, g, b]}`).toBeGreaterThan(600);
      }
    }
    expect(v.errors).toEqual([]);
  });

  it('a file of many puzzles offers each of them (only the first could be seen)', async () => {
    const { page } = v;
    await page.select('#kind', 'auto');
    const dir = tempDir('viewer-');
    const file = join(dir, 'three.txt');
    writeFileSync(file, '3x3:3/3/3/3/3/3\n3x3:1/1/1/1/1/1\n3x3:/3//1/1/1\n');
    await (await page.$('input#file'))!.uploadFile(file);
    await page.waitForFunction(() => /three\.txt \(1 of 3\)/.test(document.getElementById('title')!.textContent ?? ''), { timeout: 20_000 });
    expect(await page.$eval('#pick-label', (e) => getComputedStyle(e).display)).not.toBe('none');
    await page.$eval('#pick', (e) => {
      (e as HTMLInputElement).value = '3';
      e.dispatchEvent(new Event('change'));
    });
    await page.waitForFunction(() => /three\.txt \(3 of 3\)/.test(document.getElementById('title')!.textContent ?? ''), { timeout: 20_000 });
    expect(await waitForStatus(page, ['ready'])).toBe('ready');
    expect(v.errors).toEqual([]);
  });

  it('the generations or rounds reported do not depend on the speed (binary thesis said 59 to -116, sudoku rounds 10 to 265)', async () => {
    const { page } = v;
    for (const [kind, method, sample] of [['binary', 'thesis', 'binary-10x10-probing.txt'], ['sudoku', 'rounds', 'sudoku-9x9-basic.txt']]) {
      const counts: string[] = [];
      for (const speed of ['1', '256']) {
        await page.select('#kind', kind);
        await page.select('#method', method);
        await page.evaluate((f: string) => window.cellsolveViewer!.loadSample(f), sample);
        await waitForStatus(page, ['ready']);
        await page.select('#speed', speed);
        await page.click('#play');
        await waitForStatus(page, [], 90_000);
        counts.push(await page.$eval('#generation', (e) => e.textContent ?? ''));
      }
      expect(counts[0], `${kind} ${method}`).toBe(counts[1]);
      expect(Number(counts[0]), `${kind} ${method}`).toBeGreaterThan(0);
    }
    expect(v.errors).toEqual([]);
  });

  it('a method picked after loading applies at once (the menu changed while the old method ran on)', async () => {
    const { page } = v;
    await page.evaluate(() => window.cellsolveViewer!.loadSample('maze-101.png'));
    await page.waitForFunction(() => /^maze: maze-101\.png/.test(document.getElementById('title')!.textContent ?? ''), { timeout: 20_000 });
    expect(await page.$eval('#title', (e) => e.textContent)).not.toContain('wavefront');
    await page.select('#method', 'wavefront');
    await page.waitForFunction(() => (document.getElementById('title')!.textContent ?? '').includes('wavefront'), { timeout: 20_000 });
    expect(await waitForStatus(page, ['ready'])).toBe('ready');
    expect(v.errors).toEqual([]);
  });

  it('solves nonograms at the fastest speed with multi-generation dispatch (it failed with "Invalid array length")', async () => {
    const { page } = v;
    await page.evaluate(() => window.cellsolveViewer!.loadSample('nonogram-15x15.txt'));
    await waitForStatus(page, ['ready']);
    // one puzzle in the input: no puzzle picker
    expect(await page.$eval('#pick-label', (e) => getComputedStyle(e).display)).toBe('none');
    if (!(await page.$eval('#multi-gen', (e) => (e as HTMLInputElement).checked))) await page.click('#multi-gen');
    await page.select('#speed', '0');
    await page.click('#play');
    expect(await waitForStatus(page, [])).toBe('solved');
    expect(v.errors).toEqual([]);
  });

  it('a stalled nonogram finished by search shows `multiple` when it has two solutions; Reset stops a long search', async () => {
    const { page } = v;
    await openFile(page, fileURLToPath(new URL('../samples/nonogram/two-ways.json', import.meta.url)), /^nonogram: two-ways\.json/);
    await page.click('#play');
    expect(await waitForStatus(page, [])).toBe('multiple');
    expect(await page.$eval('#detail', (e) => e.textContent)).toContain('found two solutions');
    // a random 60x60 picture: line logic settles nothing, and the search would run for minutes
    const dir = tempDir('viewer-');
    const hard = randomPicture(60, 60, 7, 50);
    writeFileSync(join(dir, 'hard60.json'), JSON.stringify({ rows: hard.rows, columns: hard.columns }));
    await openFile(page, join(dir, 'hard60.json'), /^nonogram: hard60\.json/);
    await page.click('#play');
    await page.waitForFunction(() => document.getElementById('status')!.textContent === 'searching', { timeout: 30_000 });
    const t0 = Date.now();
    await page.click('#reset');
    expect(await waitForStatus(page, ['ready'], 20_000)).toBe('ready');
    expect(Date.now() - t0, 'Reset ends the search within a few rounds').toBeLessThan(15_000);
    expect(v.errors).toEqual([]);
  });

  const taai = new URL('../../shared/data/nonogram/tournament/question/taai2011.txt', import.meta.url);
  it.runIf(existsSync(taai))('a hard nonogram in the page goes to CDCL on Web Workers beside the GPU, as on the command line (TAAI #483: probing had not answered it in 597 s); Reset ends their search', async () => {
    const { page } = v;
    // the tournament file's puzzle $483 alone: its header and 50 clue lines
    const lines = readFileSync(taai, 'utf8').split(/\r?\n/);
    const dir = tempDir('viewer-');
    const open = async (k: number) => {
      const at = lines.findIndex((l) => l.trim() === `$${k}`);
      writeFileSync(join(dir, `taai${k}.txt`), `${lines.slice(at, at + 51).join('\n')}\n`);
      await openFile(page, join(dir, `taai${k}.txt`), new RegExp(`^nonogram: taai${k}\\.txt`));
      await page.click('#play');
    };
    await open(483);
    // without the workers (the kernel's CDCL joins a page's search after 1,000 rounds) it took ~25 s here, and the
    // detail named no thread; with them 3-4 s
    expect(await waitForStatus(page, [], 60_000)).toMatch(/^(solved|multiple)$/);
    expect(await page.$eval('#detail', (e) => e.textContent)).toContain('(CDCL on a CPU thread beside the GPU)');
    // $510 (#509 counted from 0) takes the workers seconds: Reset ends their search too
    await open(510);
    await page.waitForFunction(() => document.getElementById('status')!.textContent === 'searching', { timeout: 30_000 });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // (the workers join a second into the search on SwiftShader; #509 takes them ~5 s)
    expect(await page.$eval('#status', (e) => e.textContent)).toBe('searching');
    const t0 = Date.now();
    await page.click('#reset');
    expect(await waitForStatus(page, ['ready'], 20_000)).toBe('ready');
    expect(Date.now() - t0, 'Reset ends the search within a few rounds').toBeLessThan(15_000);
    expect(v.errors).toEqual([]);
  });

  it('auto-detect opens a webpbn XML nonogram and line logic solves it', async () => {
    const { page } = v;
    const dir = tempDir('viewer-');
    // a 3x3 plus sign in webpbn.com's export format
    const line = (n: number[]) => `<line>${n.map((x) => `<count>${x}</count>`).join('')}</line>`;
    const xml = `<?xml version="1.0"?>\n<puzzleset>\n<puzzle type="grid" defaultcolor="black">\n<title>Plus</title>\n<clues type="columns">${line([1])}${line([3])}${line([1])}</clues>\n<clues type="rows">${line([1])}${line([3])}${line([1])}</clues>\n</puzzle>\n</puzzleset>\n`;
    writeFileSync(join(dir, 'plus.xml'), xml);
    await openFile(page, join(dir, 'plus.xml'), /^nonogram: plus\.xml: Plus/);
    await page.click('#play');
    expect(await waitForStatus(page, [])).toBe('solved');
    expect(v.errors).toEqual([]);
  });

  it('a nonogram contradiction names its broken lines and draws their clues in red until Reset', async () => {
    const { page } = v;
    await openFile(page, fileURLToPath(new URL('../samples/nonogram/no-solution.nin', import.meta.url)), /^nonogram: no-solution\.nin/);
    // red clue ink on the overlay (BROKEN_INK, #ff6b6b), counted in its pixels
    const redPixels = () =>
      page.$eval('#overlay', (c) => {
        // read from a copy: reading the page's overlay itself again and again makes Chromium warn
        const overlay = c as HTMLCanvasElement;
        const copy = Object.assign(document.createElement('canvas'), { width: overlay.width, height: overlay.height });
        const g = copy.getContext('2d', { willReadFrequently: true })!;
        g.drawImage(overlay, 0, 0);
        const d = g.getImageData(0, 0, copy.width, copy.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) if (d[i] > 200 && d[i + 1] < 140 && d[i + 2] < 140 && d[i + 3] > 100) n++;
        return n;
      });
    await settleFrames(page);
    expect(await redPixels(), 'no red before the run').toBe(0);
    await page.click('#play');
    expect(await waitForStatus(page, [])).toBe('contradiction');
    // the first row is full, yet the second column is empty: one of the two cannot be placed
    expect(await page.$eval('#detail', (e) => e.textContent)).toMatch(/no solution \((row|column) \d.*: no placement of the clue fits; in red\)/);
    await settleFrames(page);
    expect(await redPixels(), 'the broken lines\' clues in red').toBeGreaterThan(5);
    await screenshot(page, 'viewer-nonogram-contradiction');
    await page.click('#reset');
    await waitForStatus(page, ['ready']);
    await settleFrames(page);
    expect(await redPixels(), 'Reset clears the marks').toBe(0);
    expect(v.errors).toEqual([]);
  });

  for (const method of ['ca', 'thesis']) {
    it(`solves a 10x10 binary puzzle with --method ${method} and draws 0s and 1s`, async () => {
      const { page } = v;
      const sample = readFileSync(new URL('../samples/web/binary-10x10.txt', import.meta.url));
      const puzzle = parseBinary(sample, 'binary-10x10.txt')[0].puzzle!;
      const expected = caRun(puzzle, METHODS_ALL, puzzle.distinct);
      expect(expected.status).toBe('done');
      await page.select('#kind', 'binary');
      await page.select('#method', method);
      await page.evaluate(() => window.cellsolveViewer!.loadSample('binary-10x10.txt'));
      await waitForStatus(page, ['ready']);
      await page.select('#speed', '0');
      await page.click('#play');
      expect(await waitForStatus(page, [], 90_000)).toBe('solved');
      expect(await page.$eval('#detail', (e) => e.textContent)).toContain('checked by the verifier');
      await settleFrames(page);
      const shot = await screenshot(page, `viewer-binary-10x10-${method}`);
      for (const i of [expected.cells.indexOf(0), expected.cells.indexOf(1), expected.cells.lastIndexOf(0), expected.cells.lastIndexOf(1)]) {
        // near the cell's corner: paper, not the digit (palette in shaders/render/binary.wgsl: 0 light, 1 blue)
        const xy = await page.evaluate((x: number, y: number) => window.cellsolveViewer!.cellToClient(x, y), (i % 10) - 0.35, Math.floor(i / 10) - 0.35);
        const [r, , b] = shot.pixel(...xy);
        if (expected.cells[i] === 0) expect(r, `cell ${i} should be 0: ${shot.pixel(...xy)}`).toBeGreaterThan(180);
        else expect(b - r, `cell ${i} should be 1: ${shot.pixel(...xy)}`).toBeGreaterThan(60);
      }
      expect(v.errors).toEqual([]);
    });
  }

  it('the automaton keeps running while the view pans every frame (it stood still: each chunk was held until the view rested)', async () => {
    const { page } = v;
    await page.evaluate(() => window.cellsolveViewer!.loadSample('life-gosper-gun.rle'));
    await waitForStatus(page, ['ready']);
    await page.select('#speed', '1');
    await page.click('#play');
    await page.waitForFunction(() => (window.cellsolveViewer!.snapshot()?.generation ?? 0) > 0, { timeout: 30_000 });
    const { generations, frames } = await page.evaluate(async () => {
      const viewer = window.cellsolveViewer!;
      const g0 = viewer.snapshot()!.generation;
      const f0 = viewer.frames;
      const t0 = performance.now();
      for (let i = 0; performance.now() - t0 < 2000; i++) {
        await new Promise((r) => requestAnimationFrame(r));
        viewer.view.pan(i % 60 < 30 ? 2 : -2, 0);
        viewer.moved();
      }
      return { generations: viewer.snapshot()!.generation - g0, frames: viewer.frames - f0 };
    });
    // one generation per chunk, a frame at least between chunks: a few per second at the very least on SwiftShader
    expect(generations, `${generations} generations in ${frames} frames`).toBeGreaterThanOrEqual(3);
    expect(generations).toBeLessThanOrEqual(frames + 1);
    await page.click('#play'); // pause
    await waitForStatus(page, ['paused']);
    await page.select('#speed', '16');
    expect(v.errors).toEqual([]);
  });

  it('pans with a mouse drag and zooms with the wheel about the pointer', async () => {
    const { page } = v;
    await page.evaluate(() => window.cellsolveViewer!.loadSample('maze-101.png'));
    await waitForStatus(page, ['ready']);
    const box = (await page.$('#grid'))!.boundingBox();
    const { x, y, width, height } = (await box)!;
    const cx = x + width / 2;
    const cy = y + height / 2;
    const before = await page.evaluate(() => ({ ...window.cellsolveViewer!.view }));
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    await page.mouse.move(cx + 60, cy + 30, { steps: 4 });
    await page.mouse.up();
    const panned = await page.evaluate(() => ({ ...window.cellsolveViewer!.view }));
    const dpr = await page.evaluate(() => window.devicePixelRatio);
    expect(panned.centerX).toBeCloseTo(before.centerX - (60 * dpr) / before.pixelsPerCell, 3);
    expect(panned.centerY).toBeCloseTo(before.centerY - (30 * dpr) / before.pixelsPerCell, 3);
    // the cell under the pointer stays under it while zooming in
    const [px, py] = [cx - 100, cy - 50];
    await page.mouse.move(px, py);
    const under = await page.evaluate((a: number, b: number) => [...window.cellsolveViewer!.view.pixelToCell(a, b)], (px - x) * dpr, (py - y) * dpr);
    await page.mouse.wheel({ deltaY: -300 });
    await page.waitForFunction((p: number) => window.cellsolveViewer!.view.pixelsPerCell > p * 1.5, { timeout: 5000 }, panned.pixelsPerCell);
    const after = await page.evaluate((a: number, b: number) => [...window.cellsolveViewer!.view.pixelToCell(a, b)], (px - x) * dpr, (py - y) * dpr);
    expect(after[0]).toBeCloseTo(under[0], 3);
    expect(after[1]).toBeCloseTo(under[1], 3);
    await settleFrames(page);
    await screenshot(page, 'viewer-maze-101-zoomed');
    expect(v.errors).toEqual([]);
  });

  it('zooms with a two-finger pinch on a touch screen', async () => {
    const page = await v.browser.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push((e as Error).message));
    try {
      await page.setViewport({ width: 1200, height: 800, hasTouch: true });
      await page.goto(v.url, { waitUntil: 'load' });
      await page.waitForFunction(() => window.cellsolveViewer?.ready, { timeout: 30_000 });
      await page.evaluate(() => window.cellsolveViewer!.loadSample('maze-101.png'));
      await waitForStatus(page, ['ready']);
      const before = await page.evaluate(() => window.cellsolveViewer!.view.pixelsPerCell);
      // fingers 200 px apart move to 300 px apart: 1.5 times the zoom
      const a = await page.touchscreen.touchStart(500, 400);
      const b = await page.touchscreen.touchStart(700, 400);
      for (let i = 1; i <= 5; i++) await b.move(700 + i * 20, 400);
      await b.end();
      await a.end();
      const after = await page.evaluate(() => window.cellsolveViewer!.view.pixelsPerCell);
      expect(after / before).toBeCloseTo(1.5, 2);
    } finally {
      await page.close();
    }
    expect(errors).toEqual([]);
  });

  it('says plainly when the browser has no WebGPU, and how to enable it', async () => {
    // the same page in chromium without the WebGPU flags: no adapter
    const browser = await puppeteer.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--headless=new', '--disable-features=WebGPU'] });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push((e as Error).message));
      await page.goto(v.url, { waitUntil: 'load' });
      await page.waitForFunction(() => window.cellsolveViewer !== undefined, { timeout: 30_000 });
      expect(await page.evaluate(() => window.cellsolveViewer!.ready)).toBe(false);
      const text = await page.$eval('#no-webgpu', (e) => ((e as HTMLElement).hidden ? '' : (e as HTMLElement).innerText));
      expect(text).toMatch(/needs WebGPU/i);
      expect(text).toMatch(/enable-unsafe-webgpu/);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('loads from the file picker, pasted text and a dropped file, detecting the kind', async () => {
    const { page } = v;
    await page.select('#kind', 'auto');
    const input = (await page.$('input#file'))!;
    await input.uploadFile(fileURLToPath(new URL('../samples/web/nonogram-25x25.txt', import.meta.url)));
    await page.waitForFunction(() => /^nonogram: nonogram-25x25\.txt/.test(document.getElementById('title')!.textContent ?? ''), { timeout: 20_000 });
    await page.select('#kind', 'auto');
    await page.$eval('#paste', (e) => ((e as HTMLTextAreaElement).value = '..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n'));
    await page.click('#load-paste');
    await page.waitForFunction(() => /^sudoku: pasted/.test(document.getElementById('title')!.textContent ?? ''), { timeout: 20_000 });
    expect(await waitForStatus(page, ['ready'])).toBe('ready');
    // a file dropped on the grid
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.items.add(new File(['x = 3, y = 3\nbo$2bo$3o!\n'], 'glider.rle'));
      document.getElementById('stage')!.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    await page.waitForFunction(() => /^life: glider\.rle/.test(document.getElementById('title')!.textContent ?? ''), { timeout: 20_000 });
    expect(v.errors).toEqual([]);
  });

  it('reports a maze with no path and a sudoku with no solution', async () => {
    const { page } = v;
    const paste = async (kind: string, text: string) => {
      await page.select('#kind', kind);
      await page.$eval('#paste', (e, t) => ((e as HTMLTextAreaElement).value = t as string), text);
      await page.click('#load-paste');
      await waitForStatus(page, ['ready']);
      await page.select('#speed', '0');
      await page.click('#play');
      return waitForStatus(page, []);
    };
    // start and end in two walled-off parts
    expect(await paste('maze', ['#S###', '# # #', '### #', '#   #', '###E#', ''].join('\n'))).toBe('no path');
    // two 5s in the first row: the automaton empties a cell, and the full search confirms there is no solution
    expect(await paste('sudoku', '55..2.16...34......8..6.9..8..2..5.....8.3.....2..4..9..9.4..5......12...35.8...6\n')).toBe('contradiction');
    await settleFrames(page);
    await screenshot(page, 'viewer-sudoku-contradiction');
    expect(v.errors).toEqual([]);
  });

  it('shows a clear error for a bad pattern, naming line and column', async () => {
    const { page } = v;
    await page.select('#kind', 'life');
    await page.$eval('#paste', (e) => ((e as HTMLTextAreaElement).value = 'x = 3, y = 3\nb2o$2q$bo!\n'));
    await page.click('#load-paste');
    await page.waitForFunction(() => !document.getElementById('error')!.hidden, { timeout: 10_000 });
    expect(await page.$eval('#error', (e) => e.textContent)).toMatch(/pasted:2:6/);
    expect(v.errors).toEqual([]);
  });
});
