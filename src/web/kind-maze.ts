// Mazes in the viewer: text or PNG through the maze codec (src/puzzles/maze/codec.ts), run by the maze kind's own
// engine rules and packing (src/puzzles/maze/solver.ts):
//   deadend         dead-end filling, one synchronous generation per dispatch (thesis 3.1.1 + the fake-path state
//                   of thesis 4.1): watch the dead ends fill;
//   deadend-chains  the same fill in place, regions to their local fixpoint per dispatch (fast on big mazes);
//   wavefront       distance from the start modulo 3, then the path traced back on the host;
//   walker          thesis 3.1.2's walking automaton.
// The final state is read once at the end (not per frame) for the start-end path, which the maze verifier checks.
import type { GridInput, Rule } from '../engine/rule.ts';
import { isPng, parseMazes, pathToMoves, type Maze } from '../puzzles/maze/codec.ts';
import { generateMaze } from '../puzzles/maze/generate.ts';
import { unpackDeadend, unpackWalker, unpackWavefront, wordsPerRow } from '../puzzles/maze/pack.ts';
import { bfsPath, FAKE, OPEN, TERMINAL, traceBack, verifyMoves, W } from '../puzzles/maze/reference.ts';
import { deadendChainsRule, deadendInput, deadendSyncRule, walkerInput, walkerPath, walkerRule, wavefrontInput, wavefrontRule } from '../puzzles/maze/solver.ts';
import { nthPuzzle, parseAsCli, textOf, verifyAsCli, type Judgement, type LoadedPuzzle, type ViewerKind } from './kind-api.ts';

interface MazeMethod {
  rule: Rule;
  input(maze: Maze): GridInput;
  shaders: string[];
  /** drawing data beyond the state (the open plane, then the path plane once it is known) */
  renderAux?(maze: Maze): Uint32Array;
  count?: { shader: string; items: (maze: Maze) => number; label: string };
  /** the start-end path found in the final state, or a judgement when there is none */
  path(maze: Maze, words: Uint32Array): number[] | Judgement;
}

/** a cell set as bit planes (pack.ts layout: rows of ceil(width / 32) words) */
function plane(maze: Maze, cells: Iterable<number> | Uint8Array, into = new Uint32Array(wordsPerRow(maze.width) * maze.height), at = 0): Uint32Array {
  const wpr = wordsPerRow(maze.width);
  const set = (i: number) => {
    const y = Math.floor(i / maze.width);
    const x = i % maze.width;
    into[at + y * wpr + (x >> 5)] |= 1 << (x & 31);
  };
  if (cells instanceof Uint8Array) cells.forEach((v, i) => v && set(i));
  else for (const i of cells) set(i);
  return into;
}

/** dead-end filling leaves the path (and any loops): the shortest start-end path over what is left */
function deadendPathOf(maze: Maze, words: Uint32Array): number[] | Judgement {
  const s = unpackDeadend(words, maze.width, maze.height);
  const left = new Uint8Array(s.length);
  let fake = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === OPEN || s[i] === TERMINAL) left[i] = 1;
    if (s[i] === FAKE) fake++;
  }
  return bfsPath(maze, left) ?? { status: 'no path', detail: `${fake} cells filled as dead ends; start and end are not connected` };
}

const deadendCount = { shader: 'render/maze-count.wgsl', items: (m: Maze) => wordsPerRow(m.width) * m.height, label: 'open cells left (falls to the path)' };

const methods: Record<string, MazeMethod> = {
  deadend: {
    rule: deadendSyncRule,
    input: (m) => deadendInput(m, m.open, 'one-gen'),
    shaders: ['render/maze.wgsl'],
    count: deadendCount,
    path: deadendPathOf,
  },
  'deadend-chains': {
    rule: deadendChainsRule,
    input: (m) => deadendInput(m, m.open, 'multi-gen'),
    shaders: ['render/maze.wgsl'],
    count: deadendCount,
    path: deadendPathOf,
  },
  wavefront: {
    rule: wavefrontRule,
    input: (m) => wavefrontInput(m, m.open, 'multi-gen'),
    shaders: ['render/maze-wavefront.wgsl'],
    renderAux: (m) => plane(m, m.open, new Uint32Array(2 * wordsPerRow(m.width) * m.height)),
    count: { shader: 'render/maze-wavefront-count.wgsl', items: (m) => wordsPerRow(m.width) * m.height, label: 'cells reached by the wavefront' },
    path(m, words) {
      const traced = traceBack(m, unpackWavefront(words, m.width, m.height));
      return traced?.path ?? { status: 'no path', detail: 'the wavefront never reached the end: start and end are not connected' };
    },
  },
  walker: {
    rule: walkerRule,
    input: (m) => walkerInput(m),
    shaders: ['render/maze-walker.wgsl'],
    path(m, words) {
      const s = unpackWalker(words, m.width, m.height);
      const walked = Uint8Array.from(s, (v) => (v === W.START || v === W.WALKED || v === W.WALKED_CROSS || v === W.EXIT ? 1 : 0));
      // a perfect maze leaves one walked path; with loops the walk keeps them, and the shortest walked path is shown
      return walkerPath(m, s) ?? bfsPath(m, walked) ?? { status: 'stuck', detail: 'the walker stopped without reaching the exit' };
    },
  },
};

function loaded(maze: Maze, title: string, methodName: string): LoadedPuzzle {
  const method = methods[methodName] ?? methods.deadend;
  const renderParams = [0, 0, 0, 0];
  const renderAux = method.renderAux?.(maze);
  return {
    kind: mazeViewer,
    title: `${title}, ${methodName}`,
    width: maze.width,
    height: maze.height,
    rule: method.rule,
    input: method.input(maze),
    shaders: method.shaders,
    renderParams,
    renderAux,
    counterLabel: method.count?.label,
    count: method.count && { shader: method.count.shader, items: method.count.items(maze) },
    reset: () => (renderParams[1] = 0),
    judge(outcome, words) {
      if (outcome.status !== 'fixpoint' && outcome.status !== 'done') return { status: 'unsolved', detail: outcome.status };
      const found = method.path(maze, words);
      if (!Array.isArray(found)) return found;
      if (!verifyAsCli('maze', maze, pathToMoves(found, maze.width), verifyMoves)) return { status: 'error', detail: 'verifier rejected the path' };
      // params.y = 1: the palette draws the path (deadend: the cells left open; wavefront: the path plane in aux)
      renderParams[1] = 1;
      const result: Judgement = { status: 'solved', detail: `path of ${found.length} cells after ${plural(outcome.generations, 'generation')}, checked by the verifier` };
      if (renderAux) result.renderAux = plane(maze, found, renderAux.slice(), wordsPerRow(maze.width) * maze.height);
      return result;
    },
  };
}

export const mazeViewer: ViewerKind = {
  name: 'maze',
  shaders: ['render/maze.wgsl'],
  methods: Object.keys(methods),
  defaultMethod: 'deadend',
  samples: [
    { label: 'Maze 101x101 (perfect)', file: 'maze-101.png' },
    { label: 'Maze 101x101 with loops', file: 'maze-101-loops.png' },
    { label: 'Maze 201x201 braid (mikepound)', file: 'maze-braid200.png' },
    { label: 'Maze 4001x4001 (mikepound perfect4k)', file: 'maze-perfect4k.png' },
  ],
  detect: (fileName, bytes) => isPng(bytes) || /\.maze$/i.test(fileName) || /^#{5,}\s*$/m.test(textOf(bytes.subarray(0, 4096))),
  load(bytes, fileName, method, index) {
    const { puzzle, title, count: puzzlesInInput } = nthPuzzle(
      parseAsCli<Maze>('maze', bytes, fileName, () => parseMazes(bytes, fileName).map((r) => ({ file: fileName, line: r.line, puzzle: r.maze, error: r.error }))),
      fileName,
      'maze',
      index,
    );
    return { ...loaded(puzzle, title, method), puzzlesInInput };
  },
  random: (width, height, seed, method) => loaded(generateMaze({ width, height, seed }), `generated ${width}x${height}, seed ${seed}`, method),
};

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
