// Frames per second of the viewer while panning a large grid, in Debian's chromium with WebGPU on SwiftShader
// (the same set-up as test/browser.test.ts), or on chromium's real GPU when `--adapter` asks for one (auto: when the
// command line's own context found one). `cellsolve bench web-fps [--sample FILE] [--seconds S]`, or
// `npx tsx bench/web-fps.ts`. Cases: panning while paused, panning while the automaton runs, and, side by side in
// the same run, the page's bare animation-frame rate (nothing drawn) that bounds both.
import { readdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import type { Page } from 'puppeteer';
import type { GpuContext } from '../src/gpu/context.ts';
import { haveChromium, openViewer, screenshot, settleFrames } from '../test/browser-harness.ts';
import type { BenchArgs } from './_report.ts';
import type { OptionSpec } from '../src/puzzles/types.ts';
import { UsageError } from '../src/cli/args.ts';

/** the largest bundled grid, drawn 1:1 and zoomed out */
const DEFAULT_SAMPLE = 'maze-perfect4k.png';

interface FrameCount {
  frames: number;
  seconds: number;
  fps: number;
  /** generations the automaton ran meanwhile */
  generations: number;
}

/** Pans by a few pixels every animation frame for `seconds`; counts the frames the viewer drew. */
async function panFor(page: Page, seconds: number, draw: boolean): Promise<FrameCount> {
  return page.evaluate(
    async (s: number, d: boolean) => {
      const v = window.cellsolveViewer!;
      const f0 = v.frames;
      const g0 = v.snapshot()?.generation ?? 0;
      let rafs = 0;
      const t0 = performance.now();
      let dir = 1;
      while (performance.now() - t0 < s * 1000) {
        await new Promise((r) => requestAnimationFrame(r));
        rafs++;
        if (d) {
          // back and forth by at most 150 x 90 device pixels, so the grid stays on screen at any zoom
          if (rafs % 30 === 0) dir = -dir;
          v.view.pan(5 * dir, 3 * dir);
          v.moved();
        }
      }
      const seconds = (performance.now() - t0) / 1000;
      const frames = d ? v.frames - f0 : rafs;
      return { frames, seconds, fps: frames / seconds, generations: (v.snapshot()?.generation ?? 0) - g0 };
    },
    seconds,
    draw,
  );
}

/** the options this benchmark takes beside --json and --quick (`cellsolve bench` rejects others) */
export const options: OptionSpec[] = [
  { name: 'sample', value: 'NAME', help: 'the grid panned: a file of samples/web (default maze-perfect4k.png), or life-random:N for an NxN Life soup' },
  { name: 'seconds', value: 'S', number: { above: 0 }, help: 'seconds per case (default 8; 3 with --quick)' },
];

export async function bench(ctx: GpuContext | null, args: BenchArgs): Promise<void> {
  if (!haveChromium) throw new Error('bench web-fps needs /usr/bin/chromium');
  // chromium picks its own adapter: SwiftShader by our flags, or a real GPU when asked for one, or (auto) when this
  // process's own context found one
  const choice = String(args.options.adapter ?? 'auto');
  const adapter = choice === 'gpu' || (choice === 'auto' && ctx !== null && !ctx.adapter.fallback) ? 'gpu' : 'swiftshader';
  const seconds = Number(args.options.seconds ?? (args.quick ? 3 : 8));
  const sample = String(args.options.sample ?? DEFAULT_SAMPLE);
  // a bad name is the user's mistake, found before the site is built and a browser started
  const samples = readdirSync(new URL('../samples/web/', import.meta.url));
  if (!/^life-random:\d+$/.test(sample) && !samples.includes(sample)) {
    throw new UsageError(`--sample ${sample}: not a bundled sample (${samples.join(', ')}) nor life-random:N`);
  }
  const v = await openViewer(1280, 800, adapter);
  try {
    const { page } = v;
    if (sample.startsWith('life-random:')) {
      // a random Life soup of the given size (no file needed): --sample life-random:4001
      await page.select('#kind', 'life');
      await page.$eval('#random-size', (e, size) => ((e as HTMLInputElement).value = size), sample.split(':')[1]);
      await page.click('#random');
      await page.waitForFunction(() => document.getElementById('status')!.textContent === 'ready', { timeout: 60_000 });
    } else await page.evaluate((f: string) => window.cellsolveViewer!.loadSample(f), sample);
    const error = await page.$eval('#error', (e) => ((e as HTMLElement).hidden ? '' : e.textContent));
    if (error) throw new Error(`loading ${sample}: ${error}`);
    const title = await page.$eval('#title', (e) => e.textContent ?? '');
    const pageAdapter = await page.$eval('#adapter', (e) => e.textContent ?? '');
    if (adapter === 'gpu' && /swiftshader|fallback/i.test(pageAdapter)) throw new Error(`--adapter gpu: chromium found no real GPU (it took ${pageAdapter})`);
    // the grid's size, as the title gives it: "maze: maze-perfect4k.png (4097x4097)"
    const [gridWidth, gridHeight] = (/\((\d+)x(\d+)\)/.exec(title) ?? [0, 0, 0]).slice(1).map(Number);
    await settleFrames(page);
    const shotName = `web-fps-${sample.replace(/[^a-z0-9]+/gi, '-').replace(/-png$|-txt$|-rle$/, '')}`;
    await screenshot(page, `${shotName}-fitted`);
    const canvas = await page.$eval('#grid', (c) => `${(c as HTMLCanvasElement).width}x${(c as HTMLCanvasElement).height}`);
    const rows: [string, FrameCount, Record<string, unknown>][] = [];
    const bare = await panFor(page, seconds, false);
    rows.push(['raf-only', bare, {}]);
    // fitted: the whole grid on screen, several cells per pixel
    const fitted = await panFor(page, seconds, true);
    rows.push(['pan-fitted', fitted, { pixelsPerCell: await page.evaluate(() => window.cellsolveViewer!.view.pixelsPerCell) }]);
    await page.evaluate(() => {
      window.cellsolveViewer!.fit();
      const view = window.cellsolveViewer!.view;
      view.zoomAt(view.canvasWidth / 2, view.canvasHeight / 2, 4 / view.pixelsPerCell);
    });
    rows.push(['pan-zoom4', await panFor(page, seconds, true), { pixelsPerCell: 4 }]);
    await settleFrames(page);
    await screenshot(page, `${shotName}-zoom4`);
    // while the automaton runs (fitted again): drawing shares SwiftShader's CPU with the compute chunks (while the
    // view moves, the run waits as long as its last chunk took before the next). Panning starts once the first
    // chunk is back, so the case times a run, not the compiling of its pipeline.
    await page.evaluate(() => window.cellsolveViewer!.fit());
    await page.select('#speed', '16');
    await page.click('#play');
    await page.waitForFunction(() => (window.cellsolveViewer!.snapshot()?.generation ?? 0) > 0, { timeout: 60_000 });
    const running = await panFor(page, seconds, true);
    const status = await page.$eval('#status', (e) => e.textContent);
    rows.push(['pan-while-running', running, { status }]);
    await settleFrames(page);
    await screenshot(page, `${shotName}-running`);
    await page.evaluate(() => window.cellsolveViewer!.redraw());

    // SwiftShader draws on the CPU: other processes' load moves these numbers a lot, so it is printed with them
    const load = loadavg().map((x) => x.toFixed(1)).join(' ');
    process.stdout.write(`# bench web-fps: ${title}, canvas ${canvas} device pixels, chromium WebGPU on ${pageAdapter}, ${cpus().length} cores, load average ${load}\n`);
    for (const [name, c, extra] of rows) {
      const ratio = bare.fps > 0 ? c.fps / bare.fps : 0;
      process.stdout.write(`${name.padEnd(20)} fps ${c.fps.toFixed(1).padStart(6)}  frames ${String(c.frames).padStart(5)}  seconds ${c.seconds.toFixed(1)}  of raf rate ${(ratio * 100).toFixed(0)}%\n`);
      if (args.json) {
        process.stdout.write(
          JSON.stringify({
            bench: 'web-fps',
            case: name,
            adapter: `chromium: ${pageAdapter}`,
            // CLI.md's fields: the frames are what is measured; the automaton's generations run only while it plays
            mode: name === 'pan-while-running' ? 'multi-gen' : 'draw',
            cells: gridWidth * gridHeight,
            grids: 1,
            generations: c.generations,
            seconds: c.seconds,
            generationsPerSec: c.generations / c.seconds,
            cellUpdatesPerSec: (c.generations * gridWidth * gridHeight) / c.seconds,
            sample,
            canvas,
            loadAverage: loadavg()[0],
            frames: c.frames,
            fps: c.fps,
            ...extra,
            peer: { name: 'bare requestAnimationFrame', perSec: bare.fps },
            ratio,
          }) + '\n',
        );
      }
    }
    if (v.errors.length) process.stdout.write(`# page errors:\n${v.errors.join('\n')}\n`);
  } finally {
    await v.close();
  }
}

// run directly: npx tsx bench/web-fps.ts [--sample FILE] [--seconds S] [--json] [--quick]
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\/bench\//, '/bench/'))) {
  const options: Record<string, string | boolean> = {};
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) continue;
    const next = argv[i + 1];
    options[a.slice(2)] = next && !next.startsWith('--') ? (i++, next) : true;
  }
  bench(null, { json: Boolean(options.json), quick: Boolean(options.quick), options }).then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
