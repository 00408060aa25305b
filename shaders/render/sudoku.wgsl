// Sudoku as src/puzzles/sudoku/pack.ts lays it out: one candidate mask per cell (bit v-1 = value v still possible),
// row-major. view.params.x = n. Drawing data (src/web/kind-sudoku.ts): aux[0..17) the font, then one word per
// cell: bit 0 = given, bits 1..4 = thick border on the left, top, right, bottom (region edges, any variant).
// A decided cell shows its digit (givens white, deductions blue), a cell with no candidate left is red
// (contradiction), an open cell shows its remaining candidates as small digits when there is room.
// Written branch-light: software rasterisers pay for every instruction on every pixel.

const SUDOKU_FONT_WORDS: u32 = 17u;

fn cell_color(cell: vec2u, sub: vec2f) -> vec4f {
  let n = view.params.x;
  let i = cell.y * n + cell.x;
  let mask = state[view.stateOffset + i];
  let info = aux[SUDOKU_FONT_WORDS + i];
  let count = countOneBits(mask);
  let given = (info & 1u) == 1u;
  let px = 1.0 / max(view.pixelsPerCell, 1e-3);   // one pixel in cell units
  let thick = 2.5 * px;
  let edge = vec4<bool>((sub.x < thick), (sub.y < thick), (sub.x > 1.0 - thick), (sub.y > 1.0 - thick));
  let borders = vec4<bool>((info & 2u) != 0u, (info & 4u) != 0u, (info & 8u) != 0u, (info & 16u) != 0u);
  if (any(edge & borders)) {
    return vec4f(0.85, 0.87, 0.9, 1.0);
  }
  if (view.pixelsPerCell >= 4.0 && (sub.x < px || sub.y < px)) {
    return vec4f(0.35, 0.38, 0.42, 1.0);
  }
  if (count == 0u) {
    return vec4f(0.75, 0.15, 0.15, 1.0);
  }
  let paper = select(vec3f(0.13, 0.14, 0.16), vec3f(0.2, 0.21, 0.24), given);
  // a decided cell: its digit fills the cell; an open one: a k x k table of small candidate digits,
  // k = ceil(sqrt(n)), when cells are large enough to read them
  let k = select(u32(ceil(sqrt(f32(n)))), 1u, count == 1u);
  let slot = vec2u(min(sub * f32(k), vec2f(f32(k) - 1.0)));
  let v = select(slot.y * k + slot.x + 1u, firstTrailingBit(mask) + 1u, count == 1u);
  let glyph = aux[min(v, SUDOKU_FONT_WORDS - 1u)];
  let candidateShown = v <= n && ((mask >> (v - 1u)) & 1u) == 1u && view.pixelsPerCell >= 6.0 * f32(k);
  if ((count == 1u || candidateShown) && glyph_hit(glyph, fract(sub * f32(k)))) {
    if (count > 1u) {
      return vec4f(0.75, 0.62, 0.3, 1.0);
    }
    return select(vec4f(0.35, 0.7, 1.0, 1.0), vec4f(0.95, 0.95, 0.95, 1.0), given);
  }
  if (count > 1u && view.pixelsPerCell < 6.0 * f32(k)) {
    // too small for candidate digits: the fewer candidates left, the brighter
    return vec4f(mix(vec3f(0.3, 0.26, 0.15), paper, f32(count) / f32(n)), 1.0);
  }
  return vec4f(paper, 1.0);
}
