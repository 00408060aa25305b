import { defineConfig } from 'vite';

export default defineConfig(({ mode }) => ({
  // relative asset URLs: the built viewer works from any folder of a static host, not only from its root
  base: './',
  build: { target: 'es2022', outDir: 'dist' },
  // the viewer bundles the maze and nonogram codecs, which read PNG with pngjs: its Node build needs zlib/stream,
  // its browserified build carries them (vitest, mode 'test', keeps the Node build)
  resolve: { alias: mode === 'test' ? [] : [{ find: /^pngjs$/, replacement: 'pngjs/browser.js' }] },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // one GPU device per worker process; SwiftShader already uses every core
    fileParallelism: false,
  },
}) as any);
