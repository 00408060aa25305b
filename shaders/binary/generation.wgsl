// Our automaton's generation code shared by the engine rule (ca.wgsl: strips, in-lane runs, packs) and the
// one-puzzle-per-invocation solver (lane.wgsl). Each includer defines FLAG_CHANGED, FLAG_CONTRADICTION and
// FLAG_PENDING (the engine's flag bits; lane.wgsl repeats them).

const M_PAIRS: u32 = 1u;
const M_TRIOS: u32 = 2u;
const M_COUNT: u32 = 4u;
const M_UNIQUE: u32 = 8u;
const RULE_FLAG_BASE: u32 = 256u;

// the cells of word k that lie inside the grid
fn ca_width_mask(width: u32, wpr: u32, k: u32) -> u32 {
  let rest = width & 31u;
  if (k == wpr - 1u && rest != 0u) {
    return (1u << rest) - 1u;
  }
  return 0xffffffffu;
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

// moves the window one row down: the row and the rows below become the rows above, the row, the first row below
// (the caller loads the new second row below)
fn slide_down(r: ptr<function, RowIn>) {
  (*r).kn2 = (*r).kn1;
  (*r).vn2 = (*r).vn1;
  (*r).kn1 = (*r).K;
  (*r).vn1 = (*r).V;
  (*r).K = (*r).ks1;
  (*r).V = (*r).vs1;
  (*r).ks1 = (*r).ks2;
  (*r).vs1 = (*r).vs2;
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

// forgets what the previous generation left: the next one computes every row (a run's first generation, or a grid
// that is not a fixpoint's copy)
fn track_all() {
  doneRows = 0u;
  doneCols = 0u;
  rowsChanged = 0xffffffffu;
  colsChanged = 0xffffffffu;
  prevFull0 = 0u;
  prevFull1 = 0u;
  prevMatched = 0u;
}

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
fn small_generation(width: u32, height: u32, methods: u32, distinct: bool) -> u32 {
  let H = i32(height);
  let W = i32(width);
  let wm = ca_width_mask(width, 1u, 0u);
  let halfW = width / 2u;
  let halfH = height / 2u;
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
    candidates |= select(0u, bit, known + 2u == height);
    complete |= select(0u, bit, known == height);
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
    completeRows |= select(0u, 1u << u32(y), countOneBits(rowK[y]) == width);
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
      let rowUnknown = width - r.rowOnes - r.rowZeros;
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
    slide_down(&r);
  }
  doneRows = completeRows;
  rowsChanged = changedNow;
  colsChanged = colsNow;
  return flags;
}

