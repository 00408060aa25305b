// Our binary automaton's state (src/puzzles/binary/pack.ts packCa): per row word k of row y the pair
// [known, value] at words 2 * (y * wordsPerRow + k); bit i is cell x = 32k + i.
fn cell_color(cell: vec2u, sub: vec2f) -> vec4f {
  let wordsPerRow = (view.gridSize.x + 31u) / 32u;
  let at = 2u * (cell.y * wordsPerRow + (cell.x >> 5u));
  let bit = cell.x & 31u;
  return binary_palette(state_bit(at, bit) == 1u, state_bit(at + 1u, bit) == 1u, cell, sub);
}
