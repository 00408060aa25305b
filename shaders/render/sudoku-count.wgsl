// Undecided cells (two or more candidates left) of a sudoku state (src/puzzles/sudoku/pack.ts): item i = cell i.
fn count_item(i: u32) -> u32 {
  return select(0u, 1u, countOneBits(state[counting.stateOffset + i]) > 1u);
}
