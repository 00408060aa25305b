// Mazes in the viewer: text or PNG through the maze codec (src/puzzles/maze/codec.ts), run by dead-end filling
// (thesis 3.1.1 with the fake-path state of thesis 4.1) on the maze kind's own shaders and packing. What is left
// open at the fixpoint is searched on the CPU once (the final state is read back once, not per frame) for the
// start-end path, which the maze verifier checks.
import type { GridInput, Rule } from '../engine/rule.ts';
import { parseMazes, pathToMoves, isPng, type Maze } from '../puzzles/maze/codec.ts';
import { generateMaze } from '../puzzles/maze/generate.ts';
import { packDeadend, unpackDeadend, wordsPerRow } from '../puzzles/maze/pack.ts';
import { bfsPath, FAKE, OPEN, TERMINAL, verifyMoves } from '../puzzles/maze/reference.ts';
import { textOf, type LoadedPuzzle, type ViewerKind } from './kinds.ts';

/** synchronous dead-end filling, one generation per dispatch: shaders/maze/deadend_sync.wgsl */
const deadendRule: Rule = {
  name: 'maze-deadend',
  files: ['maze/common.wgsl', 'maze/deadend_sync.wgsl'],
  entryPoints: ['deadend_step'],
  stateAccess: 'ping-pong',
  tracksCompletion: false,
};

function deadendInput(maze: Maze): GridInput {
  return { width: maze.width, height: maze.height, items: wordsPerRow(maze.width) * maze.height, state: packDeadend(maze), params: [maze.start, maze.end] };
}

function loaded(maze: Maze, title: string): LoadedPuzzle {
  const renderParams = [0, 0, 0, 0];
  return {
    kind: mazeViewer,
    title,
    width: maze.width,
    height: maze.height,
    rule: deadendRule,
    input: deadendInput(maze),
    renderParams,
    counterLabel: 'open cells not yet filled (falls to the path length)',
    count: { shader: 'render/maze-count.wgsl', items: wordsPerRow(maze.width) * maze.height },
    judge(outcome, words) {
      // params.y = 1: the palette draws the cells still open as the solution path
      renderParams[1] = 1;
      if (outcome.status !== 'fixpoint' && outcome.status !== 'done') return { status: 'unsolved', detail: outcome.status };
      const s = unpackDeadend(words, maze.width, maze.height);
      const left = new Uint8Array(s.length);
      let fake = 0;
      let remaining = 0;
      for (let i = 0; i < s.length; i++) {
        if (s[i] === OPEN || s[i] === TERMINAL) (left[i] = 1), remaining++;
        if (s[i] === FAKE) fake++;
      }
      const path = bfsPath(maze, left);
      if (!path) return { status: 'no path', detail: `${fake} cells filled as dead ends; start and end are not connected` };
      if (!verifyMoves(maze, pathToMoves(path, maze.width))) return { status: 'error', detail: 'verifier rejected the path' };
      const loops = remaining > path.length ? `; ${remaining - path.length} open cells on loops remain` : '';
      return { status: 'solved', detail: `path of ${path.length} cells, ${fake} dead-end cells filled in ${outcome.generations} generations${loops}` };
    },
  };
}

export const mazeViewer: ViewerKind = {
  name: 'maze',
  shaders: ['render/maze.wgsl'],
  methods: ['deadend'],
  defaultMethod: 'deadend',
  samples: [
    { label: 'Maze 101x101 (perfect)', file: 'maze-101.png' },
    { label: 'Maze 101x101 with loops', file: 'maze-101-loops.png' },
    { label: 'Maze 201x201 braid (mikepound)', file: 'maze-braid200.png' },
    { label: 'Maze 4001x4001 (mikepound perfect4k)', file: 'maze-perfect4k.png' },
  ],
  detect: (fileName, bytes) => isPng(bytes) || /\.maze$/i.test(fileName) || /^#{5,}\s*$/m.test(textOf(bytes.subarray(0, 4096))),
  load(bytes, fileName) {
    const records = parseMazes(bytes, fileName);
    const first = records[0];
    if (!first) throw new Error(`${fileName}: no maze in this input`);
    if (first.error || !first.maze) throw new Error(first.error ?? `${fileName}: unreadable maze`);
    return loaded(first.maze, records.length > 1 ? `${fileName} (first of ${records.length})` : fileName);
  },
  random: (width, height, seed) => loaded(generateMaze({ width, height, seed }), `generated ${width}x${height}, seed ${seed}`),
};
