// Life cells as src/life/pack.ts lays them out: 1 bit per cell, rows of ceil(width / 32) words.
fn cell_color(cell: vec2u, sub: vec2f) -> vec4f {
  let wordsPerRow = (view.gridSize.x + 31u) / 32u;
  let alive = state_bit(cell.y * wordsPerRow + (cell.x >> 5u), cell.x & 31u) == 1u;
  // a faint lattice once cells are big enough to tell apart
  let lattice = view.pixelsPerCell >= 6.0 && (sub.x * view.pixelsPerCell < 1.0 || sub.y * view.pixelsPerCell < 1.0);
  let dead = select(vec4f(0.03, 0.035, 0.045, 1.0), vec4f(0.10, 0.11, 0.13, 1.0), lattice);
  return select(dead, vec4f(0.35, 0.95, 0.55, 2.0), alive);
}
