// Binary puzzles (Takuzu / Unruly): the palette shared by both automata's layouts (binary-ca.wgsl, binary-thesis.wgsl
// define cell_color from their state words and call binary_palette). 0 light, 1 dark blue, unknown grey; givens a
// shade apart from deductions; the digit is drawn once cells are large enough. Drawing data (src/web/kind-binary.ts):
// aux[0..17) the font, then one word per cell, 1 = given. Selects, not branches (software rasterisers run every
// instruction on every pixel).

const BINARY_FONT_WORDS: u32 = 17u;

fn binary_palette(known: bool, one: bool, cell: vec2u, sub: vec2f) -> vec4f {
  let given = aux[BINARY_FONT_WORDS + cell.y * view.gridSize.x + cell.x] == 1u;
  let px = 1.0 / max(view.pixelsPerCell, 1e-3);
  let zero = select(vec3f(0.93, 0.93, 0.9), vec3f(0.8, 0.8, 0.76), given);
  let ones = select(vec3f(0.16, 0.36, 0.72), vec3f(0.07, 0.16, 0.38), given);
  var c = select(vec3f(0.42, 0.44, 0.48), select(zero, ones, one), known);
  let ink = select(vec3f(0.1, 0.1, 0.12), vec3f(0.95, 0.95, 0.95), one);
  let digit = known && view.pixelsPerCell >= 12.0 && glyph_hit(aux[select(0u, 1u, one)], sub);
  c = select(c, ink, digit);
  c = select(c, vec3f(0.3, 0.32, 0.36), view.pixelsPerCell >= 4.0 && (sub.x < px || sub.y < px));
  return vec4f(c, 1.0);
}
