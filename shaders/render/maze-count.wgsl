// Open cells not yet filled (plane A and not plane B: terminals excluded) in word i of a dead-end maze state
// (src/puzzles/maze/pack.ts): the plot shows them fall to the path length.
fn count_item(i: u32) -> u32 {
  let plane = ((counting.width + 31u) / 32u) * counting.height;
  return countOneBits(state[counting.stateOffset + i] & ~state[counting.stateOffset + plane + i]);
}
