// Our binary puzzle automaton, one generation (CPU twin: caStep in src/puzzles/binary/reference.ts).
// State (src/puzzles/binary/pack.ts): per row, wordsPerRow pairs [known, value] of 32-cell bit planes.
// One work item per strip of 32 columns (word k of every row): it counts its 32 columns once, then walks down the
// rows computing 32 cells at a time with bit operations:
//   Methods 1-2 (thesis 3.3.1) from the planes of rows y-2..y+2 (a sliding window) and the neighbouring words;
//   Method 3 from the counts of the row (popcounts) and of the strip's columns (bit-sliced counters), recomputed
//     every generation: no walker, no latency;
//   Method 4: a line with two unknowns that agrees with a complete line on its known cells takes the other
//     completion (the first such complete line: a second one would make the result repeat it, which the next
//     generation reports as a contradiction);
// and raises FLAG_CONTRADICTION for any broken rule (three equal known cells, an overfull line, two equal complete
// lines under Rule 3, a cell the enabled methods want both ways) whatever methods are enabled.
// A strip, not a row, per work item: the column counts are then computed once per generation instead of once
// per row, which on SwiftShader (a CPU) is most of the cost. grid.param0: enabled methods (bits below);
// grid.param1: 1 = Rule 3 (rows distinct, columns distinct).

const M_PAIRS: u32 = 1u;
const M_TRIOS: u32 = 2u;
const M_COUNT: u32 = 4u;
const M_UNIQUE: u32 = 8u;
const RULE_FLAG_BASE: u32 = 256u;
// column counters hold up to 255: the host refuses taller grids for this rule

// Loads that give 0 outside the grid, without branches: SwiftShader compiles branches inside loops very slowly
// (the bounds checks as `if`s made this shader take a minute to compile, as selects half a second).
fn ca_word(g: Grid, wpr: u32, y: i32, k: i32, plane: u32) -> u32 {
  let inside = (y >= 0) & (y < i32(g.height)) & (k >= 0) & (k < i32(wpr));
  return select(0u, src[g.stateOffset + select(0u, (u32(y) * wpr + u32(k)) * 2u + plane, inside)], inside);
}

fn ca_known(g: Grid, wpr: u32, y: i32, k: i32) -> u32 {
  return ca_word(g, wpr, y, k, 0u);
}

fn ca_value(g: Grid, wpr: u32, y: i32, k: i32) -> u32 {
  return ca_word(g, wpr, y, k, 1u);
}

// the cells of word k that lie inside the grid
fn ca_width_mask(width: u32, wpr: u32, k: u32) -> u32 {
  let rest = width & 31u;
  if (k == wpr - 1u && rest != 0u) {
    return (1u << rest) - 1u;
  }
  return 0xffffffffu;
}

// Bit-sliced counters: bit i of the 32 per-column counts sits in word bi. Scalars, not an array: SwiftShader keeps
// private arrays in memory and indexes them lane by lane.
struct Count {
  b0: u32, b1: u32, b2: u32, b3: u32, b4: u32, b5: u32, b6: u32, b7: u32,
}

// adds a plane of 32 one-bit values: a ripple of half adders
fn count_add(c: Count, plane: u32) -> Count {
  var r: Count;
  var carry = plane;
  r.b0 = c.b0 ^ carry; carry &= c.b0;
  r.b1 = c.b1 ^ carry; carry &= c.b1;
  r.b2 = c.b2 ^ carry; carry &= c.b2;
  r.b3 = c.b3 ^ carry; carry &= c.b3;
  r.b4 = c.b4 ^ carry; carry &= c.b4;
  r.b5 = c.b5 ^ carry; carry &= c.b5;
  r.b6 = c.b6 ^ carry; carry &= c.b6;
  r.b7 = c.b7 ^ carry;
  return r;
}

// all ones where bit i of n is set, else all zeros
fn bit_of(n: u32, i: u32) -> u32 {
  return 0u - ((n >> i) & 1u);
}

// columns whose count equals n
fn count_eq(c: Count, n: u32) -> u32 {
  return ~((c.b0 ^ bit_of(n, 0u)) | (c.b1 ^ bit_of(n, 1u)) | (c.b2 ^ bit_of(n, 2u)) | (c.b3 ^ bit_of(n, 3u)) |
    (c.b4 ^ bit_of(n, 4u)) | (c.b5 ^ bit_of(n, 5u)) | (c.b6 ^ bit_of(n, 6u)) | (c.b7 ^ bit_of(n, 7u)));
}

// columns whose count exceeds n: the highest bit where count and n differ decides
fn count_gt(c: Count, n: u32) -> u32 {
  var gt = 0u;
  var eq = 0xffffffffu;
  gt |= eq & c.b7 & ~bit_of(n, 7u); eq &= ~(c.b7 ^ bit_of(n, 7u));
  gt |= eq & c.b6 & ~bit_of(n, 6u); eq &= ~(c.b6 ^ bit_of(n, 6u));
  gt |= eq & c.b5 & ~bit_of(n, 5u); eq &= ~(c.b5 ^ bit_of(n, 5u));
  gt |= eq & c.b4 & ~bit_of(n, 4u); eq &= ~(c.b4 ^ bit_of(n, 4u));
  gt |= eq & c.b3 & ~bit_of(n, 3u); eq &= ~(c.b3 ^ bit_of(n, 3u));
  gt |= eq & c.b2 & ~bit_of(n, 2u); eq &= ~(c.b2 ^ bit_of(n, 2u));
  gt |= eq & c.b1 & ~bit_of(n, 1u); eq &= ~(c.b1 ^ bit_of(n, 1u));
  gt |= eq & c.b0 & ~bit_of(n, 0u);
  return gt;
}

// known cells of row r
fn row_known(g: Grid, wpr: u32, r: i32) -> u32 {
  var n = 0u;
  for (var j = 0u; j < wpr; j++) {
    n += countOneBits(ca_known(g, wpr, r, i32(j)));
  }
  return n;
}

// does row a agree with row b on a's known cells?
fn row_agrees(g: Grid, wpr: u32, a: i32, b: i32) -> bool {
  for (var j = 0u; j < wpr; j++) {
    if ((ca_known(g, wpr, a, i32(j)) & (ca_value(g, wpr, a, i32(j)) ^ ca_value(g, wpr, b, i32(j)))) != 0u) {
      return false;
    }
  }
  return true;
}

// column c's cell in row r, as 0 or 1 (known cells only)
fn col_bit(g: Grid, wpr: u32, r: i32, c: u32) -> u32 {
  return (ca_value(g, wpr, r, i32(c >> 5u)) >> (c & 31u)) & 1u;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn binary_ca(@builtin(workgroup_id) workgroupId: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  let t = tile_index(workgroupId);
  if (t >= batch.tileCount) {
    return;
  }
  let tile = tiles[t];
  let g = grids[tile.grid];
  let k = i32(tile.firstItem + localIndex);
  if (u32(k) >= g.items) {
    return;
  }
  let methods = g.param0;
  let distinct = g.param1 == 1u;
  let wpr = (g.width + 31u) >> 5u;
  let H = i32(g.height);
  let wm = ca_width_mask(g.width, wpr, u32(k));
  let halfW = g.width / 2u;
  let halfH = g.height / 2u;
  var contradiction = false;

  // ---- the strip's 32 column counts
  var colOnes: Count;
  var colZeros: Count;
  var colKnown: Count;
  for (var i = 0; i < H; i++) {
    let ki = ca_known(g, wpr, i, k);
    let vi = ca_value(g, wpr, i, k);
    colOnes = count_add(colOnes, ki & vi);
    colZeros = count_add(colZeros, ki & ~vi);
    colKnown = count_add(colKnown, ki);
  }
  if (((count_gt(colOnes, halfH) | count_gt(colZeros, halfH)) & wm) != 0u) {
    contradiction = true;
  }
  // Method 3 for columns: full of ones -> the rest are 0; full of zeros -> the rest are 1
  let colFull0 = count_eq(colOnes, halfH);
  let colFull1 = count_eq(colZeros, halfH);

  // ---- Method 4 for columns and Rule 3: each complete column against the strip's columns. A strip column with
  // two unknowns remembers the first complete column it agrees with (`firstMatch`); two equal complete columns
  // are a contradiction.
  var firstMatch: array<u32, 32>;
  var matched = 0u;
  let candidates = count_eq(colKnown, g.height - 2u) & wm;
  let complete = count_eq(colKnown, g.height) & wm;
  if (distinct && (candidates != 0u || complete != 0u)) {
    for (var c2 = 0u; c2 < g.width; c2++) {
      let j = i32(c2 >> 5u);
      let b = c2 & 31u;
      var full = true;
      var agree = candidates & ~matched;
      var same = complete;
      for (var i = 0; i < H; i++) {
        if (((ca_known(g, wpr, i, j) >> b) & 1u) == 0u) {
          full = false;
          break;
        }
        // column c2's cell of row i, spread over the 32 columns of the strip
        let diff = ca_value(g, wpr, i, k) ^ (0u - ((ca_value(g, wpr, i, j) >> b) & 1u));
        agree &= ~(ca_known(g, wpr, i, k) & diff);
        same &= ~diff;
      }
      if (!full) {
        continue;
      }
      if (j == k) {
        same &= ~(1u << b);
      }
      if (same != 0u) {
        contradiction = true;
      }
      var m = agree;
      while (m != 0u) {
        let c = firstTrailingBit(m);
        firstMatch[c] = c2;
        m &= m - 1u;
      }
      matched |= agree;
    }
  }

  // ---- the rows, top to bottom, with a window of rows y-2..y+2 of this strip
  var kn2 = 0u;
  var vn2 = 0u;
  var kn1 = 0u;
  var vn1 = 0u;
  var K = ca_known(g, wpr, 0, k);
  var V = ca_value(g, wpr, 0, k);
  var ks1 = ca_known(g, wpr, 1, k);
  var vs1 = ca_value(g, wpr, 1, k);
  var flags = 0u;
  var pending = false;
  for (var y = 0; y < H; y++) {
    let ks2 = ca_known(g, wpr, y + 2, k);
    let vs2 = ca_value(g, wpr, y + 2, k);
    let U = ~K & wm;
    let o = K & V;
    let z = K & ~V;

    // Methods 1-2 along the row: the neighbours at x-2, x-1, x+1, x+2 aligned to x
    let kw = ca_known(g, wpr, y, k - 1);
    let vw = ca_value(g, wpr, y, k - 1);
    let ke = ca_known(g, wpr, y, k + 1);
    let ve = ca_value(g, wpr, y, k + 1);
    let onesW = kw & vw;
    let zerosW = kw & ~vw;
    let onesE = ke & ve;
    let zerosE = ke & ~ve;
    let o_w1 = (o << 1u) | (onesW >> 31u);
    let o_w2 = (o << 2u) | (onesW >> 30u);
    let o_e1 = (o >> 1u) | (onesE << 31u);
    let o_e2 = (o >> 2u) | (onesE << 30u);
    let z_w1 = (z << 1u) | (zerosW >> 31u);
    let z_w2 = (z << 2u) | (zerosW >> 30u);
    let z_e1 = (z >> 1u) | (zerosE << 31u);
    let z_e2 = (z >> 2u) | (zerosE << 30u);
    // ... and along the columns
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

    // Method 3: this row's counts (all its words) and the strip's column counts
    var rowOnes = 0u;
    var rowZeros = 0u;
    for (var j = 0u; j < wpr; j++) {
      let kj = ca_known(g, wpr, y, i32(j));
      let vj = ca_value(g, wpr, y, i32(j));
      rowOnes += countOneBits(kj & vj);
      rowZeros += countOneBits(kj & ~vj);
    }
    if (rowOnes > halfW || rowZeros > halfW) {
      contradiction = true;
    }
    var count0 = colFull0 & U;
    var count1 = colFull1 & U;
    if (rowOnes == halfW) {
      count0 = U;
    }
    if (rowZeros == halfW) {
      count1 = U;
    }

    // Method 4 and Rule 3 for rows
    var unique0 = 0u;
    var unique1 = 0u;
    let rowUnknown = g.width - rowOnes - rowZeros;
    if (distinct && rowUnknown == 2u && U != 0u) {
      for (var r = 0; r < H; r++) {
        if (r != y && row_known(g, wpr, r) == g.width && row_agrees(g, wpr, y, r)) {
          let vr = ca_value(g, wpr, r, k);
          unique0 = U & vr;
          unique1 = U & ~vr;
          break;
        }
      }
    }
    // two equal complete rows: the first strip checks each complete row against the rows below it
    if (distinct && rowUnknown == 0u && k == 0) {
      for (var r = y + 1; r < H; r++) {
        if (row_known(g, wpr, r) == g.width && row_agrees(g, wpr, y, r)) {
          contradiction = true;
        }
      }
    }
    // Method 4 for this row's cells of the strip's matched columns: the other value than their complete column's
    var m = matched & U;
    while (m != 0u) {
      let c = firstTrailingBit(m);
      if (col_bit(g, wpr, y, firstMatch[c]) == 1u) {
        unique0 |= 1u << c;
      } else {
        unique1 |= 1u << c;
      }
      m &= m - 1u;
    }

    // the new generation of this row's word
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
    if ((~K2 & wm) != 0u) {
      pending = true;
    }

    // slide the window down
    kn2 = kn1;
    vn2 = vn1;
    kn1 = K;
    vn1 = V;
    K = ks1;
    V = vs1;
    ks1 = ks2;
    vs1 = vs2;
  }
  if (contradiction) {
    flags |= FLAG_CONTRADICTION;
  }
  if (pending) {
    flags |= FLAG_PENDING;
  }
  report_flags(t, localIndex, flags);
}
