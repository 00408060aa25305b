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
// per row, which on SwiftShader (a CPU) is most of the cost.
// Grids of at most 32x32 (grid.param3 = 1) take another path: their one work item loads the grid into private
// arrays and runs generations there until a fixpoint, a contradiction or its cap, then writes the grid back once:
// the same generations (row_step is shared), without a dispatch and a trip through memory per generation. The
// generations it ran are added to the grid's last state word (bit 31: stopped by the cap, grid.param2).
// A pack (grid.param3 = 2) is many such grids of one size in one engine grid, one per work item (lane k's grid at
// words k * (2 * height + 2 * width + 1): rows, columns, last word): SwiftShader runs a workgroup's lanes 4 at a
// time on a CPU, and one small grid per workgroup left most of them idle. A pack's lanes end in one dispatch and keep their outcome in their own last
// word (bits below: PACK_*); the engine is told nothing (no flag), so the pack is over after one dispatch.
// grid.param0: enabled methods (bits below); grid.param1: 1 = Rule 3 (rows distinct, columns distinct).

// column counters hold up to 255: the host refuses taller grids for this rule
// the in-lane path's capacity (rows of one word): the host sets grid.param3 only for grids that fit
const SMALL: i32 = 32;
const CAPPED: u32 = 0x80000000u;
// a pack lane's last word: its grid ended in a contradiction / with unknown cells left / is over (later dispatches
// copy it); the generations sit below these bits
const PACK_CONTRADICTION: u32 = 0x40000000u;
const PACK_PENDING: u32 = 0x20000000u;
const PACK_FINISHED: u32 = 0x10000000u;
const PACK_GENERATIONS: u32 = 0x0fffffffu;

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

// ---------------------------------------------------------------------------------------------------------------
// The strip path: one generation per dispatch, any size.

fn strip_generation(g: Grid, k: i32) -> u32 {
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
  var r: RowIn;
  r.wm = wm;
  r.colFull0 = colFull0;
  r.colFull1 = colFull1;
  r.K = ca_known(g, wpr, 0, k);
  r.V = ca_value(g, wpr, 0, k);
  r.ks1 = ca_known(g, wpr, 1, k);
  r.vs1 = ca_value(g, wpr, 1, k);
  var flags = select(0u, FLAG_CONTRADICTION, contradiction);
  for (var y = 0; y < H; y++) {
    r.ks2 = ca_known(g, wpr, y + 2, k);
    r.vs2 = ca_value(g, wpr, y + 2, k);
    r.kw = ca_known(g, wpr, y, k - 1);
    r.vw = ca_value(g, wpr, y, k - 1);
    r.ke = ca_known(g, wpr, y, k + 1);
    r.ve = ca_value(g, wpr, y, k + 1);
    let U = ~r.K & wm;
    var rowOnes = 0u;
    var rowZeros = 0u;
    for (var j = 0u; j < wpr; j++) {
      let kj = ca_known(g, wpr, y, i32(j));
      let vj = ca_value(g, wpr, y, i32(j));
      rowOnes += countOneBits(kj & vj);
      rowZeros += countOneBits(kj & ~vj);
    }
    r.rowOnes = rowOnes;
    r.rowZeros = rowZeros;

    // Method 4 and Rule 3 for rows
    r.unique0 = 0u;
    r.unique1 = 0u;
    let rowUnknown = g.width - rowOnes - rowZeros;
    if (distinct && rowUnknown == 2u && U != 0u) {
      for (var o = 0; o < H; o++) {
        if (o != y && row_known(g, wpr, o) == g.width && row_agrees(g, wpr, y, o)) {
          let vo = ca_value(g, wpr, o, k);
          r.unique0 = U & vo;
          r.unique1 = U & ~vo;
          break;
        }
      }
    }
    // two equal complete rows: the first strip checks each complete row against the rows below it
    if (distinct && rowUnknown == 0u && k == 0) {
      for (var o = y + 1; o < H; o++) {
        if (row_known(g, wpr, o) == g.width && row_agrees(g, wpr, y, o)) {
          flags |= FLAG_CONTRADICTION;
        }
      }
    }
    // Method 4 for this row's cells of the strip's matched columns: the other value than their complete column's
    var m = matched & U;
    while (m != 0u) {
      let c = firstTrailingBit(m);
      if (col_bit(g, wpr, y, firstMatch[c]) == 1u) {
        r.unique0 |= 1u << c;
      } else {
        r.unique1 |= 1u << c;
      }
      m &= m - 1u;
    }

    let out = row_step(r, methods, halfW);
    let at = g.stateOffset + (u32(y) * wpr + u32(k)) * 2u;
    dst[at] = out.K;
    dst[at + 1u] = out.V;
    flags |= out.flags;

    slide_down(&r);
  }
  return flags;
}

// the in-lane run of the grid whose rows start at word `base` (its last word follows them); returns its flags
// columns: 0 = build them from the rows; else the word where the grid's column pairs [known, value] start (packs
// carry them: building them cell by cell cost a probe copy about as much as a generation)
fn small_run(g: Grid, base: u32, columns: u32) -> u32 {
  let H = i32(g.height);
  let W = i32(g.width);
  for (var c = 0; c < W; c++) {
    colK[c] = select(0u, src[columns + u32(c) * 2u], columns != 0u);
    colV[c] = select(0u, src[columns + u32(c) * 2u + 1u], columns != 0u);
  }
  for (var y = 0; y < H; y++) {
    let k = src[base + u32(y) * 2u];
    let v = src[base + u32(y) * 2u + 1u];
    rowK[y] = k;
    rowV[y] = v;
    var f = select(k, 0u, columns != 0u);
    while (f != 0u) {
      let c = firstTrailingBit(f);
      f &= f - 1u;
      colK[c] |= 1u << u32(y);
      colV[c] |= ((v >> c) & 1u) << u32(y);
    }
  }
  track_all();
  let header = base + g.height * 2u + select(0u, g.width * 2u, columns != 0u);
  let before = src[header];
  var gens = before & ~CAPPED;
  var capped = (before & CAPPED) != 0u;
  var all = 0u;
  var pending = 0u;
  loop {
    if (capped || (g.param2 != 0u && gens >= g.param2)) {
      capped = true;
      break;
    }
    let f = small_generation(g.width, g.height, g.param0, g.param1 == 1u);
    pending = f & FLAG_PENDING;
    if ((f & (FLAG_CHANGED | FLAG_CONTRADICTION)) == 0u) {
      break;
    }
    gens += 1u;
    all |= f;
    if ((f & FLAG_CONTRADICTION) != 0u) {
      break;
    }
  }
  for (var i = 0; i < H; i++) {
    dst[base + u32(i) * 2u] = rowK[i];
    dst[base + u32(i) * 2u + 1u] = rowV[i];
  }
  dst[header] = gens | select(0u, CAPPED, capped);
  if (capped) {
    // whether it is complete: from the grid itself
    var unknown = 0u;
    for (var i = 0; i < H; i++) {
      unknown |= ~rowK[i] & ca_width_mask(g.width, 1u, 0u);
    }
    pending = select(0u, FLAG_PENDING, unknown != 0u);
  }
  // FLAG_CHANGED only when this dispatch ran a generation: the next one then finds the fixpoint at once
  return (all & ~FLAG_PENDING) | pending;
}

// one lane of a pack: its grid's in-lane run, its outcome in its last word; a lane over already copies its words
fn pack_lane(g: Grid, k: u32) {
  let words = g.height * 2u + g.width * 2u + 1u;
  let base = g.stateOffset + k * words;
  let header = base + words - 1u;
  if ((src[header] & PACK_FINISHED) != 0u) {
    for (var i = 0u; i < words; i++) {
      dst[base + i] = src[base + i];
    }
    return;
  }
  let f = small_run(g, base, base + g.height * 2u);
  dst[header] = dst[header] | PACK_FINISHED | select(0u, PACK_CONTRADICTION, (f & FLAG_CONTRADICTION) != 0u) |
    select(0u, PACK_PENDING, (f & FLAG_PENDING) != 0u);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn binary_ca(@builtin(workgroup_id) workgroupId: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  let w = work_item(workgroupId, localIndex);
  if (!w.valid) { return; }
  let g = w.grid;
  let k = w.item;
  var flags = 0u;
  if (g.param3 == 2u) {
    pack_lane(g, k);
  } else if (g.param3 == 1u) {
    flags = small_run(g, g.stateOffset, 0u);
  } else {
    flags = strip_generation(g, i32(k));
    // the last state word (the in-lane path's generation count) is carried over by the first strip
    if (k == 0u) {
      let header = g.stateOffset + g.stateWords - 1u;
      dst[header] = src[header];
    }
  }
  report_flags(w.tileIndex, localIndex, flags);
}
