// Builds the viewer, serves it on 127.0.0.1 and opens it in Debian's chromium with WebGPU on SwiftShader. Used by
// test/browser.test.ts and bench/web-fps.ts. The ANGLE/Vulkan/SwiftShader flags matter: without them WebGPU still
// computes but the canvas comes out blank in screenshots.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import puppeteer, { type Browser, type Page } from 'puppeteer';
import { build, preview, type PreviewServer } from 'vite';

export const CHROMIUM = '/usr/bin/chromium';
export const root = fileURLToPath(new URL('..', import.meta.url));
export const outputDir = `${root}test-output`;

/** the flags that put WebGPU, and the canvas, on SwiftShader; without them chromium takes a real GPU if it has one */
const swiftshaderArgs = ['--use-webgpu-adapter=swiftshader', '--use-angle=vulkan', '--use-vulkan=swiftshader', '--enable-unsafe-swiftshader'];

export const chromiumArgs = [
  '--no-sandbox',
  '--headless=new',
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  ...swiftshaderArgs,
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  // frames must keep coming while the page is "hidden" in headless mode
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
];

export const haveChromium = existsSync(CHROMIUM);

export interface ViewerPage {
  browser: Browser;
  page: Page;
  server: PreviewServer;
  url: string;
  /** console errors and warnings, and uncaught page errors seen so far */
  errors: string[];
  close(): Promise<void>;
}

/**
 * vite build into a folder of its own under test-output (removed by `close`), then vite's preview server on a random
 * localhost port. Its own folder: two viewers at once (the browser tests beside `bench web-fps`'s test, test files
 * run in parallel) each emptied a shared site/ under the other's server, whose page then never loaded.
 */
export async function buildAndServe(): Promise<{ server: PreviewServer; url: string; close(): Promise<void> }> {
  mkdirSync(outputDir, { recursive: true });
  const outDir = mkdtempSync(`${outputDir}/site-`);
  try {
    await build({ root, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
    const server = await preview({ root, logLevel: 'warn', build: { outDir }, preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false } });
    const url = server.resolvedUrls?.local[0];
    if (!url) throw new Error('vite preview gave no local URL');
    const close = async () => {
      await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
      rmSync(outDir, { recursive: true, force: true });
    };
    return { server, url, close };
  } catch (e) {
    rmSync(outDir, { recursive: true, force: true });
    throw e;
  }
}

/** The viewer in chromium, on SwiftShader unless `adapter` is 'gpu' (chromium's own choice of a real GPU). */
export async function openViewer(width = 1200, height = 800, adapter: 'swiftshader' | 'gpu' = 'swiftshader'): Promise<ViewerPage> {
  const { server, url, close: closeServer } = await buildAndServe();
  const args = adapter === 'gpu' ? chromiumArgs.filter((a) => !swiftshaderArgs.includes(a)) : chromiumArgs;
  let browser: Browser | undefined;
  try {
    browser = await puppeteer.launch({ executablePath: CHROMIUM, args, defaultViewport: { width, height } });
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (m) => {
      // a warning is a fault too: e.g. the kind registry failing to load in the browser only warns
      if (m.type() === 'error' || m.type() === 'warn') errors.push(`console.${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`page error: ${(e as Error).message}`));
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => window.cellsolveViewer !== undefined, { timeout: 30_000 });
    const ready = await page.evaluate(() => window.cellsolveViewer!.ready);
    if (!ready) throw new Error(`the viewer found no WebGPU: ${await page.$eval('#no-webgpu', (e) => e.textContent)}`);
    const opened = browser;
    return {
      browser: opened,
      page,
      server,
      url,
      errors,
      close: async () => {
        await opened.close();
        await closeServer();
      },
    };
  } catch (e) {
    // a viewer that did not open leaves no browser, server or site folder behind
    await browser?.close();
    await closeServer();
    throw e;
  }
}

/** Waits until the status text is one of `want` (or anything but running/ready/paused when want is empty). */
/** Opens a file through the page's file picker (kind auto-detected); waits until its title shows and it is ready. */
export async function openFile(page: Page, path: string, title: RegExp): Promise<void> {
  await page.select('#kind', 'auto');
  await (await page.$('input#file'))!.uploadFile(path);
  await page.waitForFunction((re: string) => new RegExp(re).test(document.getElementById('title')!.textContent ?? ''), { timeout: 20_000 }, title.source);
  await waitForStatus(page, ['ready']);
}

export async function waitForStatus(page: Page, want: string[], timeoutMs = 60_000): Promise<string> {
  await page.waitForFunction(
    (w: string[]) => {
      if (!document.getElementById('error')!.hidden) return true; // a load or shader error: fail at once
      const s = document.getElementById('status')!.textContent ?? '';
      return w.length ? w.includes(s) : !['running', 'ready', 'paused', 'searching', 'no puzzle'].includes(s);
    },
    { timeout: timeoutMs, polling: 100 },
    want,
  );
  const error = await page.$eval('#error', (e) => ((e as HTMLElement).hidden ? '' : e.textContent));
  if (error) throw new Error(`the page shows an error: ${error}`);
  return page.$eval('#status', (e) => e.textContent ?? '');
}

/** Screenshot of the page (saved under test-output/) decoded, to read canvas pixels at CSS coordinates. */
export async function screenshot(page: Page, name: string): Promise<{ path: string; pixel(x: number, y: number): [number, number, number] }> {
  mkdirSync(outputDir, { recursive: true });
  const path = `${outputDir}/${name}.png`;
  const bytes = await page.screenshot({ path, type: 'png' });
  const png = PNG.sync.read(Buffer.from(bytes));
  const scale = png.width / (page.viewport()?.width ?? png.width);
  return {
    path,
    pixel(x, y) {
      const i = (Math.round(y * scale) * png.width + Math.round(x * scale)) * 4;
      return [png.data[i], png.data[i + 1], png.data[i + 2]];
    },
  };
}

/** Draws a few frames so what is on screen matches the state (a screenshot right after a status change). */
export async function settleFrames(page: Page, frames = 3): Promise<void> {
  for (let i = 0; i < frames; i++) {
    const start = await page.evaluate(() => {
      window.cellsolveViewer!.redraw();
      return window.cellsolveViewer!.frames;
    });
    await page.waitForFunction((s: number) => window.cellsolveViewer!.frames > s, { timeout: 20_000, polling: 20 }, start);
  }
}
