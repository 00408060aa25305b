// GpuContext for the browser: navigator.gpu, shaders bundled by vite as raw text.
import { GpuContext, GpuError, reportAdapter, requiredLimits } from './context.ts';

const shaderFiles = import.meta.glob('../../shaders/**/*.wgsl', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

function readBundledShader(path: string): string {
  const text = shaderFiles[`../../shaders/${path}`];
  if (text === undefined) throw new GpuError(`shader file not bundled: shaders/${path}`);
  return text;
}

export async function createBrowserContext(): Promise<GpuContext> {
  if (!('gpu' in navigator) || !navigator.gpu) {
    throw new GpuError('This browser has no WebGPU (navigator.gpu is missing).');
  }
  let adapter = await navigator.gpu.requestAdapter({ powerPreference: 'high-performance' });
  let fallback = false;
  if (!adapter) {
    adapter = await navigator.gpu.requestAdapter({ forceFallbackAdapter: true });
    fallback = true;
  }
  if (!adapter) throw new GpuError('WebGPU is present but no adapter could be had.');
  const device = await adapter.requestDevice({ label: 'cellsolve', requiredLimits: requiredLimits(adapter) });
  return new GpuContext(device, reportAdapter(adapter, fallback), readBundledShader, navigator.gpu);
}
