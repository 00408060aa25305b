// Nonograms as src/puzzles/nonogram/pack.ts lays out one copy: a 3-word header, then the filled plane of the rows
// (height rows of wr = ceil(width / 32) words) and the empty plane, at view.params.x / view.params.y words from the
// grid's start. Filled cells dark ink, empty cells paper with a dot, unknown grey, both (contradiction) red.
// Every fifth line of the lattice is stronger, as on printed nonograms. Selects, not branches (software
// rasterisers run every instruction on every pixel).

fn cell_color(cell: vec2u, sub: vec2f) -> vec4f {
  let wr = (view.gridSize.x + 31u) / 32u;
  let word = cell.y * wr + (cell.x >> 5u);
  let bit = cell.x & 31u;
  let filled = state_bit(view.params.x + word, bit) == 1u;
  let empty = state_bit(view.params.y + word, bit) == 1u;
  let px = 1.0 / max(view.pixelsPerCell, 1e-3);
  let d = sub - vec2f(0.5);
  let dot = dot(d, d) < 0.012;
  var c = vec4f(0.42, 0.44, 0.48, 1.0);                                   // unknown
  c = select(c, select(vec4f(0.93, 0.93, 0.9, 1.0), vec4f(0.6, 0.6, 0.6, 1.0), dot && view.pixelsPerCell >= 8.0), empty);
  c = select(c, vec4f(0.08, 0.09, 0.12, 2.0), filled);
  c = select(c, vec4f(0.85, 0.15, 0.15, 3.0), filled && empty);
  let fifthX = (cell.x % 5u == 0u && sub.x < 2.0 * px) || (cell.x % 5u == 4u && sub.x > 1.0 - 2.0 * px);
  let fifthY = (cell.y % 5u == 0u && sub.y < 2.0 * px) || (cell.y % 5u == 4u && sub.y > 1.0 - 2.0 * px);
  // each cell draws its left and top edges, and the last column and row the grid's right and bottom ones
  let outer = (cell.x + 1u == view.gridSize.x && sub.x > 1.0 - px) || (cell.y + 1u == view.gridSize.y && sub.y > 1.0 - px);
  let thin = sub.x < px || sub.y < px || outer;
  c = select(c, vec4f(0.55, 0.58, 0.62, 1.0), thin && view.pixelsPerCell >= 4.0);
  c = select(c, vec4f(0.2, 0.45, 0.8, 1.0), (fifthX || fifthY) && view.pixelsPerCell >= 6.0);
  return c;
}
