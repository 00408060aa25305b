// Sudoku as src/puzzles/sudoku/pack.ts lays it out: one candidate mask per cell (bit v-1 = value v still possible),
// row-major. view.params.x = n. Drawing data (src/web/kind-sudoku.ts): aux[i] = 1 for a given, aux[n*n + i] = the
// region (box or jigsaw piece) of cell i, so region borders are drawn for every variant alike.
// A decided cell shows its digit (givens white, deductions blue), a cell with no candidate left is red
// (contradiction), an open cell shows its remaining candidates as small digits when there is room.

fn sudoku_region(x: u32, y: u32) -> u32 {
  let n = view.params.x;
  return aux[n * n + y * n + x];
}

fn cell_color(cell: vec2u, sub: vec2f) -> vec4f {
  let n = view.params.x;
  let i = cell.y * n + cell.x;
  let mask = state[view.stateOffset + i];
  let count = countOneBits(mask);
  let given = aux[i] == 1u;
  let px = 1.0 / max(view.pixelsPerCell, 1e-3);   // one pixel in cell units
  // borders: thick between regions, thin inside them
  let region = sudoku_region(cell.x, cell.y);
  let thick = 2.5 * px;
  if ((sub.x < thick && cell.x > 0u && sudoku_region(cell.x - 1u, cell.y) != region) ||
      (sub.y < thick && cell.y > 0u && sudoku_region(cell.x, cell.y - 1u) != region) ||
      (sub.x > 1.0 - thick && cell.x + 1u < n && sudoku_region(cell.x + 1u, cell.y) != region) ||
      (sub.y > 1.0 - thick && cell.y + 1u < n && sudoku_region(cell.x, cell.y + 1u) != region)) {
    return vec4f(0.85, 0.87, 0.9, 1.0);
  }
  if (view.pixelsPerCell >= 4.0 && (sub.x < px || sub.y < px)) {
    return vec4f(0.35, 0.38, 0.42, 1.0);
  }
  var paper = vec3f(0.13, 0.14, 0.16);
  if (given) {
    paper = vec3f(0.2, 0.21, 0.24);
  }
  if (count == 0u) {
    return vec4f(0.75, 0.15, 0.15, 1.0);
  }
  if (count == 1u) {
    let v = firstTrailingBit(mask) + 1u;
    if (glyph_hit(v, sub)) {
      if (given) {
        return vec4f(0.95, 0.95, 0.95, 1.0);
      }
      return vec4f(0.35, 0.7, 1.0, 1.0);
    }
    return vec4f(paper, 1.0);
  }
  // candidates: a k x k table of small digits, k = ceil(sqrt(n))
  let k = u32(ceil(sqrt(f32(n))));
  if (view.pixelsPerCell >= 6.0 * f32(k)) {
    let slot = vec2u(min(sub * f32(k), vec2f(f32(k) - 1.0)));
    let v = slot.y * k + slot.x + 1u;
    if (v <= n && ((mask >> (v - 1u)) & 1u) == 1u && glyph_hit(v, fract(sub * f32(k)))) {
      return vec4f(0.75, 0.62, 0.3, 1.0);
    }
    return vec4f(paper, 1.0);
  }
  // too small for digits: the fewer candidates left, the brighter
  let open = f32(count) / f32(n);
  return vec4f(mix(vec3f(0.3, 0.26, 0.15), paper, open), 1.0);
}
