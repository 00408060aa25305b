// Viewer registrations: one entry per kind the page can show. Each reuses its kind's own codec and engine rule
// (src/life, src/puzzles/<kind>/ through the registry) and names a palette file in shaders/render/ that decodes the
// engine's packed state in the fragment shader. The page knows kinds only through this list.
import type { LoadedPuzzle, ViewerKind } from './kind-api.ts';
import { binaryViewer } from './kind-binary.ts';
import { lifeViewer } from './kind-life.ts';
import { mazeViewer } from './kind-maze.ts';
import { nonogramViewer } from './kind-nonogram.ts';
import { sudokuViewer } from './kind-sudoku.ts';

export const viewerKinds: ViewerKind[] = [lifeViewer, mazeViewer, sudokuViewer, nonogramViewer, binaryViewer];

export function findViewerKind(name: string): ViewerKind | undefined {
  return viewerKinds.find((k) => k.name === name);
}

/** 'auto': the first kind whose detect() claims the input; else the first whose loader accepts it. */
export function loadAuto(bytes: Uint8Array, fileName: string, index = 0): LoadedPuzzle {
  const claimed = viewerKinds.filter((k) => k.detect(fileName, bytes));
  const errors: string[] = [];
  for (const k of [...claimed, ...viewerKinds.filter((k) => !claimed.includes(k))]) {
    try {
      return k.load(bytes, fileName, k.defaultMethod, index);
    } catch (e) {
      errors.push(`${k.name}: ${(e as Error).message}`);
      if (claimed.includes(k)) throw e;
    }
  }
  throw new Error(`no kind reads this input:\n${errors.join('\n')}`);
}
