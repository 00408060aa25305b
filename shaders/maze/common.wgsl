// Bit-plane helpers shared by the maze rules: 32 cells per u32, cell x at bit x % 32 (src/puzzles/maze/pack.ts).

// Cells with at least two of their four neighbours set, 32 at a time: of four bits, two are set iff some pair is.
// (a|b)&(c|d) covers the four mixed pairs, a&b and c&d the other two.
fn at_least_two(a: u32, b: u32, c: u32, d: u32) -> u32 {
  return ((a | b) & (c | d)) | (a & b) | (c & d);
}

// bit i = cell i - 1 of the row (bit 0 from bit 31 of the word on the left)
fn from_left(word: u32, leftWord: u32) -> u32 {
  return (word << 1u) | (leftWord >> 31u);
}

// bit i = cell i + 1 of the row (bit 31 from bit 0 of the word on the right)
fn from_right(word: u32, rightWord: u32) -> u32 {
  return (word >> 1u) | (rightWord << 31u);
}

// the bit of cell `cell` (y * width + x) if it lies in word `wx` of row `y`, else 0
fn cell_bit(cell: u32, width: u32, y: u32, wx: u32) -> u32 {
  let cy = cell / width;
  let cx = cell % width;
  return select(0u, 1u << (cx & 31u), cy == y && cx / 32u == wx);
}
