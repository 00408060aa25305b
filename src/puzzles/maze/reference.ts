// CPU twins of the maze rules (the test oracles) and the verifier. Every GPU rule in shaders/maze has its twin
// here; tests run both on the same mazes and compare the states cell for cell.
import { movesToPath, type Maze } from './codec.ts';

// Dead-end filling states, 2 bits per cell (thesis 3.1.1 with the third state of thesis 4.1).
export const WALL = 0;
export const OPEN = 1;
/** a fake path: filled as a dead end, but kept visible (thesis 4.1's "state 3") */
export const FAKE = 2;
/** start or end: open and never filled */
export const TERMINAL = 3;

export function initialDeadendState(maze: Maze, open: Uint8Array = maze.open): Uint8Array {
  const s = new Uint8Array(maze.width * maze.height);
  for (let i = 0; i < s.length; i++) s[i] = open[i] ? OPEN : WALL;
  s[maze.start] = TERMINAL;
  s[maze.end] = TERMINAL;
  return s;
}

const isOpen = (v: number) => v === OPEN || v === TERMINAL;

function openNeighbours(s: Uint8Array, w: number, h: number, i: number): number {
  const x = i % w;
  let n = 0;
  if (x > 0 && isOpen(s[i - 1])) n++;
  if (x < w - 1 && isOpen(s[i + 1])) n++;
  if (i >= w && isOpen(s[i - w])) n++;
  if (i + w < w * h && isOpen(s[i + w])) n++;
  return n;
}

/**
 * One synchronous generation of dead-end filling (thesis 3.1.1: "if a cell is white and it has exactly one white
 * neighbour, the cell becomes black"; a white cell with none is a dead end too). Returns whether anything changed.
 */
export function deadendStep(s: Uint8Array, w: number, h: number): { next: Uint8Array; changed: boolean } {
  const next = s.slice();
  let changed = false;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === OPEN && openNeighbours(s, w, h, i) <= 1) {
      next[i] = FAKE;
      changed = true;
    }
  }
  return { next, changed };
}

/**
 * Dead-end filling to its fixpoint in O(cells): cells are peeled in layers exactly as the synchronous automaton
 * fills them, so `generations` is the synchronous generation count (the length of the longest fake path).
 */
export function deadendFill(maze: Maze, open: Uint8Array = maze.open): { state: Uint8Array; generations: number } {
  const { width: w, height: h } = maze;
  const s = initialDeadendState(maze, open);
  const deg = new Uint8Array(w * h);
  let layer: number[] = [];
  for (let i = 0; i < s.length; i++) {
    if (!isOpen(s[i])) continue;
    deg[i] = openNeighbours(s, w, h, i);
    if (s[i] === OPEN && deg[i] <= 1) layer.push(i);
  }
  let generations = 0;
  while (layer.length) {
    generations++;
    for (const i of layer) s[i] = FAKE;
    const next: number[] = [];
    for (const i of layer) {
      const x = i % w;
      const visit = (j: number) => {
        if (!isOpen(s[j])) return;
        deg[j]--;
        if (s[j] === OPEN && deg[j] === 1) next.push(j);
      };
      if (x > 0) visit(i - 1);
      if (x < w - 1) visit(i + 1);
      if (i >= w) visit(i - w);
      if (i + w < w * h) visit(i + w);
    }
    // a cell is queued when its degree reaches 1; if it drops on to 0 in the same layer it is queued already
    layer = next;
  }
  return { state: s, generations };
}

/** Shortest path by breadth-first search over open cells (the CPU baseline), or null when there is none. */
export function bfsPath(maze: Maze, open: Uint8Array = maze.open): number[] | null {
  const { width: w, height: h, start, end } = maze;
  const parent = new Int32Array(w * h).fill(-1);
  const queue = new Int32Array(w * h);
  let head = 0;
  let tail = 0;
  queue[tail++] = start;
  parent[start] = start;
  while (head < tail) {
    const i = queue[head++];
    if (i === end) break;
    const x = i % w;
    if (x > 0 && open[i - 1] && parent[i - 1] < 0) (parent[i - 1] = i), (queue[tail++] = i - 1);
    if (x < w - 1 && open[i + 1] && parent[i + 1] < 0) (parent[i + 1] = i), (queue[tail++] = i + 1);
    if (i >= w && open[i - w] && parent[i - w] < 0) (parent[i - w] = i), (queue[tail++] = i - w);
    if (i + w < w * h && open[i + w] && parent[i + w] < 0) (parent[i + w] = i), (queue[tail++] = i + w);
  }
  if (parent[end] < 0) return null;
  const path = [end];
  for (let i = end; i !== start; ) path.push((i = parent[i]));
  return path.reverse();
}

/** The verifier: a move string from the start that walks over open cells, never twice, and ends at the end. */
export function verifyMoves(maze: Maze, moves: string): boolean {
  const path = movesToPath(maze, moves);
  if (!path || path[path.length - 1] !== maze.end) return false;
  const seen = new Set<number>();
  for (const i of path) {
    if (!maze.open[i] || seen.has(i)) return false;
    seen.add(i);
  }
  return true;
}

/**
 * When the open cells left by a solver form one simple path from start to end (every inner cell with exactly two
 * open neighbours), that path; otherwise null (loops remain, or start and end are not connected).
 */
export function simplePath(maze: Maze, open: (i: number) => boolean): number[] | null {
  const { width: w, height: h, start, end } = maze;
  if (start === end) return [start];
  const path = [start];
  let prev = -1;
  let cur = start;
  for (;;) {
    // the open neighbours of cur other than prev: exactly one, or this is not a simple path
    const x = cur % w;
    let next = -1;
    let count = 0;
    if (x > 0 && cur - 1 !== prev && open(cur - 1)) (next = cur - 1), count++;
    if (x < w - 1 && cur + 1 !== prev && open(cur + 1)) (next = cur + 1), count++;
    if (cur >= w && cur - w !== prev && open(cur - w)) (next = cur - w), count++;
    if (cur + w < w * h && cur + w !== prev && open(cur + w)) (next = cur + w), count++;
    if (count !== 1) return null;
    path.push(next);
    if (next === end) return path;
    if (path.length > w * h) return null;
    prev = cur;
    cur = next;
  }
}

// ---- wavefront (distance modulo 3) ----

/** distance labels: 0 = not reached, 1 + (distance mod 3) once reached */
export function wavefrontLabels(maze: Maze, open: Uint8Array = maze.open, stopAtEnd = true): { labels: Uint8Array; dist: Int32Array; generations: number } {
  const { width: w, height: h, start, end } = maze;
  const dist = new Int32Array(w * h).fill(-1);
  const labels = new Uint8Array(w * h);
  let frontier = [start];
  dist[start] = 0;
  labels[start] = 1;
  let g = 0;
  // the GPU wave stops once the end is reached (one generation per dispatch: exactly at generation dist(end))
  while (frontier.length && (dist[end] < 0 || !stopAtEnd)) {
    g++;
    const next: number[] = [];
    for (const i of frontier) {
      const x = i % w;
      for (const j of [x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, i - w, i + w]) {
        if (j < 0 || j >= w * h || !open[j] || dist[j] >= 0) continue;
        dist[j] = g;
        labels[j] = 1 + (g % 3);
        next.push(j);
      }
    }
    frontier = next;
  }
  // the automaton reports the generation that last changed something
  return { labels, dist, generations: dist[end] >= 0 ? dist[end] : g - 1 };
}

/**
 * Trace-back from the end over distance labels (mod 3): from a cell labelled d, a neighbour labelled d - 1 is one
 * step nearer the start (neighbours' distances differ by at most 1, and d - 1, d, d + 1 differ mod 3). Also counts
 * the shortest paths (capped at 2) over the whole shortest-path DAG, to say whether the path is the only one.
 */
export function traceBack(maze: Maze, labelsIn: Uint8Array | ((i: number) => number)): { path: number[]; unique: boolean } | null {
  const { width: w, height: h, start, end } = maze;
  const label = typeof labelsIn === 'function' ? labelsIn : (i: number) => labelsIn[i];
  if (!label(end)) return null;
  const nbrs = (i: number) => {
    const x = i % w;
    return [x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, i >= w ? i - w : -1, i + w < w * h ? i + w : -1];
  };
  const prevLabel = (l: number) => ((l + 1) % 3) + 1; // label of distance d - 1 when l = 1 + d mod 3
  // level by level towards the start: count[v] = number of shortest paths from v to the end, capped at 2
  const count = new Map<number, number>([[end, 1]]);
  let level = [end];
  const path = [end];
  while (level.length && !count.has(start)) {
    const nextCount = new Map<number, number>();
    for (const i of level) {
      const want = prevLabel(label(i));
      for (const j of nbrs(i)) {
        if (j < 0 || label(j) !== want) continue;
        nextCount.set(j, Math.min(2, (nextCount.get(j) ?? 0) + count.get(i)!));
      }
    }
    if (nextCount.size === 0) return null;
    // the path follows the first predecessor of its last cell
    const last = path[path.length - 1];
    const want = prevLabel(label(last));
    const step = nbrs(last).find((j) => j >= 0 && label(j) === want && nextCount.has(j))!;
    path.push(step);
    count.clear();
    for (const [k, v] of nextCount) count.set(k, v);
    level = [...nextCount.keys()];
    if (nextCount.has(start)) break;
  }
  if (path[path.length - 1] !== start) return null;
  return { path: path.reverse(), unique: count.get(start) === 1 };
}

// ---- walker (thesis 3.1.2) ----

/** the walker's 8 states (thesis 3.1.2 symbols in comments) */
export const W = {
  WALL: 0, // 0
  PATH: 1, // X: path not yet walked
  CROSS: 2, // T: cross-road not yet walked
  START: 3, // 9: the entrance, where the walk begins
  WALKED: 4, // 2: walked path
  WALKED_CROSS: 5, // 5: walked cross-road
  FAKE: 6, // -: fake path
  EXIT: 7, // 8: the exit
} as const;

export function initialWalkerState(maze: Maze, open: Uint8Array = maze.open): Uint8Array {
  const s = new Uint8Array(maze.width * maze.height);
  for (let i = 0; i < s.length; i++) s[i] = open[i] ? W.PATH : W.WALL;
  s[maze.start] = W.START;
  s[maze.end] = W.EXIT;
  return s;
}

/**
 * One synchronous generation of the walker (thesis 3.1.2), von Neumann neighbourhood:
 * - an unwalked path cell next to the walk (start, walked, walked cross-road) is walked; one with three or more
 *   passable neighbours is a cross-road (marked when first seen, walked when reached);
 * - a walked cell or cross-road with at most one passable neighbour (not wall, not fake) is a fake path: the
 *   walk backs out of a dead end and marks it `-` back to the cross-road, which follows once all but one of its
 *   ways are fake.
 * Start and exit never change. The walk ends at a fixpoint; it has reached the exit when a walked cell touches it.
 */
export function walkerStep(s: Uint8Array, w: number, h: number): { next: Uint8Array; changed: boolean } {
  const next = s.slice();
  let changed = false;
  for (let i = 0; i < s.length; i++) {
    const v = s[i];
    if (v === W.WALL || v === W.START || v === W.EXIT || v === W.FAKE) continue;
    const x = i % w;
    let passable = 0;
    let active = false;
    for (const j of [x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, i - w, i + w]) {
      if (j < 0 || j >= w * h) continue;
      const u = s[j];
      if (u !== W.WALL && u !== W.FAKE) passable++;
      if (u === W.START || u === W.WALKED || u === W.WALKED_CROSS) active = true;
    }
    let n = v;
    if (v === W.PATH) n = active ? (passable >= 3 ? W.WALKED_CROSS : W.WALKED) : passable >= 3 ? W.CROSS : W.PATH;
    else if (v === W.CROSS) n = active ? W.WALKED_CROSS : W.CROSS;
    else if (passable <= 1) n = W.FAKE; // WALKED or WALKED_CROSS at a dead end
    if (n !== v) {
      next[i] = n;
      changed = true;
    }
  }
  return { next, changed };
}

export function walkerRun(maze: Maze, maxGenerations = Infinity): { state: Uint8Array; generations: number } {
  let s = initialWalkerState(maze);
  let generations = 0;
  while (generations < maxGenerations) {
    const { next, changed } = walkerStep(s, maze.width, maze.height);
    if (!changed) break;
    s = next;
    generations++;
  }
  return { state: s, generations };
}

/**
 * The same synchronous walker, in O(changes) per generation: a cell can only change when it or a neighbour
 * changed in the previous generation, so only those cells are evaluated (what makes 1001x1001 affordable).
 */
export function walkerRunFast(maze: Maze, maxGenerations = Infinity): { state: Uint8Array; generations: number } {
  const { width: w, height: h } = maze;
  let s = initialWalkerState(maze);
  const mark = new Int32Array(w * h).fill(-1);
  let candidates: number[] = [];
  for (let i = 0; i < s.length; i++) candidates.push(i);
  let generations = 0;
  const changes: number[] = [];
  const values: number[] = [];
  while (generations < maxGenerations) {
    changes.length = 0;
    values.length = 0;
    for (const i of candidates) {
      const v = s[i];
      if (v === W.WALL || v === W.START || v === W.EXIT || v === W.FAKE) continue;
      const x = i % w;
      let passable = 0;
      let active = false;
      for (const j of [x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, i - w, i + w]) {
        if (j < 0 || j >= w * h) continue;
        const u = s[j];
        if (u !== W.WALL && u !== W.FAKE) passable++;
        if (u === W.START || u === W.WALKED || u === W.WALKED_CROSS) active = true;
      }
      let n = v;
      if (v === W.PATH) n = active ? (passable >= 3 ? W.WALKED_CROSS : W.WALKED) : passable >= 3 ? W.CROSS : W.PATH;
      else if (v === W.CROSS) n = active ? W.WALKED_CROSS : W.CROSS;
      else if (passable <= 1) n = W.FAKE;
      if (n !== v) {
        changes.push(i);
        values.push(n);
      }
    }
    if (!changes.length) break;
    generations++;
    const next: number[] = [];
    for (let k = 0; k < changes.length; k++) {
      const i = changes[k];
      s[i] = values[k];
      const x = i % w;
      for (const j of [i, x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, i - w, i + w]) {
        if (j < 0 || j >= w * h || mark[j] === generations) continue;
        mark[j] = generations;
        next.push(j);
      }
    }
    candidates = next;
  }
  return { state: s, generations };
}
