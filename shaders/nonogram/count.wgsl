// Placements of a line's clue that agree with its known cells, for lines of up to 31 cells, and their log2 in
// fixed point. CPU twins: countPlacements and log2Fixed in src/puzzles/nonogram/reference.ts (the same integers, so
// the lanes kernel and solveCpu order a branch's children alike).
//
// Suffix DP over the blocks, last first: after block j, counts[i] = placements of blocks j..k-1 in cells [i, len).
// At most C(32, 16) < 2^30 placements, so a u32 is exact. Two rows of counts, swapped per block.

var<private> counts: array<u32, 64>;

// `fil`, `emp`: the line's known filled and empty cells; `clue`: its clue list (k, then the block lengths) in the
// including kernel's clue store, read through `clue_word`.
fn count_placements(fil: u32, emp: u32, len: u32, clue: u32) -> u32 {
  let k = clue_word(clue);
  // no block: one placement unless a cell is filled; with blocks j..k-1 = none, counts[i] = no filled cell in [i, len)
  var next = 0u;
  counts[len] = 1u;
  for (var i = len; i > 0u; i--) {
    counts[i - 1u] = select(0u, counts[i], ((fil >> (i - 1u)) & 1u) == 0u);
  }
  for (var b = 0u; b < k; b++) {
    let j = k - 1u - b;
    let n = clue_word(clue + 1u + j);
    let cur = 32u - next;
    let blockMask = (1u << n) - 1u;  // n <= 31
    counts[cur + len] = 0u;
    for (var i = len; i > 0u; i--) {
      let s = i - 1u;
      var v = select(0u, counts[cur + s + 1u], ((fil >> s) & 1u) == 0u);
      if (s + n <= len && ((emp >> s) & blockMask) == 0u) {
        if (s + n == len) {
          v += counts[next + len];
        } else if (((fil >> (s + n)) & 1u) == 0u) {
          v += counts[next + s + n + 1u];
        }
      }
      counts[cur + s] = v;
    }
    next = cur;
  }
  return counts[next];
}

// log2(x) with 8 fraction bits, Mitchell's approximation (the 8 bits after the leading one as the fraction); 0 for 0
fn log2_fixed(x: u32) -> u32 {
  if (x == 0u) { return 0u; }
  let lead = firstLeadingBit(x);
  return lead * 256u + (((x << (31u - lead)) >> 23u) & 0xffu);
}
