#!/usr/bin/env node
// First-run set-up for `npm start`, `npm test`, `npm run bench|dev|build`: installs what is missing and says so.
// - npm packages (node_modules), without puppeteer's own browser download;
// - Debian's chromium (its SwiftShader gives WebGPU without a GPU, and it runs the browser tests), libvulkan1
//   (the Vulkan loader Dawn opens) and mesa-vulkan-drivers (a Vulkan driver for Chromium's compositor: below).
//   Installing Debian packages needs root: without it we print the command.
// Plain Node only: this runs before any dependency is installed.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const say = (msg) => process.stderr.write(`setup: ${msg}\n`);

function npmPackagesMissing() {
  const needed = ['webgpu', 'tsx', 'vitest', 'vite', 'puppeteer', 'pngjs', 'gl-matrix', '@webgpu/types', '@algorithm.ts/sudoku'];
  return needed.filter((p) => !existsSync(`${root}/node_modules/${p}/package.json`));
}

const missing = npmPackagesMissing();
if (missing.length) {
  const lock = existsSync(`${root}/package-lock.json`);
  say(`installing npm packages (missing: ${missing.join(', ')}) with npm ${lock ? 'ci' : 'install'} ...`);
  const r = spawnSync('npm', [lock ? 'ci' : 'install', '--no-audit', '--no-fund'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1' },
  });
  if (r.status !== 0 || npmPackagesMissing().length) {
    say(`npm install failed (exit ${r.status}); see the messages above. Node ${process.version}, needs >= 20.`);
    process.exit(1);
  }
  say('npm packages installed.');
}

const SWIFTSHADER = '/usr/lib/chromium/vk_swiftshader_icd.json';
const CHROMIUM = '/usr/bin/chromium';
function vulkanLoaderPresent() {
  try {
    return execFileSync('ldconfig', ['-p'], { encoding: 'utf8' }).includes('libvulkan.so.1');
  } catch {
    return ['/usr/lib/x86_64-linux-gnu/libvulkan.so.1', '/usr/lib/aarch64-linux-gnu/libvulkan.so.1'].some(existsSync);
  }
}

// A system Vulkan driver (Mesa's): headless Chromium's GPU process starts ANGLE on Vulkan, which needs the surface
// extensions SwiftShader's bundled ICD lacks; without one the GPU process exits and a page's WebGPU canvas loses its
// device ("A valid external Instance reference no longer exists"). WebGPU itself still runs on SwiftShader.
function systemVulkanDriverPresent() {
  const dirs = ['/usr/share/vulkan/icd.d', '/etc/vulkan/icd.d'];
  try {
    return dirs.some((d) => existsSync(d) && readdirSync(d).some((f) => f.endsWith('.json')));
  } catch {
    return false;
  }
}

const debs = [];
if (!existsSync(SWIFTSHADER) || !existsSync(CHROMIUM)) debs.push('chromium');
if (!vulkanLoaderPresent()) debs.push('libvulkan1');
if (!systemVulkanDriverPresent()) debs.push('mesa-vulkan-drivers');
if (debs.length && process.platform === 'linux' && process.env.CELLSOLVE_NO_APT !== '1') {
  const command = `apt-get update && apt-get install -y ${debs.join(' ')}`;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    say(`Debian packages missing: ${debs.join(', ')} (WebGPU on SwiftShader without a GPU, and the browser tests).`);
    say(`installing them needs root; run:  sudo sh -c '${command}'`);
    process.exit(1);
  }
  say(`installing Debian packages ${debs.join(', ')} (SwiftShader WebGPU and the browser tests): ${command}`);
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', ...debs]]) {
    const r = spawnSync('apt-get', args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (r.status !== 0) {
      say(`apt-get ${args.join(' ')} failed (exit ${r.status}); run it by hand: ${command}`);
      process.exit(1);
    }
  }
  say('Debian packages installed.');
}
