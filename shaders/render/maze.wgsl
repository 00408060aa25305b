// Mazes as src/puzzles/maze/pack.ts lays them out: bit planes of ceil(width / 32) words per row, plane-major.
// Dead-end filling (view.params.x = 0): plane A = open, plane B = fake or terminal; code a | b << 1 is
// wall 0, open 1, fake 2, terminal 3. view.params.y = 1 once the run has ended: the cells still open are then the
// solution path (thesis 3.1.1: in a perfect maze dead-end filling leaves exactly the path), drawn salient so a
// one-cell path stays visible among thousands of cells per pixel. Selects, not branches: software rasterisers
// pay for every instruction on every pixel.

const MAZE_WALL: vec4f = vec4f(0.05, 0.055, 0.065, 1.0);
const MAZE_OPEN: vec4f = vec4f(0.92, 0.93, 0.95, 1.0);
const MAZE_FAKE: vec4f = vec4f(0.25, 0.32, 0.45, 1.0);
const MAZE_TERMINAL: vec4f = vec4f(0.2, 0.9, 0.35, 3.0);
const MAZE_PATH: vec4f = vec4f(1.0, 0.45, 0.1, 2.0);

fn cell_color(cell: vec2u, sub: vec2f) -> vec4f {
  let wordsPerRow = (view.gridSize.x + 31u) / 32u;
  let plane = wordsPerRow * view.gridSize.y;
  let word = cell.y * wordsPerRow + (cell.x >> 5u);
  let bit = cell.x & 31u;
  let code = state_bit(word, bit) | (state_bit(plane + word, bit) << 1u);
  let open = select(MAZE_OPEN, MAZE_PATH, view.params.y == 1u);
  let low = select(MAZE_WALL, open, code == 1u);
  let high = select(MAZE_FAKE, MAZE_TERMINAL, code == 3u);
  return select(low, high, code >= 2u);
}
