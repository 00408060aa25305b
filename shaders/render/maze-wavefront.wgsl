// The maze wavefront (src/puzzles/maze/pack.ts packWavefront): planes lo and hi hold the label of every cell,
// 0 = not reached, 1 + distance from the start mod 3. Walls are not in the state: aux holds the open plane, then
// (once the run has ended and the host traced the path back, view.params.y = 1) the path plane. Reached cells
// cycle through three shades, so the front shows as moving bands.

const WAVE_WALL: vec4f = vec4f(0.05, 0.055, 0.065, 1.0);
const WAVE_OPEN: vec4f = vec4f(0.92, 0.93, 0.95, 1.0);
const WAVE_PATH: vec4f = vec4f(1.0, 0.45, 0.1, 2.0);

fn cell_color(cell: vec2u, sub: vec2f) -> vec4f {
  let wordsPerRow = (view.gridSize.x + 31u) / 32u;
  let plane = wordsPerRow * view.gridSize.y;
  let word = cell.y * wordsPerRow + (cell.x >> 5u);
  let bit = cell.x & 31u;
  let label = state_bit(word, bit) | (state_bit(plane + word, bit) << 1u);
  let open = ((aux[word] >> bit) & 1u) == 1u;
  let onPath = view.params.y == 1u && ((aux[plane + word] >> bit) & 1u) == 1u;
  let shade = f32(label) / 3.0;
  let reached = vec4f(mix(vec3f(0.2, 0.35, 0.7), vec3f(0.45, 0.75, 0.95), shade), 1.0);
  var c = select(WAVE_OPEN, reached, label != 0u);
  c = select(WAVE_WALL, c, open);
  return select(c, WAVE_PATH, onPath);
}
