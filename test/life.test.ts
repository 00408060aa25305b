import { describe, expect, it } from 'vitest';
import { lifeRun, randomLife, type LifeGrid } from '../src/life/reference.ts';
import { runLife } from '../src/life/rule.ts';
import { skipGpu, withDevice } from './gpu.ts';

const sizes: [number, number][] = [
  [1, 1],
  [31, 33],
  [32, 32],
  [33, 31],
  [100, 7],
  [64, 64],
  [5, 200],
];

function expectSame(got: LifeGrid, want: LifeGrid, what: string) {
  expect(got.width).toBe(want.width);
  const diff = got.cells.findIndex((c, i) => c !== want.cells[i]);
  expect(diff, `${what}: first differing cell ${diff}`).toBe(-1);
}

describe.skipIf(skipGpu)('Life on the GPU matches the CPU reference', () => {
  for (const torus of [false, true]) {
    it(`random grids, ${torus ? 'toroidal' : 'dead'} borders, one batch of mixed sizes`, async () => {
      await withDevice(async (ctx) => {
        const grids = sizes.map(([w, h], i) => randomLife(w, h, 17 + i));
        const gens = 13;
        const out = await runLife(ctx, grids, { generations: gens, torus });
        grids.forEach((g, i) => expectSame(out.grids[i], lifeRun(g, gens, torus), `${g.width}x${g.height}`));
      });
    });
  }

  it('empty and full grids', async () => {
    await withDevice(async (ctx) => {
      const empty = { width: 40, height: 9, cells: new Uint8Array(360) };
      const full = { width: 40, height: 9, cells: new Uint8Array(360).fill(1) };
      for (const torus of [false, true]) {
        const out = await runLife(ctx, [empty, full], { generations: 3, torus });
        expectSame(out.grids[0], lifeRun(empty, 3, torus), 'empty');
        expectSame(out.grids[1], lifeRun(full, 3, torus), 'full');
        expect(out.outcomes[0].status).toBe('fixpoint');
        expect(out.outcomes[0].generations).toBe(0);
      }
    });
  });

  it('1000x1000 random grid', async () => {
    await withDevice(async (ctx) => {
      const g = randomLife(1000, 1000, 5);
      const out = await runLife(ctx, [g], { generations: 4, torus: false });
      expectSame(out.grids[0], lifeRun(g, 4, false), '1000x1000');
    });
  });

  it('many small grids sharing workgroups, interleaved sizes, some reaching a still life early (holes in the runs)', async () => {
    await withDevice(async (ctx) => {
      const shapes: [number, number][] = [[8, 8], [8, 8], [5, 3], [64, 64], [8, 8], [1, 1], [33, 2]];
      // sparse soups die or settle at different generations, so grids retire mid-run and shared tiles regroup
      const grids = Array.from({ length: 140 }, (_, i) => randomLife(...shapes[i % shapes.length], 100 + i, i % 3 === 0 ? 0.12 : 0.35));
      const gens = 37;
      for (const mode of ['one-gen', 'multi-gen'] as const) {
        const out = await runLife(ctx, grids, { generations: gens, torus: false, mode });
        grids.forEach((g, i) => expectSame(out.grids[i], lifeRun(g, gens, false), `${mode} #${i} ${g.width}x${g.height}`));
      }
    });
  });

  it('multi-generation dispatch gives the same grids as one generation per dispatch', async () => {
    await withDevice(async (ctx) => {
      const dead = [randomLife(100, 130, 3), randomLife(33, 31, 4), randomLife(300, 70, 9), randomLife(1, 1, 2)];
      const gens = 21; // not a multiple of 8: the last generations run one per dispatch
      const out = await runLife(ctx, dead, { generations: gens, torus: false, mode: 'multi-gen' });
      dead.forEach((g, i) => expectSame(out.grids[i], lifeRun(g, gens, false), `multi ${g.width}x${g.height}`));
      // small grids are one whole block (any width); larger toroidal ones need widths that are multiples of 32
      const torus = [randomLife(64, 50, 6), randomLife(32, 200, 8), randomLife(288, 33, 10), randomLife(31, 33, 11), randomLife(1, 1, 12), randomLife(100, 7, 13)];
      const outT = await runLife(ctx, torus, { generations: gens, torus: true, mode: 'multi-gen' });
      torus.forEach((g, i) => expectSame(outT.grids[i], lifeRun(g, gens, true), `multi torus ${g.width}x${g.height}`));
    });
  });

  it('a blinker never reaches a fixpoint and stops exactly at the cap; a block is a still life', async () => {
    await withDevice(async (ctx) => {
      const blinker = { width: 5, height: 5, cells: new Uint8Array(25) };
      [11, 12, 13].forEach((i) => (blinker.cells[i] = 1));
      const block = { width: 4, height: 4, cells: new Uint8Array(16) };
      [5, 6, 9, 10].forEach((i) => (block.cells[i] = 1));
      const out = await runLife(ctx, [blinker, block], { generations: 101, torus: false });
      expect(out.outcomes[0].status).toBe('capped');
      expect(out.outcomes[0].generations).toBe(101);
      expectSame(out.grids[0], lifeRun(blinker, 101, false), 'blinker');
      expect(out.outcomes[1].status).toBe('fixpoint');
      expect(out.outcomes[1].generations).toBe(0);
      expect(out.stats.readbacks).toBeLessThan(101);
    });
  });
});
