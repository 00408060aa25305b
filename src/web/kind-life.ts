// Life in the viewer: RLE / plain-text patterns (src/life/codec.ts) or a random soup, placed in a field with room to
// grow, run by the engine's Life rule (src/life/rule.ts). Dead borders, so multi-generation dispatch works at any
// width.
import { parsePattern } from '../life/codec.ts';
import { randomLife, type LifeGrid } from '../life/reference.ts';
import { wordsPerRow } from '../life/pack.ts';
import { lifeInput, lifeRule } from '../life/rule.ts';
import { textOf, type LoadedPuzzle, type ViewerKind } from './kind-api.ts';

/** a pattern gets at least this much room on every side, and the field is at least MIN_FIELD cells across */
const MARGIN = 64;
const MIN_FIELD = 256;

function centred(pattern: LifeGrid): LifeGrid {
  const width = Math.max(MIN_FIELD, pattern.width + 2 * MARGIN);
  const height = Math.max(MIN_FIELD, pattern.height + 2 * MARGIN);
  const x0 = Math.floor((width - pattern.width) / 2);
  const y0 = Math.floor((height - pattern.height) / 2);
  const cells = new Uint8Array(width * height);
  for (let y = 0; y < pattern.height; y++) cells.set(pattern.cells.subarray(y * pattern.width, (y + 1) * pattern.width), (y0 + y) * width + x0);
  return { width, height, cells };
}

function loaded(grid: LifeGrid, title: string): LoadedPuzzle {
  return {
    kind: lifeViewer,
    title,
    width: grid.width,
    height: grid.height,
    rule: lifeRule,
    input: lifeInput(grid, false, Number.MAX_SAFE_INTEGER),
    counterLabel: 'population (live cells)',
    count: { shader: 'render/life-count.wgsl', items: wordsPerRow(grid.width) * grid.height },
    judge: (outcome) =>
      outcome.status === 'fixpoint'
        ? { status: 'still', detail: `still life after ${outcome.generations} generations` }
        : { status: 'stuck', detail: outcome.status },
  };
}

export const lifeViewer: ViewerKind = {
  name: 'life',
  shaders: ['render/life.wgsl'],
  methods: ['b3s23'],
  defaultMethod: 'b3s23',
  samples: [
    { label: 'Life: Gosper glider gun', file: 'life-gosper-gun.rle' },
    { label: 'Life: R-pentomino', file: 'life-r-pentomino.rle' },
  ],
  detect: (fileName, bytes) => /\.(rle|cells|lif|life)$/i.test(fileName) || /^\s*x\s*=\s*\d+/m.test(textOf(bytes.subarray(0, 4096))),
  load: (bytes, fileName) => loaded(centred(parsePattern(textOf(bytes), fileName)), fileName),
  random: (width, height, seed) => loaded(randomLife(width, height, seed, 0.3), `random ${width}x${height} soup, seed ${seed}`),
};
