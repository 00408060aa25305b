// The thesis automaton's state (thesis 3.3.2; src/puzzles/binary/reference.ts thesisInit): two words per cell, the
// first holding `sure` (0, 1, or 2 = unknown) in its low two bits.
fn cell_color(cell: vec2u, sub: vec2f) -> vec4f {
  let sure = state[view.stateOffset + 2u * (cell.y * view.gridSize.x + cell.x)] & 3u;
  return binary_palette(sure != 2u, sure == 1u, cell, sub);
}
