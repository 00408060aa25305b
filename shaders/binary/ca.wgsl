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

const M_PAIRS: u32 = 1u;
const M_TRIOS: u32 = 2u;
const M_COUNT: u32 = 4u;
const M_UNIQUE: u32 = 8u;
const RULE_FLAG_BASE: u32 = 256u;
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

// One row's word of the next generation, from the rows above and below (same strip), the neighbouring words of
// its row, its row's counts, the strip's column facts and the Method 4 demands found by the caller.
struct RowIn {
  K: u32, V: u32,
  kn1: u32, vn1: u32, kn2: u32, vn2: u32, ks1: u32, vs1: u32, ks2: u32, vs2: u32,
  kw: u32, vw: u32, ke: u32, ve: u32,
  rowOnes: u32, rowZeros: u32,
  colFull0: u32, colFull1: u32,
  unique0: u32, unique1: u32,
  wm: u32,
}

struct RowOut {
  K: u32,
  V: u32,
  // FLAG_CHANGED, FLAG_CONTRADICTION, FLAG_PENDING and the method bits
  flags: u32,
}

fn row_step(r: RowIn, methods: u32, halfW: u32) -> RowOut {
  let U = ~r.K & r.wm;
  let o = r.K & r.V;
  let z = r.K & ~r.V;
  var bad = false;
  // Methods 1-2 along the row: the neighbours at x-2, x-1, x+1, x+2 aligned to x
  let onesW = r.kw & r.vw;
  let zerosW = r.kw & ~r.vw;
  let onesE = r.ke & r.ve;
  let zerosE = r.ke & ~r.ve;
  let o_w1 = (o << 1u) | (onesW >> 31u);
  let o_w2 = (o << 2u) | (onesW >> 30u);
  let o_e1 = (o >> 1u) | (onesE << 31u);
  let o_e2 = (o >> 2u) | (onesE << 30u);
  let z_w1 = (z << 1u) | (zerosW >> 31u);
  let z_w2 = (z << 2u) | (zerosW >> 30u);
  let z_e1 = (z >> 1u) | (zerosE << 31u);
  let z_e2 = (z >> 2u) | (zerosE << 30u);
  // ... and along the columns
  let o_n1 = r.kn1 & r.vn1;
  let o_n2 = r.kn2 & r.vn2;
  let o_s1 = r.ks1 & r.vs1;
  let o_s2 = r.ks2 & r.vs2;
  let z_n1 = r.kn1 & ~r.vn1;
  let z_n2 = r.kn2 & ~r.vn2;
  let z_s1 = r.ks1 & ~r.vs1;
  let z_s2 = r.ks2 & ~r.vs2;
  // Method 1 (pairs): two equal cells on one side; Method 2 (trios): equal cells on both sides
  let pairs0 = (o_w1 & o_w2) | (o_e1 & o_e2) | (o_n1 & o_n2) | (o_s1 & o_s2);
  let pairs1 = (z_w1 & z_w2) | (z_e1 & z_e2) | (z_n1 & z_n2) | (z_s1 & z_s2);
  let trios0 = (o_w1 & o_e1) | (o_n1 & o_s1);
  let trios1 = (z_w1 & z_e1) | (z_n1 & z_s1);
  // a known cell that these rules want the other way sits in three equal cells
  bad = bad | (((o & (pairs0 | trios0)) | (z & (pairs1 | trios1))) != 0u);
  // Method 3: the row's counts and the strip's column counts
  bad = bad | (r.rowOnes > halfW) | (r.rowZeros > halfW);
  let count0 = select(r.colFull0 & U, U, r.rowOnes == halfW);
  let count1 = select(r.colFull1 & U, U, r.rowZeros == halfW);
  // the enabled methods' demands
  let m1 = 0u - (methods & M_PAIRS);
  let m2 = 0u - ((methods >> 1u) & 1u);
  let m3 = 0u - ((methods >> 2u) & 1u);
  let m4 = 0u - ((methods >> 3u) & 1u);
  let need0 = ((pairs0 & m1) | (trios0 & m2) | (count0 & m3) | (r.unique0 & m4)) & U;
  let need1 = ((pairs1 & m1) | (trios1 & m2) | (count1 & m3) | (r.unique1 & m4)) & U;
  bad = bad | ((need0 & need1) != 0u);
  let fresh = need0 ^ need1;
  var out: RowOut;
  out.K = r.K | fresh;
  out.V = r.V | (fresh & need1);
  var flags = select(0u, FLAG_CONTRADICTION, bad) | select(0u, FLAG_PENDING, (~out.K & r.wm) != 0u);
  if (fresh != 0u) {
    flags |= FLAG_CHANGED;
    flags |= select(0u, M_PAIRS * RULE_FLAG_BASE, (fresh & (pairs0 | pairs1) & m1) != 0u);
    flags |= select(0u, M_TRIOS * RULE_FLAG_BASE, (fresh & (trios0 | trios1) & m2) != 0u);
    flags |= select(0u, M_COUNT * RULE_FLAG_BASE, (fresh & (count0 | count1) & m3) != 0u);
    flags |= select(0u, M_UNIQUE * RULE_FLAG_BASE, (fresh & (r.unique0 | r.unique1) & m4) != 0u);
  }
  out.flags = flags;
  return out;
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

    // slide the window down
    r.kn2 = r.kn1;
    r.vn2 = r.vn1;
    r.kn1 = r.K;
    r.vn1 = r.V;
    r.K = r.ks1;
    r.V = r.vs1;
    r.ks1 = r.ks2;
    r.vs1 = r.vs2;
  }
  return flags;
}

// ---------------------------------------------------------------------------------------------------------------
// The in-lane path: grids of at most 32x32, generations in private memory. The grid is kept both as rows and as
// columns (bit y of column word c = cell (c, y)), the columns updated cell by cell as cells become known, so the
// column counts and Method 4 on columns cost a word per column instead of a pass over the rows. Rule 3 is checked
// for the lines that became complete since the last check (all of them in a dispatch's first generation): a pair
// of equal complete lines always has a newest member.

var<private> rowK: array<u32, 32>;
var<private> rowV: array<u32, 32>;
// per column with two unknowns: the first complete column it agrees with (read only where `matched` says so:
// a private array at module scope is cleared once per invocation, a function's once per call)
var<private> firstMatchCol: array<u32, 32>;
var<private> colK: array<u32, 32>;
var<private> colV: array<u32, 32>;
// complete lines at the previous generation (bit per row / column)
var<private> doneRows: u32;
var<private> doneCols: u32;
// What changed in the previous generation, to skip the rows whose inputs did not change (their result would be
// the previous one: no new cell, no contradiction): rows that changed (all at the start of a run), and the column
// facts of the previous generation.
var<private> rowsChanged: u32;
var<private> colsChanged: u32;
var<private> prevFull0: u32;
var<private> prevFull1: u32;
var<private> prevMatched: u32;

// rows of the private grid, 0 outside it (branchless, as ca_word)
fn pk(y: i32, H: i32) -> u32 {
  let inside = (y >= 0) & (y < H);
  return select(0u, rowK[select(0, y, inside)], inside);
}

fn pv(y: i32, H: i32) -> u32 {
  let inside = (y >= 0) & (y < H);
  return select(0u, rowV[select(0, y, inside)], inside);
}

// One generation of the private grid, in place (returns its flags): each row reads its neighbours from a window of
// the old rows kept in registers, and the other rows it compares with are complete ones, which do not change.
fn small_generation(g: Grid) -> u32 {
  let methods = g.param0;
  let distinct = g.param1 == 1u;
  let H = i32(g.height);
  let W = i32(g.width);
  let wm = ca_width_mask(g.width, 1u, 0u);
  let halfW = g.width / 2u;
  let halfH = g.height / 2u;
  var flags = 0u;

  // column facts, one word per column
  var colFull0 = 0u;
  var colFull1 = 0u;
  var candidates = 0u;
  var complete = 0u;
  for (var c = 0; c < W; c++) {
    let ones = countOneBits(colK[c] & colV[c]);
    let known = countOneBits(colK[c]);
    let zeros = known - ones;
    let bit = 1u << u32(c);
    colFull0 |= select(0u, bit, ones == halfH);
    colFull1 |= select(0u, bit, zeros == halfH);
    candidates |= select(0u, bit, known + 2u == g.height);
    complete |= select(0u, bit, known == g.height);
    flags |= select(0u, FLAG_CONTRADICTION, (ones > halfH) | (zeros > halfH));
  }

  // Method 4 for columns: the first complete column each two-unknown column agrees with; Rule 3 for the columns
  // completed since the last generation
  var matched = 0u;
  if (distinct) {
    var cs = candidates;
    while (cs != 0u) {
      let c = firstTrailingBit(cs);
      cs &= cs - 1u;
      var others = complete;
      while (others != 0u) {
        let c2 = firstTrailingBit(others);
        others &= others - 1u;
        if ((colK[c] & (colV[c] ^ colV[c2])) == 0u) {
          firstMatchCol[c] = c2;
          matched |= 1u << c;
          break;
        }
      }
    }
    var fresh = complete & ~doneCols;
    while (fresh != 0u) {
      let c = firstTrailingBit(fresh);
      fresh &= fresh - 1u;
      var others = complete & ~(1u << c);
      while (others != 0u) {
        let c2 = firstTrailingBit(others);
        others &= others - 1u;
        flags |= select(0u, FLAG_CONTRADICTION, colV[c] == colV[c2]);
      }
    }
  }
  let doneColsBefore = doneCols;
  doneCols = complete;

  var completeRows = 0u;
  for (var y = 0; y < H; y++) {
    completeRows |= select(0u, 1u << u32(y), countOneBits(rowK[y]) == g.width);
  }
  // Rows to compute: near a row that changed (Methods 1-2 see two rows each way), with an unknown cell in a
  // column whose facts changed (full of a value, its Method 4 match), all when the complete rows changed (Method 4
  // on rows). The others would repeat their last result.
  let allRows = select(0xffffffffu, (1u << u32(H)) - 1u, H < 32);
  var dirty = rowsChanged | (rowsChanged << 1u) | (rowsChanged << 2u) | (rowsChanged >> 1u) | (rowsChanged >> 2u);
  var factCols = (colFull0 ^ prevFull0) | (colFull1 ^ prevFull1) | (matched ^ prevMatched) | (matched & colsChanged) |
    select(0u, matched, complete != doneColsBefore);
  while (factCols != 0u) {
    let c = firstTrailingBit(factCols);
    factCols &= factCols - 1u;
    dirty |= ~colK[c];
  }
  dirty = select(dirty, allRows, completeRows != doneRows) & allRows;
  prevFull0 = colFull0;
  prevFull1 = colFull1;
  prevMatched = matched;
  var changedNow = 0u;
  var colsNow = 0u;
  var r: RowIn;
  r.wm = wm;
  r.colFull0 = colFull0;
  r.colFull1 = colFull1;
  r.K = rowK[0];
  r.V = rowV[0];
  r.ks1 = pk(1, H);
  r.vs1 = pv(1, H);
  for (var y = 0; y < H; y++) {
    r.ks2 = pk(y + 2, H);
    r.vs2 = pv(y + 2, H);
    let me = 1u << u32(y);
    if ((dirty & me) == 0u) {
      flags |= select(0u, FLAG_PENDING, (~r.K & wm) != 0u);
    } else {
      let U = ~r.K & wm;
      r.rowOnes = countOneBits(r.K & r.V);
      r.rowZeros = countOneBits(r.K & ~r.V);
      r.unique0 = 0u;
      r.unique1 = 0u;
      let rowUnknown = g.width - r.rowOnes - r.rowZeros;
      if (distinct && rowUnknown == 2u) {
        var others = completeRows;
        while (others != 0u) {
          let o = firstTrailingBit(others);
          others &= others - 1u;
          if ((r.K & (r.V ^ rowV[o])) == 0u) {
            r.unique0 = U & rowV[o];
            r.unique1 = U & ~rowV[o];
            break;
          }
        }
      }
      if (distinct && (completeRows & ~doneRows & me) != 0u) {
        var others = completeRows & ~me;
        while (others != 0u) {
          let o = firstTrailingBit(others);
          others &= others - 1u;
          flags |= select(0u, FLAG_CONTRADICTION, rowV[o] == r.V);
        }
      }
      var m = matched & U;
      while (m != 0u) {
        let c = firstTrailingBit(m);
        let above = ((r.V >> firstMatchCol[c]) & 1u) == 1u;
        r.unique0 |= select(0u, 1u << c, above);
        r.unique1 |= select(1u << c, 0u, above);
        m &= m - 1u;
      }
      let out = row_step(r, methods, halfW);
      rowK[y] = out.K;
      rowV[y] = out.V;
      flags |= out.flags;
      changedNow |= select(0u, me, out.K != r.K);
      colsNow |= out.K & ~r.K;
      // the new cells into their columns
      var f = out.K & ~r.K;
      while (f != 0u) {
        let c = firstTrailingBit(f);
        f &= f - 1u;
        colK[c] |= me;
        colV[c] |= ((out.V >> c) & 1u) << u32(y);
      }
    }
    // slide the window down (the old rows: the next rows' neighbours)
    r.kn2 = r.kn1;
    r.vn2 = r.vn1;
    r.kn1 = r.K;
    r.vn1 = r.V;
    r.K = r.ks1;
    r.V = r.vs1;
    r.ks1 = r.ks2;
    r.vs1 = r.vs2;
  }
  doneRows = completeRows;
  rowsChanged = changedNow;
  colsChanged = colsNow;
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
  doneRows = 0u;
  doneCols = 0u;
  rowsChanged = 0xffffffffu;
  colsChanged = 0xffffffffu;
  prevFull0 = 0u;
  prevFull1 = 0u;
  prevMatched = 0u;
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
    let f = small_generation(g);
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
  let t = tile_index(workgroupId);
  if (t >= batch.tileCount) {
    return;
  }
  let tile = tiles[t];
  let g = grids[tile.grid];
  let k = tile.firstItem + localIndex;
  if (k >= g.items) {
    return;
  }
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
  report_flags(t, localIndex, flags);
}
