// The exact settle of one nonogram line, bit-parallel. CPU twin: settle() in src/puzzles/nonogram/reference.ts
// (a scalar DP; both compute the same function of clue and line, so tests compare them bit for bit).
//
// A line of `len` cells is a pair of bit sets: `fil` (known filled) and `emp` (known empty); bit p = cell p.
// Sets of positions use bits 0..len (position len = "past the last cell"), so LINE_WORDS = ceil((len + 1) / 32).
//
// For block j (length n) of the clue, moving left to right:
//   R_j   = positions where block j may start, given blocks 0..j-1 placed consistently on its left
//   Fwd_j = R_j & window(cf, n) & (ceExt >> n): the block fits on cells that can be filled, and the cell after it
//           can be empty (or is past the end)
//   G_j+1 = gap cells after block j: from each end e = s + n, every following cell that can be empty, as far as
//           the run of such cells goes (one addition: see prop)
//   R_j+1 = G_j+1 << 1 (a block starts right after a gap cell)
// The same pass over the reversed line gives the right-hand side. Then, exactly as the RL paper's optimal line
// solver and thesis 3.2.2 (Algorithm 1) define it, without enumerating placements:
//   a cell can be filled iff some block j has a start in Fwd_j that is also a start from the right;
//   a cell can be empty  iff it lies in some gap j reachable from both sides (G_j from the left and from the right).

const MAX_WORDS: u32 = 4u;
const MAX_BLOCKS: u32 = 64u;
// words per bit set for the lines of this pipeline (1: lines up to 31 cells, ... 4: up to 127)
override LINE_WORDS: u32 = 1u;

alias Bits = array<u32, 4>;

// right-to-left results, stored per gap and per block in original coordinates; index entry * LINE_WORDS + word
var<private> gapR: array<u32, 260>;  // (MAX_BLOCKS + 1) * MAX_WORDS
var<private> endR: array<u32, 256>;  // MAX_BLOCKS * MAX_WORDS

fn b_and(a: Bits, b: Bits) -> Bits {
  var r: Bits;
  for (var w = 0u; w < LINE_WORDS; w++) { r[w] = a[w] & b[w]; }
  return r;
}

fn b_or(a: Bits, b: Bits) -> Bits {
  var r: Bits;
  for (var w = 0u; w < LINE_WORDS; w++) { r[w] = a[w] | b[w]; }
  return r;
}

// a & ~b
fn b_andnot(a: Bits, b: Bits) -> Bits {
  var r: Bits;
  for (var w = 0u; w < LINE_WORDS; w++) { r[w] = a[w] & ~b[w]; }
  return r;
}

fn b_any(a: Bits) -> bool {
  var x = 0u;
  for (var w = 0u; w < LINE_WORDS; w++) { x |= a[w]; }
  return x != 0u;
}

fn b_bit(p: u32) -> Bits {
  var r: Bits;
  r[p >> 5u] = 1u << (p & 31u);
  return r;
}

// bits 0..n-1
fn b_low(n: u32) -> Bits {
  var r: Bits;
  for (var w = 0u; w < LINE_WORDS; w++) {
    let lo = w * 32u;
    if (n >= lo + 32u) { r[w] = 0xffffffffu; } else if (n > lo) { r[w] = (1u << (n - lo)) - 1u; }
  }
  return r;
}

// toward higher positions (bit p -> bit p + n); WGSL shifts take the amount mod 32, hence the guards
fn b_shl(a: Bits, n: u32) -> Bits {
  var r: Bits;
  let q = n >> 5u;
  let s = n & 31u;
  for (var w = 0u; w < LINE_WORDS; w++) {
    if (w >= q) {
      var v = a[w - q] << s;
      if (s != 0u && w > q) { v |= a[w - q - 1u] >> (32u - s); }
      r[w] = v;
    }
  }
  return r;
}

// toward lower positions (bit p -> bit p - n)
fn b_shr(a: Bits, n: u32) -> Bits {
  var r: Bits;
  let q = n >> 5u;
  let s = n & 31u;
  for (var w = 0u; w < LINE_WORDS; w++) {
    if (w + q < LINE_WORDS) {
      var v = a[w + q] >> s;
      if (s != 0u && w + q + 1u < LINE_WORDS) { v |= a[w + q + 1u] << (32u - s); }
      r[w] = v;
    }
  }
  return r;
}

// a + b with the carry running across words
fn b_add(a: Bits, b: Bits) -> Bits {
  var r: Bits;
  var carry = 0u;
  for (var w = 0u; w < LINE_WORDS; w++) {
    let s = a[w] + b[w];
    let t = s + carry;
    carry = select(0u, 1u, s < a[w]) | select(0u, 1u, t < s);
    r[w] = t;
  }
  return r;
}

// bit p -> bit len-1-p for the cells 0..len-1
fn b_rev(a: Bits, len: u32) -> Bits {
  var r: Bits;
  for (var w = 0u; w < LINE_WORDS; w++) { r[w] = reverseBits(a[LINE_WORDS - 1u - w]); }
  return b_shr(r, LINE_WORDS * 32u - len);
}

// Every position reachable from a seed in `t` by moving up through cells of `a`, staying in `a`. Within a run of
// ones of `a`, adding the seeds makes the carry ripple from the lowest seed to the top of the run; xor with `a`
// turns the rippled part into ones (and the bit past the run, which `& a` drops).
fn prop(t: Bits, a: Bits) -> Bits {
  let s = b_and(t, a);
  var r = b_add(a, s);
  for (var w = 0u; w < LINE_WORDS; w++) { r[w] = ((r[w] ^ a[w]) | s[w]) & a[w]; }
  return r;
}

// starts s with cells s..s+n-1 all in cf: AND of cf >> d for d < n, in log2(n) steps
fn window(cf: Bits, n: u32) -> Bits {
  var r = cf;
  var have = 1u;
  loop {
    if (have >= n) { break; }
    let step = min(have, n - have);
    r = b_and(r, b_shr(r, step));
    have += step;
  }
  return r;
}

// OR of a << d for d < n: the cells covered by blocks of length n starting in a
fn smear(a: Bits, n: u32) -> Bits {
  var r = a;
  var have = 1u;
  loop {
    if (have >= n) { break; }
    let step = min(have, n - have);
    r = b_or(r, b_shl(r, step));
    have += step;
  }
  return r;
}

fn store_gap(entry: u32, b: Bits) {
  for (var w = 0u; w < LINE_WORDS; w++) { gapR[entry * LINE_WORDS + w] = b[w]; }
}

fn load_gap(entry: u32) -> Bits {
  var r: Bits;
  for (var w = 0u; w < LINE_WORDS; w++) { r[w] = gapR[entry * LINE_WORDS + w]; }
  return r;
}

fn store_end(entry: u32, b: Bits) {
  for (var w = 0u; w < LINE_WORDS; w++) { endR[entry * LINE_WORDS + w] = b[w]; }
}

fn load_end(entry: u32) -> Bits {
  var r: Bits;
  for (var w = 0u; w < LINE_WORDS; w++) { r[w] = endR[entry * LINE_WORDS + w]; }
  return r;
}

struct Settled {
  fil: Bits,
  emp: Bits,
  ok: bool,  // false: no placement agrees with the known cells (a contradiction)
}

// Settles a line. `clue` is the index of the clue list (k, then the k block lengths) in the including kernel's
// clue store, read through its `clue_word` (line.wgsl: the batch's aux; lane.wgsl: the lanes' input).
fn settle(fil: Bits, emp: Bits, len: u32, clue: u32) -> Settled {
  let k = clue_word(clue);
  let cells = b_low(len);
  let ce = b_andnot(cells, fil);  // can be empty
  let cf = b_andnot(cells, emp);  // can be filled
  if (k == 0u) {
    return Settled(fil, cells, !b_any(fil));
  }
  let past = b_bit(len);
  let origin = b_bit(0u);

  // right to left, on the reversed line (block k-1-i is the i-th from the right); results stored back in original
  // coordinates: gap j (before block j) and, per block, the cell where it ends
  let ceR = b_rev(ce, len);
  let cfR = b_rev(cf, len);
  let ceExtR = b_or(ceR, past);
  var g = prop(origin, ceR);
  store_gap(k, b_rev(g, len));
  var r = b_or(origin, b_shl(g, 1u));
  for (var i = 0u; i < k; i++) {
    let j = k - 1u - i;
    let n = clue_word(clue + 1u + j);
    let fwd = b_and(b_and(r, window(cfR, n)), b_shr(ceExtR, n));
    store_end(j, b_rev(fwd, len));  // reversed start = original last cell of the block
    g = prop(b_and(b_shl(fwd, n), ceR), ceR);
    store_gap(j, b_rev(g, len));
    r = b_shl(g, 1u);
  }

  // left to right, combining with the stored right-hand side
  let ceExt = b_or(ce, past);
  g = prop(origin, ce);
  var canEmpty = b_and(g, load_gap(0u));
  var canFill: Bits;
  r = b_or(origin, b_shl(g, 1u));
  var ok = true;
  for (var j = 0u; j < k; j++) {
    let n = clue_word(clue + 1u + j);
    let fwd = b_and(b_and(r, window(cf, n)), b_shr(ceExt, n));
    let starts = b_and(fwd, b_shr(load_end(j), n - 1u));  // starts that are part of a whole placement
    if (!b_any(starts)) {
      ok = false;
      break;
    }
    canFill = b_or(canFill, smear(starts, n));
    g = prop(b_and(b_shl(fwd, n), ce), ce);
    canEmpty = b_or(canEmpty, b_and(g, load_gap(j + 1u)));
    r = b_shl(g, 1u);
  }
  let newFil = b_or(fil, b_andnot(cells, canEmpty));
  let newEmp = b_or(emp, b_andnot(cells, canFill));
  ok = ok && !b_any(b_and(newFil, newEmp));
  return Settled(newFil, newEmp, ok);
}

// ---------------------------------------------------------------------------------------------------------------
// The same for lines of up to 31 cells (LINE_WORDS = 1), on plain u32: SwiftShader keeps these in registers,
// where the array version goes through memory. Same algebra, arranged for SwiftShader on x86: a shift by a
// per-lane amount (a block's length) is emulated lane by lane there, about ten instructions, while a shift by a
// constant is one. So the reversed line sits where reversing it back and forth is a constant shift, and each block
// shifts by its length twice per pass: 9% more settles/s than a shift per use (a micro-benchmark of TAAI lines:
// 2.43M against 2.23M settles/s).

var<private> gapR1: array<u32, 65>;
// per block, its starts on the line that are consistent with the blocks to its right
var<private> startsR1: array<u32, 64>;
// per block, the starts where it fits on cells that can be filled (window1 of cf), for the left-to-right pass
var<private> fitsL1: array<u32, 64>;

fn prop1(t: u32, a: u32) -> u32 {
  let s = t & a;
  return (((a + s) ^ a) | s) & a;
}

fn window1(cf: u32, n: u32) -> u32 {
  var r = cf;
  var have = 1u;
  loop {
    if (have >= n) { break; }
    let step = min(have, n - have);
    r &= r >> step;
    have += step;
  }
  return r;
}

fn smear1(a: u32, n: u32) -> u32 {
  var r = a;
  var have = 1u;
  loop {
    if (have >= n) { break; }
    let step = min(have, n - have);
    r |= r << step;
    have += step;
  }
  return r;
}

struct Settled1 {
  fil: u32,
  emp: u32,
  ok: bool,
}

fn settle1(fil: u32, emp: u32, len: u32, clue: u32) -> Settled1 {
  let k = clue_word(clue);
  let cells = (1u << len) - 1u;  // len <= 31
  let ce = cells & ~fil;
  let cf = cells & ~emp;
  if (k == 0u) {
    return Settled1(fil, cells, fil == 0u);
  }
  // right to left on the reversed line, kept in bits 31-len..30 (cell p at bit 30-p): reversing either way is then
  // a constant shift, and the position past the line's left end is bit 31
  let ceR = reverseBits(ce) >> 1u;
  let ceExtR = ceR | 0x80000000u;
  var g = prop1(1u << (31u - len), ceR);
  gapR1[k] = reverseBits(g) >> 1u;
  var r = (1u << (31u - len)) | (g << 1u);
  for (var i = 0u; i < k; i++) {
    let j = k - 1u - i;
    let n = clue_word(clue + 1u + j);
    // one window per block serves both passes: reverseBits(fits) holds, for each start s, the reversed line's
    // position just past the block (bit 31 - s)
    let fits = window1(cf, n);
    fitsL1[j] = fits;
    // past-the-block positions of the blocks that fit and are followed by a cell that can be empty
    let past = (r << n) & reverseBits(fits) & ceExtR;
    // kept as the starts on the line: reverseBits maps bit 31 - s back to s
    startsR1[j] = reverseBits(past);
    g = prop1(past & ceR, ceR);
    gapR1[j] = reverseBits(g) >> 1u;
    r = g << 1u;
  }
  let ceExt = ce | (1u << len);
  g = prop1(1u, ce);
  var canEmpty = g & gapR1[0];
  var canFill = 0u;
  r = 1u | (g << 1u);
  var ok = true;
  for (var j = 0u; j < k; j++) {
    let n = clue_word(clue + 1u + j);
    let past = ((r & fitsL1[j]) << n) & ceExt;
    let starts = (past >> n) & startsR1[j];
    if (starts == 0u) {
      ok = false;
      break;
    }
    canFill |= smear1(starts, n);
    g = prop1(past & ce, ce);
    canEmpty |= g & gapR1[j + 1u];
    r = g << 1u;
  }
  let newFil = fil | (cells & ~canEmpty);
  let newEmp = emp | (cells & ~canFill);
  return Settled1(newFil, newEmp, ok && (newFil & newEmp) == 0u);
}
