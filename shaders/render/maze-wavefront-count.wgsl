// Cells the wavefront has reached (label != 0) in word i (src/puzzles/maze/pack.ts packWavefront: planes lo, hi).
fn count_item(i: u32) -> u32 {
  let plane = ((counting.width + 31u) / 32u) * counting.height;
  return countOneBits(state[counting.stateOffset + i] | state[counting.stateOffset + plane + i]);
}
