// Unknown cells (sure = 2) of the thesis automaton's state: item i = cell i, two words each.
fn count_item(i: u32) -> u32 {
  return select(0u, 1u, (state[counting.stateOffset + 2u * i] & 3u) == 2u);
}
