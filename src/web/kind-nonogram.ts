// Nonograms in the viewer: every form the command line reads (src/puzzles/nonogram/codec.ts), run by the kind's
// line automaton (thesis 3.2.2: every row and column its own 1-D automaton; src/puzzles/nonogram/solver.ts) on one
// copy of the puzzle. Clues are drawn around the grid on a 2D overlay that follows the view. At the end the final
// state is read once: all cells known -> the CPU verifier; a contradiction; otherwise stuck (the puzzle needs
// probing or search, which `cellsolve solve nonogram` does).
import { parseNonograms, type Nonogram } from '../puzzles/nonogram/codec.ts';
import { gpuLimitError, layoutOf, lineWordsFor, packClues, packCopy, solutionOf, unpackCopy } from '../puzzles/nonogram/pack.ts';
import { EMPTY, FILLED, initialCells, settle, verify } from '../puzzles/nonogram/reference.ts';
import { nonogramRule } from '../puzzles/nonogram/solver.ts';
import { nthPuzzle, parseAsCli, verifyAsCli, type LoadedPuzzle, type ViewerKind } from './kind-api.ts';

/** The rows and columns whose clues the final cells break: a cell set both ways, or no placement of the clue left. */
export function brokenLines(p: Nonogram, cells: Uint8Array): { rows: number[]; columns: number[] } {
  const broken = (clue: number[], line: number[]) => line.includes(3) || !settle(clue, line, new Uint8Array(line.length));
  return {
    rows: p.rows.flatMap((clue, r) => (broken(clue, Array.from({ length: p.width }, (_, c) => cells[r * p.width + c])) ? [r] : [])),
    columns: p.columns.flatMap((clue, c) => (broken(clue, Array.from({ length: p.height }, (_, r) => cells[r * p.width + c])) ? [c] : [])),
  };
}

const CLUE_INK = '#d8dde3';
const BROKEN_INK = '#ff6b6b';

/** A contradiction's lines, named as the status says them (1-based, as the clues are counted on the page). */
function lineNames(b: { rows: number[]; columns: number[] }): string {
  const names = [...b.rows.map((r) => `row ${r + 1}`), ...b.columns.map((c) => `column ${c + 1}`)];
  const shown = names.slice(0, 4).join(', ') + (names.length > 4 ? ` and ${names.length - 4} more` : '');
  return names.length ? ` (${shown}: no placement of the clue fits; in red)` : '';
}

function drawClues(p: Nonogram, g: CanvasRenderingContext2D, cellToCss: (x: number, y: number) => [number, number], cssPerCell: number, broken?: { rows: number[]; columns: number[] }): void {
  if (cssPerCell < 7) return; // unreadable: the grid alone
  const size = Math.min(14, cssPerCell * 0.62);
  g.font = `${size}px system-ui, sans-serif`;
  g.textBaseline = 'middle';
  const gap = size * 0.45;
  const rowTexts = p.rows.map((clue) => (clue.length ? clue.join(' ') : '0'));
  const rowWidth = Math.max(...rowTexts.map((t) => g.measureText(t).width));
  const colHeight = Math.max(...p.columns.map((c) => Math.max(1, c.length))) * size * 1.15;
  // Zoomed in, the grid's left or top edge leaves the canvas with its clues: they stay pinned to the canvas edge,
  // over a band, so every visible row and column keeps its clue.
  const [x0, y0] = cellToCss(0, 0);
  const right = Math.max(x0 - gap, rowWidth + gap);
  const bottom = Math.max(y0 - gap, colHeight + gap);
  const { width: canvasWidth, height: canvasHeight } = g.canvas;
  g.fillStyle = 'rgba(20, 22, 26, 0.85)';
  if (right > x0 - gap) g.fillRect(0, 0, right + gap, canvasHeight);
  if (bottom > y0 - gap) g.fillRect(0, 0, canvasWidth, bottom + gap);
  g.textAlign = 'right';
  // each band keeps to its side of the corner where they meet
  rowTexts.forEach((text, r) => {
    const y = cellToCss(0, r + 0.5)[1];
    g.fillStyle = broken?.rows.includes(r) ? BROKEN_INK : CLUE_INK;
    if (y > bottom + gap) g.fillText(text, right, y);
  });
  g.textAlign = 'center';
  p.columns.forEach((clue, c) => {
    const list = clue.length ? clue : [0];
    const x = cellToCss(c + 0.5, 0)[0];
    g.fillStyle = broken?.columns.includes(c) ? BROKEN_INK : CLUE_INK;
    if (x > right + gap) list.forEach((n, k) => g.fillText(String(n), x, bottom - (list.length - 1 - k + 0.5) * size * 1.15));
  });
}

function loaded(p: Nonogram, title: string): LoadedPuzzle {
  // a contradiction's lines, drawn in red until Reset
  let broken: { rows: number[]; columns: number[] } | undefined;
  const limit = gpuLimitError(p);
  if (limit) throw new Error(`${title}: ${limit}`);
  const layout = layoutOf(p.width, p.height);
  const input = (cells: ArrayLike<number>) => ({
    width: p.width,
    height: p.height,
    items: Math.max(p.width, p.height),
    state: packCopy(layout, cells),
    aux: packClues(p),
    // one copy, one copy per invocation (multi-gen runs ceil(copies / per invocation) invocations: a 0 there made it
    // Infinity and the fastest speeds failed), its clues in grid 0's aux: its own
    params: [1, 1, 0, 0],
  });
  return {
    kind: nonogramViewer,
    title: p.title ? `${title}: ${p.title}` : title,
    width: p.width,
    height: p.height,
    rule: nonogramRule(lineWordsFor(p)),
    input: input(initialCells(p)),
    complete: { kind: 'nonogram', method: 'full', puzzle: p, input: (solution) => input(Array.from(solution, (ch) => (ch === '1' ? FILLED : EMPTY))) },
    renderParams: [layout.rowF, layout.rowE, 0, 0],
    counterLabel: 'unknown cells',
    count: { shader: 'render/nonogram-count.wgsl', items: p.height * layout.wr, constants: { ROW_F: layout.rowF } },
    fitMargin: {
      left: Math.max(...p.rows.map((c) => Math.max(1, c.length))) * 1.2 + 0.5,
      top: Math.max(...p.columns.map((c) => Math.max(1, c.length))) * 0.75 + 0.5,
    },
    overlay: (g, cellToCss, cssPerCell) => drawClues(p, g, cellToCss, cssPerCell, broken),
    reset() {
      broken = undefined;
    },
    judge(outcome, state) {
      const copy = unpackCopy(layout, state);
      const generations = copy.generations;
      if (copy.contradiction || outcome.status === 'contradiction') {
        broken = brokenLines(p, copy.cells);
        return { status: 'contradiction', detail: `the clues contradict each other: no solution${lineNames(broken)}`, generations };
      }
      const unknown = copy.cells.reduce((n, c) => n + (c === 0 ? 1 : 0), 0);
      if (unknown > 0) return { status: 'stuck', detail: `line logic stalls with ${unknown} unknown cells after ${copy.generations} generations: this puzzle needs probing or search`, generations };
      if (!verifyAsCli('nonogram', p, solutionOf(layout, state), verify)) return { status: 'error', detail: 'verifier rejected the grid', generations };
      return { status: 'solved', detail: `solved by line logic in ${copy.generations} generations, checked by the verifier`, generations };
    },
  };
}

export const nonogramViewer: ViewerKind = {
  name: 'nonogram',
  shaders: ['render/nonogram.wgsl'],
  methods: ['line'],
  defaultMethod: 'line',
  samples: [
    { label: 'Nonogram 15x15 (STPPC Pattern)', file: 'nonogram-15x15.txt' },
    { label: 'Nonogram 25x25 (STPPC Pattern)', file: 'nonogram-25x25.txt' },
  ],
  detect: (fileName, bytes) => {
    if (/\.(non|nonpack|nin|pbn)$/i.test(fileName)) return true;
    const text = new TextDecoder().decode(bytes.subarray(0, 4096));
    // webpbn XML: a <puzzleset> or <puzzle type="grid"> near the start
    return /^\s*\d+x\d+:[\d./]+/m.test(text) || /^(width|height|rows|columns)\b/m.test(text) || /<puzzleset\b|<puzzle\s[^>]*type=["']grid["']/.test(text);
  },
  load(bytes, fileName, _method, index) {
    const { puzzle, title, count: puzzlesInInput } = nthPuzzle(parseAsCli('nonogram', bytes, fileName, () => parseNonograms(bytes, fileName)), fileName, 'nonogram', index);
    return { ...loaded(puzzle, title), puzzlesInInput };
  },
};
