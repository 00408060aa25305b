// The viewer page: load a puzzle or pattern, run it in the engine, draw the engine's state buffer every frame.
import './node-shims.ts';
import { GpuError, type GpuContext } from '../gpu/context.ts';
import { createBrowserContext } from '../gpu/browser.ts';
import { loadRegistry, registeredKindNames, type LoadedPuzzle, type ViewerKind } from './kind-api.ts';
import { findViewerKind, loadAuto, viewerKinds } from './kinds.ts';
import { CounterPlot } from './plot.ts';
import { GridRenderer, type KindPipelines } from './renderer.ts';
import { Session } from './session.ts';
import { ViewTransform } from './view.ts';

/** frames within this many ms of a view change draw at interactive quality */
const MOVING_MS = 150;

const sampleUrls = import.meta.glob('../../samples/web/*', { query: '?url', import: 'default', eager: true }) as Record<string, string>;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const ui = {
  adapter: $('adapter'),
  kind: $<HTMLSelectElement>('kind'),
  method: $<HTMLSelectElement>('method'),
  sample: $<HTMLSelectElement>('sample'),
  file: $<HTMLInputElement>('file'),
  pickLabel: $('pick-label'),
  pick: $<HTMLInputElement>('pick'),
  pickCount: $('pick-count'),
  paste: $<HTMLTextAreaElement>('paste'),
  loadPaste: $<HTMLButtonElement>('load-paste'),
  random: $<HTMLButtonElement>('random'),
  randomSize: $<HTMLInputElement>('random-size'),
  play: $<HTMLButtonElement>('play'),
  step: $<HTMLButtonElement>('step'),
  reset: $<HTMLButtonElement>('reset'),
  speed: $<HTMLSelectElement>('speed'),
  multiGen: $<HTMLInputElement>('multi-gen'),
  status: $('status'),
  detail: $('detail'),
  generation: $('generation'),
  gensPerSec: $('gens-per-sec'),
  fps: $('fps'),
  title: $('title'),
  error: $<HTMLPreElement>('error'),
  stage: $('stage'),
  grid: $<HTMLCanvasElement>('grid'),
  overlay: $<HTMLCanvasElement>('overlay'),
  noWebGpu: $('no-webgpu'),
  plot: $<HTMLCanvasElement>('plot'),
};

/** what tests and the FPS benchmark read (window.cellsolveViewer) */
interface ViewerHandle {
  ready: boolean;
  frames: number;
  fps: number;
  /** load a bundled sample by file name (same path as choosing it in the menu) */
  loadSample(file: string): Promise<void>;
  /** CSS pixel (relative to the page) showing the centre of cell (x, y) */
  cellToClient(x: number, y: number): [number, number];
  view: ViewTransform;
  /** kinds of the command-line registry that loaded in this page (their parse and verify are used) */
  registered: string[];
  /** draw the next frame even when nothing changed */
  redraw(): void;
  /** GPU ms per frame drawn back to back, at interactive (moving) or resting quality */
  timeDraws(frames: number, moving: boolean): Promise<number>;
  /** the view was changed from outside (benchmarks pan it directly) */
  moved(): void;
  /** show the whole grid */
  fit(): void;
  snapshot(): ReturnType<Session['snapshot']> | null;
}

declare global {
  interface Window {
    cellsolveViewer?: ViewerHandle;
  }
}

class Viewer {
  readonly view = new ViewTransform();
  private session: Session | null = null;
  private puzzle: LoadedPuzzle | null = null;
  private pipeline: KindPipelines | null = null;
  private aux: GPUBuffer | null = null;
  private auxVersion = 0;
  private dirty = true;
  frames = 0;
  fps = 0;
  private fpsWindow = { frames: 0, since: performance.now() };
  private readonly renderer: GridRenderer;
  private readonly plot = new CounterPlot(ui.plot);
  private readonly overlay2d = ui.overlay.getContext('2d')!;
  private uiDirty = true;
  private plotDirty = true;
  /** when the view last moved: frames within MOVING_MS of it draw at interactive quality */
  private lastMove = -Infinity;

  constructor(private readonly ctx: GpuContext) {
    this.renderer = new GridRenderer(ctx, ui.grid);
    new ResizeObserver(() => this.resize()).observe(ui.stage);
    this.resize();
    this.bindInput();
    requestAnimationFrame(() => this.frame());
  }

  private resize(): void {
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(ui.stage.clientWidth * dpr));
    const h = Math.max(1, Math.round(ui.stage.clientHeight * dpr));
    for (const c of [ui.grid, ui.overlay]) {
      c.width = w;
      c.height = h;
    }
    const first = this.view.canvasWidth <= 1;
    this.view.resize(w, h);
    if (first && this.puzzle) this.fitView();
    this.dirty = true;
  }

  async open(puzzle: LoadedPuzzle): Promise<void> {
    const pipeline = await this.renderer.pipeline(puzzle.shaders ?? puzzle.kind.shaders);
    await this.session?.destroy();
    this.aux?.destroy();
    this.aux = puzzle.renderAux ? this.renderer.uploadAux(puzzle.renderAux, puzzle.kind.name) : null;
    this.pipeline = pipeline;
    this.puzzle = puzzle;
    const session = new Session(this.ctx, puzzle);
    await session.start();
    session.onUpdate = () => (this.uiDirty = true);
    session.onPlot = () => (this.plotDirty = true);
    session.interacting = () => performance.now() - this.lastMove < MOVING_MS;
    this.session = session;
    this.auxVersion = session.renderAuxVersion;
    this.fitView();
    ui.title.textContent = `${puzzle.kind.name}: ${puzzle.title} (${puzzle.width}x${puzzle.height})`;
    for (const b of [ui.play, ui.step, ui.reset]) b.disabled = false;
    this.dirty = true;
    this.uiDirty = true;
  }

  private fitView(): void {
    const p = this.puzzle;
    if (p) this.view.fit(p.width, p.height, p.fitMargin);
  }

  fit(): void {
    this.fitView();
    this.moved();
  }

  togglePlay(): void {
    const s = this.session;
    if (!s) return;
    if (s.running) void s.pause();
    else s.play(Number(ui.speed.value), ui.multiGen.checked);
    this.uiDirty = true;
  }

  /** a speed or mode change takes effect at once: the run in flight ends after its chunk and restarts */
  async restartIfRunning(): Promise<void> {
    const s = this.session;
    if (!s?.running) return;
    await s.pause();
    s.play(Number(ui.speed.value), ui.multiGen.checked);
  }

  step(): void {
    this.session?.step();
  }

  async reset(): Promise<void> {
    await this.session?.reset();
    this.dirty = true;
  }

  private drawGrid(moving: boolean): void {
    const s = this.session;
    if (s && s.renderAuxVersion !== this.auxVersion) {
      // a judgement brought new drawing data (the path found): upload it once
      this.auxVersion = s.renderAuxVersion;
      this.aux?.destroy();
      const words = s.renderAux ?? this.puzzle?.renderAux;
      this.aux = words ? this.renderer.uploadAux(words, this.puzzle!.kind.name) : null;
    }
    const state = this.session?.stateView() ?? null;
    const p = this.puzzle;
    this.renderer.draw(
      p && state ? { shaders: p.shaders ?? p.kind.shaders, state, width: p.width, height: p.height, params: p.renderParams, aux: this.aux } : null,
      this.view,
      this.pipeline,
      moving,
    );
  }

  /** GPU milliseconds per drawn frame, measured by drawing `frames` frames back to back (benchmarks) */
  async timeDraws(frames: number, moving: boolean): Promise<number> {
    await this.ctx.device.queue.onSubmittedWorkDone();
    const t0 = performance.now();
    for (let i = 0; i < frames; i++) {
      this.drawGrid(moving);
      await this.ctx.device.queue.onSubmittedWorkDone();
    }
    return (performance.now() - t0) / frames;
  }

  private frame(): void {
    requestAnimationFrame(() => this.frame());
    const now = performance.now();
    // moving: the view changed since the last frame drawn, or lately; when frames take longer than MOVING_MS
    // (a loaded software rasteriser) the first test keeps a pan at interactive quality all the same
    const moving = this.movedSinceDraw || now - this.lastMove < MOVING_MS;
    // one refining frame after the view comes to rest
    if (this.lastMove > 0 && !moving && this.lastMove !== this.refinedAt) {
      this.refinedAt = this.lastMove;
      this.dirty = true;
    }
    // a running grid is drawn once per engine chunk (onUpdate), not every frame: on a software rasteriser a frame
    // costs as much as many generations, and every frame drawn delays the next status readback
    if (this.dirty || this.uiDirty) {
      this.drawGrid(moving || !!this.session?.running);
      this.movedSinceDraw = false;
      if (this.dirty) this.drawOverlay();
      this.dirty = false;
      this.frames++;
      this.fpsWindow.frames++;
    }
    if (now - this.fpsWindow.since >= 500) {
      this.fps = (this.fpsWindow.frames * 1000) / (now - this.fpsWindow.since);
      this.fpsWindow = { frames: 0, since: now };
      ui.fps.textContent = this.fps.toFixed(1);
    }
    if (this.uiDirty) this.updateStats();
    if (this.plotDirty && this.session) {
      this.plotDirty = false;
      this.plot.draw(this.session.counterHistory, this.puzzle?.counterLabel ?? '');
    }
  }

  private updateStats(): void {
    this.uiDirty = false;
    const snap = this.session?.snapshot();
    if (!snap) return;
    ui.status.textContent = snap.status;
    ui.status.dataset.status = snap.status;
    ui.detail.textContent = snap.detail;
    ui.generation.textContent = String(snap.generation);
    ui.gensPerSec.textContent = snap.generationsPerSec >= 100 ? snap.generationsPerSec.toFixed(0) : snap.generationsPerSec.toFixed(1);
    ui.play.textContent = this.session!.running && snap.status === 'running' ? 'Pause' : 'Play';
    const over = this.session!.finished;
    ui.play.disabled = over;
    ui.step.disabled = over;
    this.plotDirty = true;
  }

  private drawOverlay(): void {
    const g = this.overlay2d;
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, ui.overlay.width, ui.overlay.height);
    const p = this.puzzle;
    if (!p?.overlay) return;
    const dpr = window.devicePixelRatio || 1;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    const m = this.view.cellToPixel();
    p.overlay(g, (x, y) => [(m[0] * x + m[3] * y + m[6]) / dpr, (m[1] * x + m[4] * y + m[7]) / dpr], this.view.pixelsPerCell / dpr);
  }

  markDirty(): void {
    this.dirty = true;
  }

  /** the view moved (pan, zoom): draw the next frames at interactive quality */
  moved(): void {
    this.dirty = true;
    this.movedSinceDraw = true;
    this.lastMove = performance.now();
  }
  private movedSinceDraw = false;
  private refinedAt = -Infinity;

  cellToClient(x: number, y: number): [number, number] {
    const dpr = window.devicePixelRatio || 1;
    const p = this.view.cellToPixelPoint(x + 0.5, y + 0.5);
    const r = ui.grid.getBoundingClientRect();
    return [r.left + p[0] / dpr, r.top + p[1] / dpr];
  }

  snapshot() {
    return this.session?.snapshot() ?? null;
  }

  private bindInput(): void {
    const el = ui.grid;
    const dpr = () => window.devicePixelRatio || 1;
    const pointers = new Map<number, { x: number; y: number }>();
    const local = (e: { clientX: number; clientY: number }) => {
      const r = el.getBoundingClientRect();
      return { x: (e.clientX - r.left) * dpr(), y: (e.clientY - r.top) * dpr() };
    };
    el.addEventListener('pointerdown', (e) => {
      el.setPointerCapture(e.pointerId);
      pointers.set(e.pointerId, local(e));
    });
    el.addEventListener('pointermove', (e) => {
      const before = pointers.get(e.pointerId);
      if (!before) return;
      const now = local(e);
      if (pointers.size === 1) {
        this.view.pan(now.x - before.x, now.y - before.y);
      } else if (pointers.size === 2) {
        // pinch: zoom by the change in finger distance about their midpoint, pan by the midpoint's move
        const other = [...pointers.entries()].find(([id]) => id !== e.pointerId)![1];
        const d0 = Math.hypot(before.x - other.x, before.y - other.y);
        const d1 = Math.hypot(now.x - other.x, now.y - other.y);
        const mid = { x: (now.x + other.x) / 2, y: (now.y + other.y) / 2 };
        this.view.pan((now.x - before.x) / 2, (now.y - before.y) / 2);
        if (d0 > 0 && d1 > 0) this.view.zoomAt(mid.x, mid.y, d1 / d0);
      }
      pointers.set(e.pointerId, now);
      this.moved();
    });
    const up = (e: PointerEvent) => pointers.delete(e.pointerId);
    el.addEventListener('pointerup', up);
    el.addEventListener('pointercancel', up);
    el.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        const p = local(e);
        const lines = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
        this.view.zoomAt(p.x, p.y, Math.exp(-e.deltaY * lines * 0.0015));
        this.moved();
      },
      { passive: false },
    );
    el.addEventListener('dblclick', () => this.fit());
  }
}

function showError(message: string): void {
  ui.error.hidden = message === '';
  ui.error.textContent = message;
}

function selectedKind(): ViewerKind | undefined {
  return findViewerKind(ui.kind.value);
}

function fillMethods(): void {
  const k = selectedKind();
  ui.method.replaceChildren(...(k ? k.methods : ['(per kind)']).map((m) => new Option(m, m, m === k?.defaultMethod, m === k?.defaultMethod)));
  ui.method.disabled = !k;
}

function parseSize(text: string): [number, number] {
  const m = /^\s*(\d+)\s*(?:[x×]\s*(\d+))?\s*$/i.exec(text);
  if (!m) throw new Error(`size '${text}': expected N or WxH`);
  const w = Number(m[1]);
  const h = m[2] ? Number(m[2]) : w;
  if (w < 1 || h < 1 || w > 16384 || h > 16384) throw new Error(`size ${w}x${h} is out of range (1..16384)`);
  return [w, h];
}

async function main(): Promise<void> {
  if (!('gpu' in navigator) || !navigator.gpu) {
    noWebGpu('This browser has no WebGPU (navigator.gpu is missing).');
    return;
  }
  let ctx: GpuContext;
  try {
    ctx = await createBrowserContext();
  } catch (e) {
    noWebGpu((e as Error).message);
    return;
  }
  const a = ctx.adapter;
  ui.adapter.textContent = `${a.vendor || 'adapter'} ${a.architecture} ${a.description}`.trim() + (a.fallback ? ' (software fallback)' : '');
  await loadRegistry();
  const viewer = new Viewer(ctx);
  ctx.onLost((reason) => showError(reason));

  ui.kind.replaceChildren(new Option('auto-detect', 'auto'), ...viewerKinds.map((k) => new Option(k.name, k.name)));
  fillMethods();
  ui.kind.addEventListener('change', fillMethods);
  for (const k of viewerKinds) {
    for (const s of k.samples) if (sampleUrls[`../../samples/web/${s.file}`]) ui.sample.add(new Option(s.label, s.file));
  }

  // what was loaded last, to load again with another method when the Method menu changes
  let reload: (() => Promise<void>) | null = null;
  // a file of many puzzles (a TAAI tournament file: 1,000) shows one; the Puzzle box picks another
  let pick: ((index: number) => Promise<void>) | null = null;
  // true when the puzzle is open; the pickers then load from this input
  const load = async (bytes: Uint8Array, fileName: string, kind?: ViewerKind, index = 0): Promise<boolean> => {
    showError('');
    try {
      const k = kind ?? selectedKind();
      const puzzle = k ? k.load(bytes, fileName, ui.method.value || k.defaultMethod, index) : loadAuto(bytes, fileName, index);
      ui.pickLabel.hidden = (puzzle.puzzlesInInput ?? 1) < 2;
      ui.pick.max = String(puzzle.puzzlesInInput ?? 1);
      ui.pick.value = String(index + 1);
      ui.pickCount.textContent = `of ${puzzle.puzzlesInInput ?? 1}`;
      await viewer.open(puzzle);
      reload = async () => void (await load(bytes, fileName, kind && selectedKind(), index));
      pick = async (i) => void (await load(bytes, fileName, kind, i));
      return true;
    } catch (e) {
      showError(e instanceof GpuError || e instanceof Error ? e.message : String(e));
      return false;
    }
  };
  const loadSample = async (file: string) => {
    const url = sampleUrls[`../../samples/web/${file}`];
    if (!url) return showError(`no bundled sample ${file}`);
    const kind = viewerKinds.find((k) => k.samples.some((s) => s.file === file));
    const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
    // the menus follow the sample's kind; if it does not open they go back to the puzzle still shown
    const before = { kind: ui.kind.value, method: ui.method.value };
    if (kind && ui.kind.value !== kind.name) {
      ui.kind.value = kind.name;
      fillMethods();
    }
    if (!(await load(bytes, file, kind)) && ui.kind.value !== before.kind) {
      ui.kind.value = before.kind;
      fillMethods();
      ui.method.value = before.method;
    }
  };

  ui.sample.addEventListener('change', () => ui.sample.value && void loadSample(ui.sample.value));
  ui.file.addEventListener('change', async () => {
    const f = ui.file.files?.[0];
    // cleared, so that picking the same file again loads it again
    ui.file.value = '';
    if (f) await load(new Uint8Array(await f.arrayBuffer()), f.name);
  });
  // a method picked after loading applies at once: the puzzle is loaded again with it (the menu used to change
  // while the old method ran on)
  ui.method.addEventListener('change', () => void reload?.().catch((e: Error) => showError(e.message)));
  ui.pick.addEventListener('change', () => {
    const n = Math.round(Number(ui.pick.value));
    if (Number.isFinite(n) && n >= 1 && n <= Number(ui.pick.max)) void pick?.(n - 1);
    else showError(`puzzle ${ui.pick.value}: pick 1 to ${ui.pick.max}`);
  });
  ui.loadPaste.addEventListener('click', () => void load(new TextEncoder().encode(ui.paste.value), 'pasted'));
  ui.random.addEventListener('click', async () => {
    showError('');
    try {
      const k = selectedKind() ?? findViewerKind('life')!;
      if (!k.random) throw new Error(`${k.name} has no random start; pick a sample or a file`);
      const [w, h] = parseSize(ui.randomSize.value);
      const seed = (Math.random() * 2 ** 31) | 0;
      const random = k.random;
      reload = () => viewer.open(random(w, h, seed, ui.method.value || k.defaultMethod));
      ui.pickLabel.hidden = true;
      await reload();
    } catch (e) {
      showError((e as Error).message);
    }
  });
  ui.stage.addEventListener('dragover', (e) => {
    e.preventDefault();
    ui.stage.classList.add('drop');
  });
  ui.stage.addEventListener('dragleave', () => ui.stage.classList.remove('drop'));
  ui.stage.addEventListener('drop', async (e) => {
    e.preventDefault();
    ui.stage.classList.remove('drop');
    const f = e.dataTransfer?.files?.[0];
    if (f) await load(new Uint8Array(await f.arrayBuffer()), f.name);
    else {
      const text = e.dataTransfer?.getData('text/plain');
      if (text) await load(new TextEncoder().encode(text), 'dropped');
    }
  });
  ui.play.addEventListener('click', () => viewer.togglePlay());
  ui.step.addEventListener('click', () => viewer.step());
  ui.reset.addEventListener('click', () => void viewer.reset());
  ui.speed.addEventListener('change', () => void viewer.restartIfRunning());
  // keys: space play/pause, s step, r reset, f fit (not while typing in the paste box)
  window.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLInputElement || e.ctrlKey || e.metaKey || e.altKey) return;
    const action: Record<string, () => void> = {
      ' ': () => viewer.togglePlay(),
      s: () => viewer.step(),
      r: () => void viewer.reset(),
      f: () => viewer.fit(),
    };
    const run = action[e.key];
    if (run) {
      e.preventDefault();
      run();
    }
  });
  ui.multiGen.addEventListener('change', () => void viewer.restartIfRunning());

  window.cellsolveViewer = {
    ready: true,
    get frames() {
      return viewer.frames;
    },
    get fps() {
      return viewer.fps;
    },
    loadSample,
    cellToClient: (x, y) => viewer.cellToClient(x, y),
    view: viewer.view,
    registered: registeredKindNames(),
    redraw: () => viewer.markDirty(),
    moved: () => viewer.moved(),
    fit: () => viewer.fit(),
    timeDraws: (frames, moving) => viewer.timeDraws(frames, moving),
    snapshot: () => viewer.snapshot(),
  } as ViewerHandle;
}

function noWebGpu(reason: string): void {
  ui.adapter.textContent = 'no WebGPU';
  ui.noWebGpu.hidden = false;
  ui.noWebGpu.innerHTML = `<h2>This page needs WebGPU</h2>
    <p>${escapeHtml(reason)}</p>
    <p>How to get it:</p>
    <ul>
      <li>Chrome or Edge 113 or later on Windows, macOS or ChromeOS: on by default. On Linux: open
        <code>chrome://flags/#enable-unsafe-webgpu</code>, enable it and restart (or start Chrome with
        <code>--enable-unsafe-webgpu --enable-features=Vulkan</code>).</li>
      <li>Firefox 141 or later on Windows (other systems: set <code>dom.webgpu.enabled</code> to true in <code>about:config</code>).</li>
      <li>Safari 26 or later (macOS, iOS); older Safari: Develop &gt; Feature Flags &gt; WebGPU.</li>
      <li>The page must come from <code>https://</code> or <code>http://localhost</code>: WebGPU needs a secure context.</li>
    </ul>`;
  window.cellsolveViewer = { ready: false } as ViewerHandle;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

void main();
