// Sudoku in the viewer: every form the command line reads (src/puzzles/sudoku/codec.ts), run by the kind's
// elimination automaton (naked and hidden singles, locked candidates; src/puzzles/sudoku/solver.ts sudokuRule) on
// one grid. Its end is judged from the final candidate masks: all single -> the CPU verifier; an empty cell ->
// contradiction; otherwise stuck (the puzzle needs search, which `cellsolve solve sudoku --method full` does).
import { parseSudoku } from '../puzzles/sudoku/codec.ts';
import { caInput } from '../puzzles/sudoku/pack.ts';
import { initialMasks, masksToValues, popcount, RULES_ALL, topology, valueOf, verify, type SudokuPuzzle } from '../puzzles/sudoku/reference.ts';
import { solutionString, sudokuRoundsRule, sudokuRule } from '../puzzles/sudoku/solver.ts';
import { FONT_3X5 } from './font.ts';
import { nthPuzzle, parseAsCli, verifyAsCli, type LoadedPuzzle, type ViewerKind } from './kind-api.ts';

/** drawing data for shaders/render/sudoku.wgsl: the font, then per cell: bit 0 given, bits 1-4 thick borders */
function renderAux(p: SudokuPuzzle): Uint32Array {
  const n = p.n;
  const cells = n * n;
  // the units after rows and columns are the regions (boxes or jigsaw pieces), in the topology's order
  const region = new Uint32Array(cells);
  const units = topology(p).units;
  for (let r = 0; r < n; r++) for (const c of units[2 * n + r]) region[c] = r;
  const aux = new Uint32Array(FONT_3X5.length + cells);
  aux.set(FONT_3X5);
  for (let i = 0; i < cells; i++) {
    const x = i % n;
    const y = Math.floor(i / n);
    const differs = (xx: number, yy: number) => xx >= 0 && yy >= 0 && xx < n && yy < n && region[yy * n + xx] !== region[i];
    aux[FONT_3X5.length + i] =
      (p.givens[i] ? 1 : 0) | (differs(x - 1, y) ? 2 : 0) | (differs(x, y - 1) ? 4 : 0) | (differs(x + 1, y) ? 8 : 0) | (differs(x, y + 1) ? 16 : 0);
  }
  return aux;
}

function loaded(p: SudokuPuzzle, title: string, method: string): LoadedPuzzle {
  // ca: one synchronous generation per dispatch (watch it step); rounds: in place, each dispatch to its fixpoint
  const rounds = method === 'rounds';
  const cells = p.n * p.n;
  return {
    kind: sudokuViewer,
    title: `${title}${p.diagonal ? ', X' : ''}${p.regions ? ', jigsaw' : ''}`,
    width: p.n,
    height: p.n,
    rule: rounds ? sudokuRoundsRule : sudokuRule,
    input: caInput(p, initialMasks(p), RULES_ALL, cells * p.n + 2, rounds),
    renderParams: [p.n, 0, 0, 0],
    renderAux: renderAux(p),
    counterLabel: 'undecided cells',
    count: { shader: 'render/sudoku-count.wgsl', items: cells },
    complete: {
      kind: 'sudoku',
      method: 'full',
      puzzle: p,
      input: (solution) => caInput(p, Uint32Array.from(solution, (ch) => 1 << (valueOf(ch, p.io?.hex) - 1)), RULES_ALL, cells * p.n + 2, rounds),
    },
    judge(outcome, state) {
      const masks = state.subarray(0, cells);
      // the in-place rule counts its rounds in the word after the masks (pack.ts caInput `rounds`)
      const gens = rounds ? state[cells] : outcome.generations;
      const unit = rounds ? 'rounds' : 'generations';
      const empty = masks.findIndex((m) => m === 0);
      if (empty >= 0 || outcome.status === 'contradiction') {
        const where = empty >= 0 ? ` (row ${Math.floor(empty / p.n) + 1}, column ${(empty % p.n) + 1} has no candidate)` : '';
        return { status: 'contradiction', detail: `no solution exists${where}` };
      }
      const open = masks.reduce((n, m) => n + (popcount(m) > 1 ? 1 : 0), 0);
      if (open > 0) return { status: 'stuck', detail: `the automaton stalls with ${open} undecided cells after ${gens} ${unit}: this puzzle needs search`, generations: gens };
      const solution = solutionString(p, masksToValues(masks));
      if (!verifyAsCli('sudoku', p, solution, verify)) return { status: 'error', detail: 'verifier rejected the grid' };
      return { status: 'solved', detail: `solved in ${gens} ${unit}, checked by the verifier`, generations: gens };
    },
  };
}

export const sudokuViewer: ViewerKind = {
  name: 'sudoku',
  shaders: ['render/font.wgsl', 'render/sudoku.wgsl'],
  methods: ['ca', 'rounds'],
  defaultMethod: 'ca',
  samples: [
    { label: 'Sudoku 9x9 basic (STPPC Solo)', file: 'sudoku-9x9-basic.txt' },
    { label: 'Sudoku 16x16 (STPPC Solo game id)', file: 'sudoku-16x16.txt' },
    { label: 'Sudoku 9x9 extreme (stalls, then search)', file: 'sudoku-9x9-extreme.txt' },
  ],
  detect: (fileName, bytes) => {
    if (/\.sudoku$/i.test(fileName)) return true;
    const text = new TextDecoder().decode(bytes.subarray(0, 4096));
    // STPPC Solo ids give the box shape (3x3:..., letters and underscores); Pattern ids (15x15:3.7/...) are nonograms
    return /^\s*\d+x\d+[a-z]*:[0-9a-z_,]+\s*$/m.test(text) || /^[.0-9]{81}\s*$/m.test(text);
  },
  load(bytes, fileName, method, index) {
    const { puzzle, title, count: puzzlesInInput } = nthPuzzle(parseAsCli('sudoku', bytes, fileName, () => parseSudoku(bytes, fileName)), fileName, 'sudoku', index);
    return { ...loaded(puzzle, title, method), puzzlesInInput };
  },
};
