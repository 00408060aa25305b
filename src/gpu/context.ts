// GpuContext: the one place that holds an adapter and device, their limits, the shader loader and the
// per-device pipeline cache. Node (Dawn) and the browser differ only in how they get a `GPU` object and read
// shader files: see node.ts and browser.ts.

export type AdapterChoice = 'auto' | 'gpu' | 'swiftshader';

export interface AdapterReport {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  /** true when this is a CPU implementation (SwiftShader) rather than a real GPU */
  fallback: boolean;
  limits: {
    maxStorageBufferBindingSize: number;
    maxBufferSize: number;
    maxComputeWorkgroupStorageSize: number;
    maxComputeWorkgroupsPerDimension: number;
    maxComputeInvocationsPerWorkgroup: number;
    maxStorageBuffersPerShaderStage: number;
  };
}

/** Reads a WGSL file by its path under shaders/, e.g. "life/life.wgsl". */
export type ShaderReader = (path: string) => string;

export class GpuError extends Error {}

/** A WGSL compilation error, located in the shader file it came from. */
export class ShaderError extends GpuError {
  constructor(
    message: string,
    readonly file: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${file}:${line}:${column}: ${message}`);
  }
}

export interface ComputePipelineSpec {
  /** shader files under shaders/, joined in order (shared helpers first) */
  files: string[];
  entryPoint: string;
  /** WGSL `override` values */
  constants?: Record<string, number>;
  layout?: GPUPipelineLayout | 'auto';
  /** distinguishes pipelines that share files/entry/constants but use another layout */
  layoutKey?: string;
}

interface ModuleEntry {
  module: GPUShaderModule;
  /** first line (1-based) of each joined file inside the module */
  starts: { file: string; firstLine: number; lines: number }[];
}

export class GpuContext {
  private readonly modules = new Map<string, Promise<ModuleEntry>>();
  private readonly pipelines = new Map<string, Promise<GPUComputePipeline>>();
  private readonly shaderText = new Map<string, string>();
  /** set once the device is lost; every later call throws it */
  lostReason: string | null = null;
  private readonly lostHandlers = new Set<(reason: string) => void>();
  /** buffers given back by releaseScratch, for the next acquireScratch */
  private readonly spareScratch: GPUBuffer[] = [];

  constructor(
    readonly device: GPUDevice,
    readonly adapter: AdapterReport,
    private readonly readShader: ShaderReader,
    /** the object that owns the device (Dawn's `create()` result): kept referenced for the device's life */
    private readonly owner: unknown,
  ) {
    device.lost.then((info) => {
      if (info.reason === 'destroyed') return;
      this.lostReason = `GPU device lost (${info.reason}): ${info.message}`;
      for (const h of this.lostHandlers) h(this.lostReason);
    });
    device.addEventListener?.('uncapturederror', (ev: Event) => {
      const err = (ev as GPUUncapturedErrorEvent).error;
      // A buffer the device could not allocate makes everything after it garbage (invalid buffers, copies and
      // dispatches that do nothing): the work stops at the next check instead, with the reason. (A binary search
      // that outgrew SwiftShader's memory went on for minutes and ended as 'verifier rejected'.)
      const outOfMemory = err.constructor?.name === 'GPUOutOfMemoryError' || /OUT_OF_(DEVICE|HOST)_MEMORY|out of memory/i.test(err.message);
      if (outOfMemory && !this.lostReason) {
        this.lostReason = `out of GPU memory: ${err.message.split('\n')[0]}`;
        console.error(`cellsolve: ${this.lostReason}`);
        for (const h of this.lostHandlers) h(this.lostReason);
        return;
      }
      if (!this.lostReason) console.error(`cellsolve: uncaptured WebGPU error: ${err.message}`);
    });
  }

  get limits(): GPUSupportedLimits {
    return this.device.limits;
  }

  onLost(handler: (reason: string) => void): void {
    this.lostHandlers.add(handler);
  }

  checkAlive(): void {
    if (this.lostReason) throw new GpuError(this.lostReason);
  }

  /** The text of a shader file (cached). */
  shaderSource(path: string): string {
    let text = this.shaderText.get(path);
    if (text === undefined) {
      text = this.readShader(path);
      this.shaderText.set(path, text);
    }
    return text;
  }

  /** A shader module from files joined in order; compilation errors throw a ShaderError naming the file. */
  shaderModule(files: string[]): Promise<ModuleEntry> {
    const key = files.join('+');
    let entry = this.modules.get(key);
    if (!entry) {
      entry = this.compileModule(files);
      this.modules.set(key, entry);
      entry.catch(() => this.modules.delete(key));
    }
    return entry;
  }

  private async compileModule(files: string[]): Promise<ModuleEntry> {
    this.checkAlive();
    const starts: ModuleEntry['starts'] = [];
    let line = 1;
    const parts: string[] = [];
    for (const file of files) {
      const text = this.shaderSource(file).replace(/\r\n/g, '\n');
      const body = text.endsWith('\n') ? text : text + '\n';
      const lines = body.split('\n').length - 1;
      starts.push({ file: `shaders/${file}`, firstLine: line, lines });
      parts.push(body);
      line += lines;
    }
    const code = parts.join('');
    this.device.pushErrorScope('validation');
    const module = this.device.createShaderModule({ label: files.map((f) => `shaders/${f}`).join('+'), code });
    const info = await module.getCompilationInfo();
    const scopeError = await this.device.popErrorScope();
    const firstError = info.messages.find((m) => m.type === 'error');
    if (firstError) throw this.locate(starts, firstError.lineNum, firstError.linePos, firstError.message);
    if (scopeError) throw new GpuError(`shader module ${module.label}: ${scopeError.message}`);
    return { module, starts };
  }

  private locate(starts: ModuleEntry['starts'], lineNum: number, column: number, message: string): ShaderError {
    const part = starts.find((s) => lineNum >= s.firstLine && lineNum < s.firstLine + s.lines) ?? starts[starts.length - 1];
    return new ShaderError(message, part.file, lineNum - part.firstLine + 1, column);
  }

  /**
   * A buffer of at least `bytes` for state a kernel writes before it reads (a search's slots), reused from an
   * earlier caller's when one is spare: on SwiftShader a new buffer is fresh memory that is zero-filled, a page fault
   * per 4 KB, which took half of a batch of 100 STPPC 20x20 puzzles' time (51 MB of slots). Its contents are
   * whatever the last user left. Give it back with `releaseScratch`.
   */
  acquireScratch(label: string, bytes: number, usage: GPUBufferUsageFlags): GPUBuffer {
    const at = this.spareScratch.findIndex((b) => b.size >= bytes && b.usage === usage);
    if (at >= 0) return this.spareScratch.splice(at, 1)[0];
    return this.device.createBuffer({ label, size: bytes, usage });
  }

  /** Keeps a buffer from acquireScratch for the next caller: one spare per usage, the larger. */
  releaseScratch(buffer: GPUBuffer): void {
    const at = this.spareScratch.findIndex((b) => b.usage === buffer.usage);
    if (at < 0) {
      this.spareScratch.push(buffer);
      return;
    }
    const spare = this.spareScratch[at];
    if (spare.size >= buffer.size) {
      buffer.destroy();
      return;
    }
    spare.destroy();
    this.spareScratch[at] = buffer;
  }

  /** A compute pipeline, cached by files, entry point, constants and layout. */
  computePipeline(spec: ComputePipelineSpec): Promise<GPUComputePipeline> {
    const constants = spec.constants ?? {};
    const key = [
      spec.files.join('+'),
      spec.entryPoint,
      Object.keys(constants).sort().map((k) => `${k}=${constants[k]}`).join(','),
      spec.layoutKey ?? (spec.layout === undefined || spec.layout === 'auto' ? 'auto' : spec.layout.label),
    ].join('|');
    let pipeline = this.pipelines.get(key);
    if (!pipeline) {
      pipeline = this.createPipeline(spec, constants);
      this.pipelines.set(key, pipeline);
      pipeline.catch(() => this.pipelines.delete(key));
    }
    return pipeline;
  }

  private async createPipeline(spec: ComputePipelineSpec, constants: Record<string, number>): Promise<GPUComputePipeline> {
    const { module, starts } = await this.shaderModule(spec.files);
    this.device.pushErrorScope('validation');
    let pipeline: GPUComputePipeline;
    try {
      pipeline = await this.device.createComputePipelineAsync({
        label: `${module.label}:${spec.entryPoint}`,
        layout: spec.layout ?? 'auto',
        compute: { module, entryPoint: spec.entryPoint, constants },
      });
    } catch (e) {
      await this.device.popErrorScope();
      throw this.pipelineError(e, starts, module.label);
    }
    const err = await this.device.popErrorScope();
    if (err) throw this.pipelineError(err, starts, module.label);
    return pipeline;
  }

  private pipelineError(e: unknown, starts: ModuleEntry['starts'], label: string): GpuError {
    const message = e instanceof Error || (e && typeof e === 'object' && 'message' in e) ? String((e as Error).message) : String(e);
    // Dawn reports pipeline-stage WGSL errors as ":LINE:COL error: ..." inside the message.
    const m = /:(\d+):(\d+)\s+error:\s*([^\n]*)/.exec(message);
    if (m) return this.locate(starts, Number(m[1]), Number(m[2]), m[3]);
    return new GpuError(`pipeline for ${label}: ${message}`);
  }

  /** Runs `body` inside validation and out-of-memory error scopes and throws the first error raised. */
  async checked<T>(what: string, body: () => T | Promise<T>): Promise<T> {
    this.checkAlive();
    this.device.pushErrorScope('out-of-memory');
    this.device.pushErrorScope('validation');
    let result: T;
    try {
      result = await body();
    } finally {
      const validation = await this.device.popErrorScope();
      const oom = await this.device.popErrorScope();
      const err = validation ?? oom;
      if (err) throw new GpuError(`${what}: ${err.message}`);
    }
    return result;
  }

  /** Only the device is ours to destroy; the owner is released with it. */
  destroy(): void {
    for (const b of this.spareScratch) b.destroy();
    this.spareScratch.length = 0;
    this.device.destroy();
    this.modules.clear();
    this.pipelines.clear();
    void this.owner;
  }
}

export function reportAdapter(adapter: GPUAdapter, fallbackHint: boolean): AdapterReport {
  const info = adapter.info;
  const l = adapter.limits;
  const text = `${info.vendor} ${info.architecture} ${info.device} ${info.description}`.toLowerCase();
  return {
    vendor: info.vendor,
    architecture: info.architecture,
    device: info.device,
    description: info.description,
    fallback: fallbackHint || text.includes('swiftshader') || (info as { isFallbackAdapter?: boolean }).isFallbackAdapter === true,
    limits: {
      maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
      maxBufferSize: l.maxBufferSize,
      maxComputeWorkgroupStorageSize: l.maxComputeWorkgroupStorageSize,
      maxComputeWorkgroupsPerDimension: l.maxComputeWorkgroupsPerDimension,
      maxComputeInvocationsPerWorkgroup: l.maxComputeInvocationsPerWorkgroup,
      maxStorageBuffersPerShaderStage: l.maxStorageBuffersPerShaderStage,
    },
  };
}

/** Limits we ask for: the adapter's full buffer sizes (big mazes, big batches), the rest at defaults. */
export function requiredLimits(adapter: GPUAdapter): Record<string, number> {
  const l = adapter.limits;
  return {
    maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
    maxBufferSize: l.maxBufferSize,
    maxStorageBuffersPerShaderStage: Math.min(l.maxStorageBuffersPerShaderStage, 10),
    maxComputeWorkgroupStorageSize: l.maxComputeWorkgroupStorageSize,
    maxComputeInvocationsPerWorkgroup: l.maxComputeInvocationsPerWorkgroup,
    maxComputeWorkgroupSizeX: l.maxComputeWorkgroupSizeX,
  };
}
