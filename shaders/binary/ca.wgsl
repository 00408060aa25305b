// Our binary puzzle automaton, one generation (CPU twin: caStep in src/puzzles/binary/reference.ts).
// State (src/puzzles/binary/pack.ts): per row, wordsPerRow pairs [known, value] of 32-cell bit planes.
// One work item per (row y, word k); it computes its 32 cells at once with bit operations:
//   Methods 1-2 (thesis 3.3.1) from the planes of rows y-2..y+2 and the neighbouring words of its own row;
//   Method 3 from the counts of its row (popcounts) and of its 32 columns (bit-sliced counters over all rows),
//     recomputed every generation: no walker, no latency;
//   Method 4 (a line with two unknowns agreeing with a complete line on its known cells takes the other
//     completion) against every complete row / column;
// and raises FLAG_CONTRADICTION for any broken rule (three equal known cells, an overfull line, two equal
// complete lines under Rule 3, a cell the enabled methods want both ways) whatever methods are enabled.
// grid.param0: enabled methods (bits below); grid.param1: 1 = Rule 3 (rows distinct, columns distinct).

const M_PAIRS: u32 = 1u;
const M_TRIOS: u32 = 2u;
const M_COUNT: u32 = 4u;
const M_UNIQUE: u32 = 8u;
const RULE_FLAG_BASE: u32 = 256u;
// counters hold up to 255: the host refuses taller grids for this rule
const COUNTER_BITS: u32 = 8u;

fn ca_known(g: Grid, wpr: u32, y: i32, k: i32) -> u32 {
  if (y < 0 || y >= i32(g.height) || k < 0 || k >= i32(wpr)) {
    return 0u;
  }
  return src[g.stateOffset + (u32(y) * wpr + u32(k)) * 2u];
}

fn ca_value(g: Grid, wpr: u32, y: i32, k: i32) -> u32 {
  if (y < 0 || y >= i32(g.height) || k < 0 || k >= i32(wpr)) {
    return 0u;
  }
  return src[g.stateOffset + (u32(y) * wpr + u32(k)) * 2u + 1u];
}

// the cells of word k that lie inside the grid
fn ca_width_mask(width: u32, wpr: u32, k: u32) -> u32 {
  let rest = width & 31u;
  if (k == wpr - 1u && rest != 0u) {
    return (1u << rest) - 1u;
  }
  return 0xffffffffu;
}

// Bit-sliced counters: bit b of the 32 per-column counts sits in word b. Adding a plane is a ripple of half
// adders, stopped as soon as no carry is left.
struct Counters {
  ones: array<u32, 8>,
  zeros: array<u32, 8>,
  known: array<u32, 8>,
}

fn add_plane(c: ptr<function, array<u32, 8>>, plane: u32) {
  var carry = plane;
  for (var b = 0u; b < COUNTER_BITS && carry != 0u; b++) {
    let t = (*c)[b] & carry;
    (*c)[b] ^= carry;
    carry = t;
  }
}

// columns whose count equals n
fn count_eq(c: ptr<function, array<u32, 8>>, n: u32) -> u32 {
  var eq = 0xffffffffu;
  for (var b = 0u; b < COUNTER_BITS; b++) {
    if (((n >> b) & 1u) != 0u) {
      eq &= (*c)[b];
    } else {
      eq &= ~(*c)[b];
    }
  }
  return eq;
}

// columns whose count exceeds n: the first bit from the top where they differ decides
fn count_gt(c: ptr<function, array<u32, 8>>, n: u32) -> u32 {
  var gt = 0u;
  var eq = 0xffffffffu;
  for (var i = 0u; i < COUNTER_BITS; i++) {
    let b = COUNTER_BITS - 1u - i;
    if (((n >> b) & 1u) != 0u) {
      eq &= (*c)[b];
    } else {
      gt |= eq & (*c)[b];
      eq &= ~(*c)[b];
    }
  }
  return gt;
}

// Is row r complete (every cell known)?
fn row_complete(g: Grid, wpr: u32, r: i32) -> bool {
  var n = 0u;
  for (var j = 0u; j < wpr; j++) {
    n += countOneBits(ca_known(g, wpr, r, i32(j)));
  }
  return n == g.width;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn binary_ca(@builtin(workgroup_id) workgroupId: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  let t = tile_index(workgroupId);
  if (t >= batch.tileCount) {
    return;
  }
  let tile = tiles[t];
  let g = grids[tile.grid];
  let item = tile.firstItem + localIndex;
  if (item >= g.items) {
    return;
  }
  let methods = g.param0;
  let distinct = g.param1 == 1u;
  let wpr = (g.width + 31u) >> 5u;
  let y = i32(item / wpr);
  let k = i32(item % wpr);
  let wm = ca_width_mask(g.width, wpr, u32(k));
  let K = ca_known(g, wpr, y, k);
  let V = ca_value(g, wpr, y, k);
  let U = ~K & wm;
  var contradiction = false;

  // ---- Methods 1-2 along the row: planes of the neighbours at x-2, x-1, x+1, x+2 aligned to x
  let onesW = ca_known(g, wpr, y, k - 1) & ca_value(g, wpr, y, k - 1);
  let zerosW = ca_known(g, wpr, y, k - 1) & ~ca_value(g, wpr, y, k - 1);
  let onesE = ca_known(g, wpr, y, k + 1) & ca_value(g, wpr, y, k + 1);
  let zerosE = ca_known(g, wpr, y, k + 1) & ~ca_value(g, wpr, y, k + 1);
  let o = K & V;
  let z = K & ~V;
  let o_w1 = (o << 1u) | (onesW >> 31u);
  let o_w2 = (o << 2u) | (onesW >> 30u);
  let o_e1 = (o >> 1u) | (onesE << 31u);
  let o_e2 = (o >> 2u) | (onesE << 30u);
  let z_w1 = (z << 1u) | (zerosW >> 31u);
  let z_w2 = (z << 2u) | (zerosW >> 30u);
  let z_e1 = (z >> 1u) | (zerosE << 31u);
  let z_e2 = (z >> 2u) | (zerosE << 30u);
  // ... and along the column: the same word of rows y-2..y+2
  let kn1 = ca_known(g, wpr, y - 1, k);
  let kn2 = ca_known(g, wpr, y - 2, k);
  let ks1 = ca_known(g, wpr, y + 1, k);
  let ks2 = ca_known(g, wpr, y + 2, k);
  let vn1 = ca_value(g, wpr, y - 1, k);
  let vn2 = ca_value(g, wpr, y - 2, k);
  let vs1 = ca_value(g, wpr, y + 1, k);
  let vs2 = ca_value(g, wpr, y + 2, k);
  let o_n1 = kn1 & vn1;
  let o_n2 = kn2 & vn2;
  let o_s1 = ks1 & vs1;
  let o_s2 = ks2 & vs2;
  let z_n1 = kn1 & ~vn1;
  let z_n2 = kn2 & ~vn2;
  let z_s1 = ks1 & ~vs1;
  let z_s2 = ks2 & ~vs2;
  // Method 1 (pairs): two equal cells on one side; Method 2 (trios): equal cells on both sides
  let pairs0 = (o_w1 & o_w2) | (o_e1 & o_e2) | (o_n1 & o_n2) | (o_s1 & o_s2);
  let pairs1 = (z_w1 & z_w2) | (z_e1 & z_e2) | (z_n1 & z_n2) | (z_s1 & z_s2);
  let trios0 = (o_w1 & o_e1) | (o_n1 & o_s1);
  let trios1 = (z_w1 & z_e1) | (z_n1 & z_s1);
  // a known cell that these rules want the other way sits in three equal cells
  if (((o & (pairs0 | trios0)) | (z & (pairs1 | trios1))) != 0u) {
    contradiction = true;
  }

  // ---- Method 3: counts of this row and of this word's 32 columns
  var rowOnes = 0u;
  var rowZeros = 0u;
  for (var j = 0u; j < wpr; j++) {
    let kj = ca_known(g, wpr, y, i32(j));
    let vj = ca_value(g, wpr, y, i32(j));
    rowOnes += countOneBits(kj & vj);
    rowZeros += countOneBits(kj & ~vj);
  }
  var c: Counters;
  for (var i = 0; i < i32(g.height); i++) {
    let ki = ca_known(g, wpr, i, k);
    let vi = ca_value(g, wpr, i, k);
    add_plane(&c.ones, ki & vi);
    add_plane(&c.zeros, ki & ~vi);
    add_plane(&c.known, ki);
  }
  let halfW = g.width / 2u;
  let halfH = g.height / 2u;
  if (rowOnes > halfW || rowZeros > halfW || ((count_gt(&c.ones, halfH) | count_gt(&c.zeros, halfH)) & wm) != 0u) {
    contradiction = true;
  }
  var count0 = count_eq(&c.ones, halfH) & U;
  var count1 = count_eq(&c.zeros, halfH) & U;
  if (rowOnes == halfW) {
    count0 |= U;
  }
  if (rowZeros == halfW) {
    count1 |= U;
  }

  // ---- Method 4 and Rule 3
  var unique0 = 0u;
  var unique1 = 0u;
  let rowUnknown = g.width - rowOnes - rowZeros;
  if (distinct) {
    if (rowUnknown == 2u && U != 0u && (methods & M_UNIQUE) != 0u) {
      for (var r = 0; r < i32(g.height); r++) {
        if (r == y || !row_complete(g, wpr, r)) {
          continue;
        }
        var agree = true;
        for (var j = 0u; j < wpr; j++) {
          let kj = ca_known(g, wpr, y, i32(j));
          if ((kj & (ca_value(g, wpr, y, i32(j)) ^ ca_value(g, wpr, r, i32(j)))) != 0u) {
            agree = false;
          }
        }
        if (agree) {
          let vr = ca_value(g, wpr, r, k);
          unique0 |= U & vr;
          unique1 |= U & ~vr;
        }
      }
    }
    // two equal complete rows: checked by the rows' first items
    if (rowUnknown == 0u && k == 0) {
      for (var r = 0; r < i32(g.height); r++) {
        if (r == y || !row_complete(g, wpr, r)) {
          continue;
        }
        var same = true;
        for (var j = 0u; j < wpr; j++) {
          if (ca_value(g, wpr, y, i32(j)) != ca_value(g, wpr, r, i32(j))) {
            same = false;
          }
        }
        if (same) {
          contradiction = true;
        }
      }
    }
    // columns: this row's unknown cells in columns with exactly two unknowns, compared with each complete column
    let candidates = U & count_eq(&c.known, g.height - 2u);
    let complete = count_eq(&c.known, g.height) & wm;
    let checkPairs = y == 0 && complete != 0u;
    if ((candidates != 0u && (methods & M_UNIQUE) != 0u) || checkPairs) {
      for (var c2 = 0u; c2 < g.width; c2++) {
        let j = i32(c2 >> 5u);
        let b = c2 & 31u;
        var full = true;
        var agree = candidates;
        var same = complete;
        for (var i = 0; i < i32(g.height); i++) {
          if (((ca_known(g, wpr, i, j) >> b) & 1u) == 0u) {
            full = false;
            break;
          }
          // column c2's bit of row i, spread over all 32 columns
          let vb = 0u - ((ca_value(g, wpr, i, j) >> b) & 1u);
          let diff = ca_value(g, wpr, i, k) ^ vb;
          agree &= ~(ca_known(g, wpr, i, k) & diff);
          same &= ~diff;
        }
        if (!full) {
          continue;
        }
        if ((methods & M_UNIQUE) != 0u && agree != 0u) {
          if (((ca_value(g, wpr, y, j) >> b) & 1u) != 0u) {
            unique0 |= agree;
          } else {
            unique1 |= agree;
          }
        }
        if (j == k) {
          same &= ~(1u << b);
        }
        if (checkPairs && same != 0u) {
          contradiction = true;
        }
      }
    }
  }

  // ---- the new generation
  var need0 = 0u;
  var need1 = 0u;
  if ((methods & M_PAIRS) != 0u) {
    need0 |= pairs0;
    need1 |= pairs1;
  }
  if ((methods & M_TRIOS) != 0u) {
    need0 |= trios0;
    need1 |= trios1;
  }
  if ((methods & M_COUNT) != 0u) {
    need0 |= count0;
    need1 |= count1;
  }
  if ((methods & M_UNIQUE) != 0u) {
    need0 |= unique0;
    need1 |= unique1;
  }
  need0 &= U;
  need1 &= U;
  if ((need0 & need1) != 0u) {
    contradiction = true;
  }
  let fresh = need0 ^ need1;
  let K2 = K | fresh;
  let at = g.stateOffset + (u32(y) * wpr + u32(k)) * 2u;
  dst[at] = K2;
  dst[at + 1u] = V | (fresh & need1);

  var flags = 0u;
  if (fresh != 0u) {
    flags |= FLAG_CHANGED;
    if ((methods & M_PAIRS) != 0u && (fresh & (pairs0 | pairs1)) != 0u) {
      flags |= M_PAIRS * RULE_FLAG_BASE;
    }
    if ((methods & M_TRIOS) != 0u && (fresh & (trios0 | trios1)) != 0u) {
      flags |= M_TRIOS * RULE_FLAG_BASE;
    }
    if ((methods & M_COUNT) != 0u && (fresh & (count0 | count1)) != 0u) {
      flags |= M_COUNT * RULE_FLAG_BASE;
    }
    if ((methods & M_UNIQUE) != 0u && (fresh & (unique0 | unique1)) != 0u) {
      flags |= M_UNIQUE * RULE_FLAG_BASE;
    }
  }
  if (contradiction) {
    flags |= FLAG_CONTRADICTION;
  }
  if ((~K2 & wm) != 0u) {
    flags |= FLAG_PENDING;
  }
  report_flags(t, localIndex, flags);
}
