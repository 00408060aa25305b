// Unknown cells in row word i of our binary automaton's state (pack.ts: [known, value] pairs); bits past the width
// are masked off.
fn count_item(i: u32) -> u32 {
  let wordsPerRow = (counting.width + 31u) / 32u;
  let rest = counting.width & 31u;
  let valid = select(0xffffffffu, (1u << rest) - 1u, rest != 0u && i % wordsPerRow == wordsPerRow - 1u);
  return countOneBits(~state[counting.stateOffset + 2u * i] & valid);
}
