// Unknown cells (neither filled nor empty) in word i of a nonogram copy's row planes (src/puzzles/nonogram/pack.ts:
// filled plane at word 3, empty plane after it); bits past the width are masked off.
fn count_item(i: u32) -> u32 {
  let wr = (counting.width + 31u) / 32u;
  let rowF = 3u;
  let rowE = rowF + counting.height * wr;
  let rest = counting.width & 31u;
  let valid = select(0xffffffffu, (1u << rest) - 1u, rest != 0u && i % wr == wr - 1u);
  let known = state[counting.stateOffset + rowF + i] | state[counting.stateOffset + rowE + i];
  return countOneBits(~known & valid);
}
