// GpuContext for Node through Dawn (the `webgpu` package). Without a real GPU, Dawn finds SwiftShader (shipped in
// Debian's chromium package) through VK_ICD_FILENAMES; we set it ourselves after a first try finds nothing.
import { readFileSync, existsSync } from 'node:fs';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { GpuContext, GpuError, reportAdapter, requiredLimits, type AdapterChoice } from './context.ts';
import { startNursery } from './threads.ts';

export const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';
const shaderRoot = fileURLToPath(new URL('../../shaders/', import.meta.url));

export function readShaderFile(path: string): string {
  return readFileSync(shaderRoot + path, 'utf8');
}

// Dawn's `create()` result must outlive every device made from it: when it is garbage-collected the process
// dies at random. Module-level references keep them all alive for the process' life.
const owners: unknown[] = [];

async function tryAdapter(): Promise<{ gpu: GPU; adapter: GPUAdapter | null }> {
  const { create, globals } = await import('webgpu');
  Object.assign(globalThis, globals);
  const gpu = create([]);
  owners.push(gpu);
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  return { gpu, adapter };
}

/**
 * On Linux a GPU shows up as a DRM render node or an NVIDIA device; without one, asking Dawn only finds CPU
 * drivers it rejects (Mesa's lavapipe, with a warning on stderr), so we go straight to SwiftShader.
 */
function mayHaveGpu(): boolean {
  if (process.platform !== 'linux') return true;
  return existsSync('/dev/dri') || existsSync('/dev/nvidia0') || existsSync('/dev/dxg');
}

let cached: Promise<GpuContext> | null = null;

/** One shared context per process (tests, CLI): creating devices is slow and Dawn is happier with few. */
export function nodeContext(choice: AdapterChoice = 'auto'): Promise<GpuContext> {
  if (!cached) {
    cached = createNodeContext(choice);
    cached.catch(() => (cached = null));
  }
  return cached;
}

export async function createNodeContext(choice: AdapterChoice = 'auto'): Promise<GpuContext> {
  // Mesa's WSI prints "XDG_RUNTIME_DIR is invalid" on every adapter query without it; we draw nothing here.
  process.env.XDG_RUNTIME_DIR ??= '/tmp';
  let adapter: GPUAdapter | null = null;
  let fallback = false;
  if (choice === 'gpu' || (choice === 'auto' && !process.env.VK_ICD_FILENAMES && mayHaveGpu())) {
    adapter = (await tryAdapter()).adapter;
    if (adapter && reportAdapter(adapter, false).fallback && choice === 'gpu') adapter = null;
  }
  if (!adapter && choice !== 'gpu') {
    if (!existsSync(SWIFTSHADER_ICD)) {
      throw new GpuError(
        `no WebGPU adapter: no GPU found and SwiftShader is missing (${SWIFTSHADER_ICD}).\n` +
          `Install it with: apt-get update && apt-get install -y chromium libvulkan1   (needs root; npm start / npm test do this when run as root)`,
      );
    }
    process.env.VK_ICD_FILENAMES ??= SWIFTSHADER_ICD;
    adapter = (await tryAdapter()).adapter;
    fallback = true;
  }
  if (!adapter) {
    throw new GpuError(
      choice === 'gpu'
        ? 'no WebGPU adapter: --adapter gpu asked for a real GPU and none was found'
        : 'no WebGPU adapter could be created (Dawn found neither a GPU nor SwiftShader; is libvulkan1 installed?)',
    );
  }
  const report = reportAdapter(adapter, fallback);
  const device = await adapter.requestDevice({ label: 'cellsolve', requiredLimits: requiredLimits(adapter) });
  if (report.fallback && process.platform === 'linux') {
    // the host's worker threads are started by a thread made now, so they keep the process's priority
    startNursery();
    yieldToCpuDriver();
  }
  return new GpuContext(device, report, readShaderFile, owners);
}

/** The nice value of the host's thread on a CPU adapter (yieldToCpuDriver). */
export const HOST_NICE_ON_CPU_ADAPTER = 10;

/**
 * On a CPU adapter the host's thread competes for the cores with the driver's workers, which are the GPU: Dawn's
 * Node bindings poll a pending map in a busy loop (5 s of an 82-s TAAI nonogram run on SwiftShader's two threads,
 * besides the host's real work). A lower priority for this thread alone (Linux sets nice per thread; SwiftShader's
 * workers exist once the device does and keep theirs) lets them have the cores whenever both want them: TAAI first
 * solutions answered by 82 s 827-838 against 818-821 (three alternating runs each, 2026-11-27). Raising a nice value
 * needs no privilege; where it fails nothing is lost. (Elsewhere a priority is the whole process's: left alone.)
 */
function yieldToCpuDriver(): void {
  try {
    setPriority(0, HOST_NICE_ON_CPU_ADAPTER);
  } catch {
    // not permitted here: the host competes as before
  }
}
