// Unknown cells (neither filled nor empty) in word i of a nonogram copy's row planes (src/puzzles/nonogram/pack.ts
// layoutOf: the filled plane at word ROW_F, the empty plane after it); bits past the width are masked off.

// the host's layoutOf(...).rowF (it was written here as 3 while the layout said 4: a solved grid counted unknowns)
override ROW_F: u32;

fn count_item(i: u32) -> u32 {
  let wr = (counting.width + 31u) / 32u;
  let rowF = ROW_F;
  let rowE = rowF + counting.height * wr;
  let rest = counting.width & 31u;
  let valid = select(0xffffffffu, (1u << rest) - 1u, rest != 0u && i % wr == wr - 1u);
  let known = state[counting.stateOffset + rowF + i] | state[counting.stateOffset + rowE + i];
  return countOneBits(~known & valid);
}
