// The drawing pass: one render pipeline per kind (shaders/render/common.wgsl + the kind's palette file), all with
// one explicit bind group layout, drawing a full-screen triangle whose fragment shader reads the engine's state
// buffer in place. Nothing is created per frame except when the engine swaps or grows its state buffer.
import type { GpuContext } from '../gpu/context.ts';
import type { ViewTransform } from './view.ts';

/** What one frame draws: a grid inside an engine state buffer plus the kind's drawing data. */
export interface DrawTarget {
  /** the kind's palette file(s) under shaders/, joined after render/common.wgsl, e.g. ['render/life.wgsl'] */
  shaders: string[];
  state: { buffer: GPUBuffer; offsetWords: number };
  width: number;
  height: number;
  /** kind-specific u32 x 4 (view.params in WGSL) */
  params?: number[];
  /** drawing data (clues, walls) uploaded once by the renderer; null when the kind needs none */
  aux: GPUBuffer | null;
}

const VIEW_BYTES = 96;

/** a kind's two fragment entry points (shaders/render/common.wgsl) */
export interface KindPipelines {
  single: GPURenderPipeline;
  multi: GPURenderPipeline;
}

export class GridRenderer {
  readonly context: GPUCanvasContext;
  readonly format: GPUTextureFormat;
  private readonly device: GPUDevice;
  private readonly layout: GPUBindGroupLayout;
  private readonly pipelineLayout: GPUPipelineLayout;
  private readonly pipelines = new Map<string, Promise<KindPipelines>>();
  private readonly viewBuffer: GPUBuffer;
  private readonly emptyAux: GPUBuffer;
  /** bind groups per (state buffer, aux buffer): the engine swaps between two state buffers every generation */
  private bindGroups = new WeakMap<GPUBuffer, WeakMap<GPUBuffer, GPUBindGroup>>();
  private readonly viewWords = new ArrayBuffer(VIEW_BYTES);

  constructor(
    private readonly ctx: GpuContext,
    readonly canvas: HTMLCanvasElement,
  ) {
    this.device = ctx.device;
    const context = canvas.getContext('webgpu');
    if (!context) throw new Error('this canvas cannot give a WebGPU context');
    this.context = context;
    this.format = navigator.gpu.getPreferredCanvasFormat();
    this.context.configure({ device: this.device, format: this.format, alphaMode: 'opaque' });
    const F = GPUShaderStage.FRAGMENT;
    this.layout = this.device.createBindGroupLayout({
      label: 'GridRenderer.layout',
      entries: [
        { binding: 0, visibility: F, buffer: { type: 'uniform' } },
        { binding: 1, visibility: F, buffer: { type: 'read-only-storage' } },
        { binding: 2, visibility: F, buffer: { type: 'read-only-storage' } },
      ],
    });
    this.pipelineLayout = this.device.createPipelineLayout({ label: 'GridRenderer.pipelineLayout', bindGroupLayouts: [this.layout] });
    this.viewBuffer = this.device.createBuffer({ label: 'GridRenderer.view', size: VIEW_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.emptyAux = this.device.createBuffer({ label: 'GridRenderer.emptyAux', size: 16, usage: GPUBufferUsage.STORAGE });
  }

  /** The kind's pipelines (one sample per pixel, several), compiled once and asynchronously. */
  pipeline(shaders: string[]): Promise<KindPipelines> {
    const key = shaders.join('+');
    let p = this.pipelines.get(key);
    if (!p) {
      p = this.createPipelines(shaders);
      this.pipelines.set(key, p);
      p.catch(() => this.pipelines.delete(key));
    }
    return p;
  }

  private async createPipelines(shaders: string[]): Promise<KindPipelines> {
    // the context's module cache maps WGSL errors back to shaders/render/<file>:line:col
    const { module } = await this.ctx.shaderModule(['render/common.wgsl', ...shaders]);
    const make = (entryPoint: string) =>
      this.device.createRenderPipelineAsync({
        label: `GridRenderer.${shaders.join('+')}.${entryPoint}`,
        layout: this.pipelineLayout,
        vertex: { module, entryPoint: 'vs_fullscreen' },
        fragment: { module, entryPoint, targets: [{ format: this.format }] },
        primitive: { topology: 'triangle-list' },
      });
    const [single, multi] = await Promise.all([make('fs_cells'), make('fs_cells_multi')]);
    return { single, multi };
  }

  /** Uploads a kind's static drawing data (clues, walls) once per loaded puzzle. */
  uploadAux(words: Uint32Array, label: string): GPUBuffer {
    const buffer = this.device.createBuffer({ label: `GridRenderer.aux.${label}`, size: Math.max(16, words.byteLength), usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    if (words.byteLength) this.device.queue.writeBuffer(buffer, 0, words.buffer, words.byteOffset, words.byteLength);
    return buffer;
  }

  private bindGroup(state: GPUBuffer, aux: GPUBuffer): GPUBindGroup {
    let byAux = this.bindGroups.get(state);
    if (!byAux) this.bindGroups.set(state, (byAux = new WeakMap()));
    let group = byAux.get(aux);
    if (!group) {
      group = this.device.createBindGroup({
        label: `GridRenderer.bind.${state.label}`,
        layout: this.layout,
        entries: [
          { binding: 0, resource: { buffer: this.viewBuffer } },
          { binding: 1, resource: { buffer: state } },
          { binding: 2, resource: { buffer: aux } },
        ],
      });
      byAux.set(aux, group);
    }
    return group;
  }

  /** Draws one frame; with no target (or its pipeline still compiling) the canvas is cleared. */
  draw(target: DrawTarget | null, view: ViewTransform, pipelines: KindPipelines | null, moving = false): void {
    const encoder = this.device.createCommandEncoder({ label: 'GridRenderer.frame' });
    const pass = encoder.beginRenderPass({
      label: 'GridRenderer.pass',
      colorAttachments: [{ view: this.context.getCurrentTexture().createView(), loadOp: 'clear', storeOp: 'store', clearValue: { r: 0.11, g: 0.12, b: 0.14, a: 1 } }],
    });
    if (target && pipelines) {
      const m = view.pixelToCellMatrixNow();
      const f = new Float32Array(this.viewWords);
      const u = new Uint32Array(this.viewWords);
      f.set([m[0], m[1], m[2], 0, m[3], m[4], m[5], 0, m[6], m[7], m[8], 0]);
      u.set([target.width, target.height, target.state.offsetWords, 0], 12);
      const p = target.params ?? [];
      u.set([p[0] ?? 0, p[1] ?? 0, p[2] ?? 0, p[3] ?? 0], 16);
      f[20] = view.pixelsPerCell;
      // zoomed out, a pixel covers several cells: 2x2 samples at rest, one while the view moves or the grid runs
      // (a software rasteriser cannot afford several storage reads per pixel at frame rate; the picture refines
      // when it stops)
      const samples = moving || view.pixelsPerCell >= 1 ? 1 : 2;
      u[21] = samples;
      this.device.queue.writeBuffer(this.viewBuffer, 0, this.viewWords);
      pass.setPipeline(samples > 1 ? pipelines.multi : pipelines.single);
      pass.setBindGroup(0, this.bindGroup(target.state.buffer, target.aux ?? this.emptyAux));
      pass.draw(3);
    }
    pass.end();
    this.device.queue.submit([encoder.finish()]);
  }

  destroy(): void {
    this.viewBuffer.destroy();
    this.emptyAux.destroy();
    this.bindGroups = new WeakMap();
  }
}
