// Maze generator for `cellsolve gen maze`: perfect mazes (exactly one path between any two cells) on the lattice
// of odd coordinates, so no 2x2 square is ever open (thesis 3.1.1), optionally with a chosen number of loops.
// The entrance is a gap in the top row, the exit a gap in the bottom row (as in the mikepound images).
import { rng } from '../random.ts';
import type { Maze } from './codec.ts';

export type Algorithm = 'dfs' | 'kruskal';

export interface GenerateMazeOptions {
  width: number;
  height: number;
  seed: number;
  /** walls opened after carving: each adds one loop */
  loops?: number;
  /** dfs (randomized depth-first: long winding corridors, long dead ends) or kruskal (many short dead ends) */
  algorithm?: Algorithm;
}

/**
 * A maze of `width` x `height` cells (walls included), at least 3x3. Passages sit at odd coordinates; an even
 * width or height leaves one extra wall column or row at the right or bottom.
 */
/** Past this a maze's cells (a byte each while generated) and its PNG (4 bytes a pixel) outgrow Node's buffers. */
const MAX_GENERATED_CELLS = 1 << 28;

/** Why a maze of W x H cells cannot be generated, or null. */
export function mazeSizeProblem(W: number, H: number): string | null {
  if (W < 3 || H < 3) return `a maze needs at least 3x3 cells (got ${W}x${H})`;
  if (W * H > MAX_GENERATED_CELLS) return `a generated maze has at most ${MAX_GENERATED_CELLS.toLocaleString('en-US')} cells, 16384x16384 (got ${W}x${H})`;
  return null;
}

/**
 * The loops a W x H maze can take: the lattice walls a perfect maze leaves closed. Its (W-1)/2 x (H-1)/2 lattice
 * cells have (cw-1)ch + cw(ch-1) walls between them, the spanning tree opens cw*ch - 1, so (cw-1)(ch-1) stay.
 * generateMaze opens at most that many; the command line refuses more (`gen maze --loops`).
 */
export function maxLoops(W: number, H: number): number {
  return Math.max(0, ((W - 1) >> 1) - 1) * Math.max(0, ((H - 1) >> 1) - 1);
}

export function generateMaze(opts: GenerateMazeOptions): Maze {
  const { width: W, height: H } = opts;
  const problem = mazeSizeProblem(W, H);
  if (problem) throw new Error(problem);
  const rand = rng(opts.seed);
  const pick = (n: number) => Math.floor(rand() * n);
  const cw = (W - 1) >> 1; // lattice cells across
  const ch = (H - 1) >> 1;
  const open = new Uint8Array(W * H);
  const at = (cx: number, cy: number) => (2 * cy + 1) * W + 2 * cx + 1;
  if ((opts.algorithm ?? 'dfs') === 'dfs') {
    const seen = new Uint8Array(cw * ch);
    const stack = new Int32Array(cw * ch);
    let top = 0;
    const first = pick(cw * ch);
    stack[top++] = first;
    seen[first] = 1;
    open[at(first % cw, Math.floor(first / cw))] = 1;
    const dirs = [1, -1, cw, -cw];
    const options: number[] = [];
    while (top > 0) {
      const c = stack[top - 1];
      const cx = c % cw;
      options.length = 0;
      for (const d of dirs) {
        const n = c + d;
        if ((d === 1 && cx === cw - 1) || (d === -1 && cx === 0) || n < 0 || n >= cw * ch || seen[n]) continue;
        options.push(n);
      }
      if (!options.length) {
        top--;
        continue;
      }
      const n = options[pick(options.length)];
      seen[n] = 1;
      const a = at(cx, Math.floor(c / cw));
      const b = at(n % cw, Math.floor(n / cw));
      open[b] = 1;
      open[(a + b) >> 1] = 1;
      stack[top++] = n;
    }
  } else {
    // randomized Kruskal: shuffle every lattice wall, open it when it joins two different trees
    const parent = new Int32Array(cw * ch).map((_, i) => i);
    const find = (i: number): number => {
      while (parent[i] !== i) i = parent[i] = parent[parent[i]];
      return i;
    };
    const walls: number[] = [];
    for (let cy = 0; cy < ch; cy++) {
      for (let cx = 0; cx < cw; cx++) {
        open[at(cx, cy)] = 1;
        if (cx + 1 < cw) walls.push((cy * cw + cx) * 2);
        if (cy + 1 < ch) walls.push((cy * cw + cx) * 2 + 1);
      }
    }
    for (let i = walls.length - 1; i > 0; i--) {
      const j = pick(i + 1);
      [walls[i], walls[j]] = [walls[j], walls[i]];
    }
    for (const wall of walls) {
      const c = wall >> 1;
      const n = wall & 1 ? c + cw : c + 1;
      const a = find(c);
      const b = find(n);
      if (a === b) continue;
      parent[a] = b;
      open[(at(c % cw, Math.floor(c / cw)) + at(n % cw, Math.floor(n / cw))) >> 1] = 1;
    }
  }
  if (opts.loops) addLoops(open, W, H, cw, ch, opts.loops, pick);
  // entrance in the top row, exit in the bottom row, both above/below a passage column
  const sx = 2 * pick(cw) + 1;
  const ex = 2 * pick(cw) + 1;
  const start = sx;
  const end = (H - 1) * W + ex;
  open[start] = 1;
  open[end] = 1;
  // an even height leaves row H-2 a wall row: open the exit's column through it
  for (let y = 2 * ch; y < H - 1; y++) open[y * W + ex] = 1;
  return { width: W, height: H, open, start, end };
}

/** Opens `loops` distinct lattice walls between two passages; each one closes exactly one cycle. */
function addLoops(open: Uint8Array, W: number, H: number, cw: number, ch: number, loops: number, pick: (n: number) => number) {
  const candidates: number[] = [];
  for (let y = 1; y < 2 * ch; y++) {
    for (let x = 1; x < 2 * cw; x++) {
      if ((x + y) % 2 === 0 || open[y * W + x]) continue; // a lattice wall: one coordinate odd, one even
      candidates.push(y * W + x);
    }
  }
  for (let k = 0; k < loops && candidates.length; k++) {
    const j = pick(candidates.length);
    open[candidates[j]] = 1;
    candidates[j] = candidates[candidates.length - 1];
    candidates.pop();
  }
  void H;
}
