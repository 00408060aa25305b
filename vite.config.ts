import { defineConfig } from 'vite';

export default defineConfig(({ mode }) => ({
  // relative asset URLs: the built viewer works from any folder of a static host, not only from its root
  base: './',
  build: { target: 'es2022', outDir: 'dist' },
  // the nonogram CDCL threads are module Web Workers in the page (cdcl-threads.ts)
  worker: { format: 'es' },
  // the viewer bundles the maze and nonogram codecs, which read PNG with pngjs: its Node build needs zlib/stream,
  // its browserified build carries them (vitest, mode 'test', keeps the Node build)
  resolve: { alias: mode === 'test' ? [] : [{ find: /^pngjs$/, replacement: 'pngjs/browser.js' }] },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // two files at a time, each worker process with its own GPU device: most files are single-threaded JS (the CPU
    // twins, the CLI's children waiting on each other), so two share a 2-core machine well (the suite took 552 s one
    // file at a time, 390 s two at a time); more would only crowd SwiftShader and the CDCL threads on such a machine
    fileParallelism: true,
    maxWorkers: 2,
  },
}) as any);
