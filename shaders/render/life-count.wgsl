// Live cells in word i of a Life state (1 bit per cell; padding bits are always 0): the population.
fn count_item(i: u32) -> u32 {
  return countOneBits(state[counting.stateOffset + i]);
}
