// Binary puzzles (Takuzu, Binairo, STPPC Unruly) in the viewer: every form the command line reads
// (src/puzzles/binary/codec.ts), run by one of the kind's automata on one grid (src/puzzles/binary/solver.ts):
//   ca      our automaton, Methods 1-4 of thesis 3.3.1 from the first generation;
//   thesis  the thesis automaton of 3.3.2, cell by cell.
// The final state is read once at the end: complete -> the CPU verifier; a contradiction; otherwise stuck (the
// puzzle needs probing or search, which `cellsolve solve binary --method full` does).
import type { GridInput, Rule } from '../engine/rule.ts';
import type { GridOutcome } from '../engine/batch.ts';
import { cellsToString, parseBinary, UNKNOWN, type BinaryPuzzle } from '../puzzles/binary/codec.ts';
import { unpackCa, wordsPerRow } from '../puzzles/binary/pack.ts';
import { METHODS_ALL, thesisCells, thesisLastChange, verifySolution } from '../puzzles/binary/reference.ts';
import { caInput, caRule, thesisInput, thesisRule } from '../puzzles/binary/solver.ts';
import { FONT_3X5 } from './font.ts';
import { nthPuzzle, parseAsCli, verifyAsCli, type LoadedPuzzle, type ViewerKind } from './kind-api.ts';

interface BinaryMethod {
  rule: Rule;
  input(p: BinaryPuzzle, cells?: ArrayLike<number>): GridInput;
  shaders: string[];
  count: { shader: string; items: (p: BinaryPuzzle) => number };
  cells(p: BinaryPuzzle, state: Uint32Array): Uint8Array;
  /** generations as the rule's state counts them (the thesis automaton keeps cell ages) */
  generations?(state: Uint32Array, outcome: GridOutcome): number;
}

const methods: Record<string, BinaryMethod> = {
  ca: {
    rule: caRule,
    input: (p, cells = p.cells) => caInput(p, cells, METHODS_ALL),
    shaders: ['render/font.wgsl', 'render/binary.wgsl', 'render/binary-ca.wgsl'],
    count: { shader: 'render/binary-ca-count.wgsl', items: (p) => p.height * wordsPerRow(p.width) },
    cells: (p, state) => unpackCa(p.width, p.height, state),
  },
  thesis: {
    rule: thesisRule,
    input: (p, cells = p.cells) => thesisInput({ ...p, cells: Uint8Array.from(cells) }),
    shaders: ['render/font.wgsl', 'render/binary.wgsl', 'render/binary-thesis.wgsl'],
    count: { shader: 'render/binary-thesis-count.wgsl', items: (p) => p.width * p.height },
    cells: (_p, state) => thesisCells(state),
    // the engine runs until a generation changes nothing; the ages in the state date the last real change
    // cells' ages count every generation run, the fixpoint's extra ones in a chunk too: the ages are taken from
    // the generations dispatched (one each: the thesis rule has no multi-generation dispatch), not the engine's count
    // up to the last change, which made a fast run report -116
    generations: (state, outcome) => thesisLastChange(state, outcome.dispatches),
  },
};

function loaded(p: BinaryPuzzle, title: string, methodName: string): LoadedPuzzle {
  const method = methods[methodName] ?? methods.ca;
  const renderAux = new Uint32Array(FONT_3X5.length + p.width * p.height);
  renderAux.set(FONT_3X5);
  p.cells.forEach((v, i) => (renderAux[FONT_3X5.length + i] = v === UNKNOWN ? 0 : 1));
  return {
    kind: binaryViewer,
    title: `${title}${p.distinct ? ' (rows and columns distinct)' : ''}, ${methodName}`,
    width: p.width,
    height: p.height,
    rule: method.rule,
    input: method.input(p),
    shaders: method.shaders,
    renderAux,
    counterLabel: 'unknown cells',
    count: { shader: method.count.shader, items: method.count.items(p) },
    complete: { kind: 'binary', method: 'full', puzzle: p, input: (solution) => method.input(p, Array.from(solution, Number)) },
    judge(outcome, state) {
      const cells = method.cells(p, state);
      const unknown = cells.reduce((n, c) => n + (c === UNKNOWN ? 1 : 0), 0);
      const generations = method.generations?.(state, outcome) ?? outcome.generations;
      if (outcome.status === 'contradiction') return { status: 'contradiction', detail: `the rules contradict each other after ${generations} generations: no solution`, generations };
      if (unknown > 0) return { status: 'stuck', detail: `the automaton stalls with ${unknown} unknown cells after ${generations} generations: this puzzle needs probing or search`, generations };
      if (!verifyAsCli('binary', p, cellsToString(cells), verifySolution)) return { status: 'error', detail: 'verifier rejected the grid', generations };
      return { status: 'solved', detail: `solved in ${generations} generations, checked by the verifier`, generations };
    },
  };
}

export const binaryViewer: ViewerKind = {
  name: 'binary',
  shaders: methods.ca.shaders,
  methods: Object.keys(methods),
  defaultMethod: 'ca',
  samples: [
    { label: 'Binary 10x10 (STPPC Unruly, distinct lines)', file: 'binary-10x10.txt' },
    { label: 'Binary 12x12 (STPPC Unruly, distinct lines)', file: 'binary-12x12.txt' },
    { label: 'Binary 10x10 (stalls, then probing)', file: 'binary-10x10-probing.txt' },
  ],
  detect: (fileName, bytes) => {
    if (/\.(takuzu|binairo|unruly)$/i.test(fileName)) return true;
    const text = new TextDecoder().decode(bytes.subarray(0, 4096));
    return /^\s*\d+x\d+u?:[a-zA-Z]+\s*$/m.test(text) || /^[01.]{4,}\s*$/m.test(text);
  },
  load(bytes, fileName, method, index) {
    const { puzzle, title, count: puzzlesInInput } = nthPuzzle(parseAsCli('binary', bytes, fileName, () => parseBinary(bytes, fileName)), fileName, 'binary puzzle', index);
    return { ...loaded(puzzle, title, method), puzzlesInInput };
  },
};
