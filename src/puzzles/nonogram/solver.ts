// Nonograms on the GPU: the line automaton as an engine rule, and the strategies over it.
import type { GpuContext } from '../../gpu/context.ts';
import { Batch, type Mode } from '../../engine/batch.ts';
import type { Rule } from '../../engine/rule.ts';
import type { Nonogram } from './codec.ts';
import { layoutOf, lineWordsFor, packClues, packCopy, unpackCopy } from './pack.ts';
import { initialCells } from './reference.ts';

/** generations a multi-generation dispatch may run before the host looks (it stops earlier at a fixpoint) */
export const GENERATIONS_PER_DISPATCH = 32;

const rules = new Map<number, Rule>();

/** The line automaton for puzzles whose longest line needs `lineWords` words per bit set (settle.wgsl). */
export function nonogramRule(lineWords: number): Rule {
  let rule = rules.get(lineWords);
  if (!rule) {
    rule = {
      name: `nonogram${lineWords}`,
      files: ['nonogram/settle.wgsl', 'nonogram/line.wgsl'],
      entryPoints: ['nono_rows', 'nono_cols'],
      stateAccess: 'in-place',
      constants: { LINE_WORDS: lineWords, GENERATIONS: GENERATIONS_PER_DISPATCH },
      tracksCompletion: true,
      // one invocation per copy (params[0] copies) instead of one per line
      multiGeneration: { entryPoint: 'nono_copies', generationsPerDispatch: GENERATIONS_PER_DISPATCH, exact: true, items: (g) => g.params![0] },
    };
    rules.set(lineWords, rule);
  }
  return rule;
}

export interface LineOutcome {
  cells: Uint8Array;
  status: 'solved' | 'stalled' | 'contradiction';
  generations: number;
}

/** Line logic alone on the GPU: every puzzle one grid, all in one batch per line-word class. */
export async function gpuLineSolve(ctx: GpuContext, puzzles: Nonogram[], opts: { mode?: Mode; maxGenerations?: number } = {}): Promise<LineOutcome[]> {
  const out: LineOutcome[] = new Array(puzzles.length);
  const classes = new Map<number, number[]>();
  puzzles.forEach((p, i) => {
    const k = lineWordsFor(p);
    classes.set(k, [...(classes.get(k) ?? []), i]);
  });
  for (const [lineWords, idx] of classes) {
    const rule = nonogramRule(lineWords);
    const batch = await Batch.create(ctx, rule);
    try {
      const ids = idx.map((i) => {
        const p = puzzles[i];
        const l = layoutOf(p.width, p.height);
        return batch.add({
          width: p.width,
          height: p.height,
          items: Math.max(p.width, p.height),
          state: packCopy(l, initialCells(p)),
          aux: packClues(p),
          params: [1, 0, 0, 0],
          maxGenerations: opts.maxGenerations,
        });
      });
      await batch.run({ mode: opts.mode ?? 'multi-gen' });
      const states = await batch.readStates(ids);
      idx.forEach((i, k) => {
        const p = puzzles[i];
        const s = unpackCopy(layoutOf(p.width, p.height), states[k]);
        out[i] = {
          cells: s.cells,
          status: s.contradiction ? 'contradiction' : s.cells.includes(0) ? 'stalled' : 'solved',
          generations: s.generations,
        };
      });
    } finally {
      batch.destroy();
    }
  }
  return out;
}
