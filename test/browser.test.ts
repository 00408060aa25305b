// The viewer end to end in a real browser: Debian chromium, WebGPU on SwiftShader, the built site served on
// localhost. Loads a sample of every kind the viewer knows, runs it to its end, checks the status text and canvas
// pixels, saves screenshots under test-output/ and fails on any console error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, openViewer, screenshot, settleFrames, waitForStatus, type ViewerPage } from './browser-harness.ts';
import { skipGpu } from './gpu.ts';

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
