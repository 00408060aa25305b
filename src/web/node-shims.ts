// The kinds' codecs are written for Node and hand PNG bytes to pngjs as `Buffer.from(arrayBuffer, offset, length)`.
// In the page pngjs is its browserified build (vite.config.ts alias), which carries its own Buffer class but does
// not export it; a PNG's pixel data is one of its Buffers, so its constructor is that class. Imported first.
import { PNG } from 'pngjs';

const g = globalThis as { Buffer?: unknown };
if (g.Buffer === undefined) g.Buffer = new PNG({ width: 1, height: 1 }).data.constructor;
export {};
