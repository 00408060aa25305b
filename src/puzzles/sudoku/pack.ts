// Sudoku grids as the shaders hold them (shaders/sudoku/topology.wgsl, rules.wgsl):
//   state: n*n candidate masks (bit v-1 = value v) (the in-place rule adds a word counting its rounds);
//   items: min(cells, WORKGROUP_SIZE), so one workgroup holds a 9x9 grid (invocation i takes cells i, i + items..);
//   param0 = n | boxW << 8 | boxH << 16 | variant << 24, param1 = rule bits;
//   aux (jigsaw only): the region of every cell, then every region's cells in order.
import { WORKGROUP_SIZE } from '../../engine/constants.ts';
import type { GridInput } from '../../engine/rule.ts';
import { RULES_ALL, topology, type SudokuPuzzle } from './reference.ts';

export const VARIANT_DIAGONAL = 1;
export const VARIANT_JIGSAW = 2;

export function shapeParam(p: SudokuPuzzle): number {
  const variant = (p.diagonal ? VARIANT_DIAGONAL : 0) | (p.regions ? VARIANT_JIGSAW : 0);
  return (p.n | (p.boxW << 8) | (p.boxH << 16) | (variant << 24)) >>> 0;
}

const auxCache = new WeakMap<SudokuPuzzle, Uint32Array | undefined>();

export function packAux(p: SudokuPuzzle): Uint32Array | undefined {
  if (!p.regions) return undefined;
  let aux = auxCache.get(p);
  if (!aux) {
    const t = topology(p);
    const cells = p.n * p.n;
    aux = new Uint32Array(2 * cells);
    aux.set(p.regions);
    for (let R = 0; R < p.n; R++) aux.set(t.units[2 * p.n + R], cells + R * p.n);
    auxCache.set(p, aux);
  }
  return aux;
}

/** `rounds`: one more state word after the masks, where the in-place rule (async.wgsl) counts its rounds. */
export function caInput(p: SudokuPuzzle, masks: Uint32Array, rules = RULES_ALL, maxGenerations?: number, rounds = false): GridInput {
  const state = new Uint32Array(masks.length + (rounds ? 1 : 0));
  state.set(masks);
  return {
    width: p.n,
    height: p.n,
    items: Math.min(p.n * p.n, WORKGROUP_SIZE),
    state,
    aux: packAux(p),
    params: [shapeParam(p), rules],
    maxGenerations,
  };
}

export function unpackMasks(state: Uint32Array, p: SudokuPuzzle): Uint32Array {
  return state.subarray(0, p.n * p.n);
}
