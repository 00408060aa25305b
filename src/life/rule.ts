// Game of Life as an engine rule, and the host side of running patterns.
import type { GpuContext } from '../gpu/context.ts';
import { GpuError } from '../gpu/context.ts';
import type { Mode } from '../engine/batch.ts';
import { WORKGROUP_SIZE } from '../engine/constants.ts';
import type { GridInput, Rule } from '../engine/rule.ts';
import { runAll } from '../engine/run.ts';
import { packLife, unpackLife, wordsPerRow } from './pack.ts';
import type { LifeGrid } from './reference.ts';

/** generations per multi-generation dispatch: the tile halo is this many rows deep (shaders/life/life.wgsl) */
export const LIFE_GENERATIONS_PER_DISPATCH = 8;
/** shaders/life/life.wgsl: a grid this small is one private block; larger ones are cut into blocks */
const BLOCK_CAPACITY = 512;
const BLOCK_WORDS = 4;
const BLOCK_ROWS = 32;
const isWholeBlock = (g: { width: number; height: number }) => wordsPerRow(g.width) * g.height <= BLOCK_CAPACITY;

export const lifeRule: Rule = {
  name: 'life',
  files: ['life/life.wgsl'],
  entryPoints: ['life_step'],
  stateAccess: 'ping-pong',
  constants: { GENERATIONS: LIFE_GENERATIONS_PER_DISPATCH },
  tracksCompletion: false,
  sharesWorkgroups: true,
  multiGeneration: {
    entryPoint: 'life_multi',
    generationsPerDispatch: LIFE_GENERATIONS_PER_DISPATCH,
    exact: true,
    // one invocation per block
    items: (g) => (isWholeBlock(g) ? 1 : Math.ceil(wordsPerRow(g.width) / BLOCK_WORDS) * Math.ceil(g.height / BLOCK_ROWS)),
  },
};

/**
 * Workgroups a grid should spread over at least: a GPU wants many in flight; SwiftShader runs a workgroup per
 * CPU thread and pays tens of microseconds for each, so there a few fat ones do better.
 */
export const targetWorkgroups = (ctx: GpuContext) => (ctx.adapter.fallback ? 4 : 32);

export function lifeInput(grid: LifeGrid, torus: boolean, generations: number, spreadOver = 32): GridInput {
  if (grid.width < 1 || grid.height < 1) throw new GpuError(`a Life grid must be at least 1x1 (got ${grid.width}x${grid.height})`);
  const words = wordsPerRow(grid.width) * grid.height;
  // strips of up to 16 rows per invocation (fewer loads), but short enough that a grid still spreads over
  // `spreadOver` workgroups where it can: the device runs workgroups in parallel, not the rows of one invocation
  const rowsPerItem = Math.max(1, Math.min(16, Math.floor(words / (WORKGROUP_SIZE * spreadOver))));
  return {
    width: grid.width,
    height: grid.height,
    items: wordsPerRow(grid.width) * Math.ceil(grid.height / rowsPerItem),
    state: packLife(grid),
    params: [torus ? 1 : 0, rowsPerItem, isWholeBlock(grid) ? 1 : 0],
    maxGenerations: generations,
  };
}

/**
 * Inputs for grids that share one batch: the batch, not each grid, spreads over the target workgroups, so grids of
 * a large batch take fatter strips (16 grids of 64x64 on SwiftShader: 2.5k -> 4.4k generations/s, 10,000 of them:
 * 219M -> 429M cell-updates/s, `bench life --quick`, alternating runs).
 */
export function lifeBatchInputs(ctx: GpuContext, grids: LifeGrid[], torus: boolean, generations: number): GridInput[] {
  // small grids share workgroups (Rule.sharesWorkgroups), so a grid may take fewer items than a workgroup
  const spreadOver = targetWorkgroups(ctx) / Math.max(1, grids.length);
  return grids.map((g) => lifeInput(g, torus, generations, spreadOver));
}

export interface LifeRunOptions {
  generations: number;
  torus: boolean;
  mode?: Mode;
  readbackEvery?: number;
}

/** Advances every grid `generations` generations (or to a still life) in as few batches as the device allows. */
export async function runLife(ctx: GpuContext, grids: LifeGrid[], opts: LifeRunOptions) {
  if (opts.mode === 'multi-gen' && opts.torus && grids.some((g) => g.width % 32 !== 0 && !isWholeBlock(g))) {
    throw new GpuError(`multi-generation dispatch on a torus needs widths that are multiples of 32 for grids over ${BLOCK_CAPACITY} words; use one-gen`);
  }
  const inputs = lifeBatchInputs(ctx, grids, opts.torus, opts.generations);
  const { results, stats } = await runAll(ctx, lifeRule, inputs, {
    mode: opts.mode,
    maxGenerations: opts.generations,
    readbackEvery: opts.readbackEvery,
  });
  return {
    grids: results.map((r, i) => unpackLife(r.state, grids[i].width, grids[i].height)),
    outcomes: results,
    stats,
  };
}
