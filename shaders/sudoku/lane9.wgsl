// The complete solver for standard 9x9 sudoku, one puzzle per invocation (src/puzzles/sudoku/lane.ts), on digit
// planes: plane d holds, for each band of three rows (x, y, z), 27 bits (bit 9i + c: row i of the band, column
// c) that say where digit d is still possible. A round of the automaton works on whole planes with bit
// operations, all cells and units at once (the layout of bitboard solvers such as JCZSolve and tdoku): naked
// singles leave their row, column and box; hidden singles (a digit with one place left in a row, column or box)
// go there; when a round changes nothing, locked candidates (pointing and claiming, both directions). A cell
// without candidates or a unit without a digit is a contradiction. The search is lane.wgsl's: a stalled grid
// splits on a cell with the fewest candidates (two if any, else three, else the first open one) into the
// smallest digit and a copy with the others, which waits on the invocation's stack (27 words a level), to two
// solutions; an invocation takes the next puzzle when it is done with one.
//
// Why a second kernel: SwiftShader pays for every instruction of every lane; the cell-by-cell sweep of
// lane.wgsl costs ~14 operations per cell and unit, the planes ~300 per digit for the whole grid.

struct Params {
  count: u32,
  depthCap: u32,
  nodeCap: u32,
  rules: u32,
  stride: u32,
}

// input: one header offset per puzzle; header: shape (unused here), offset of its 27 plane words, 0, result offset
@group(0) @binding(0) var<uniform> params: Params;
// results (engine/lanes.wgsl), per puzzle: RESULT_HEADER words as in lane.wgsl, then 2 solutions of 27 plane words

const RESULT_HEADER: u32 = 8u;
const PLANE_WORDS: u32 = 27u;
const RULE_LOCKED: u32 = 4u;


const SWEEP_STALLED: u32 = 0u;
const SWEEP_CHANGED: u32 = 1u;
const SWEEP_CONTRADICTION: u32 = 2u;
const SWEEP_SOLVED: u32 = 3u;

const ALL: u32 = 0x7ffffffu;
const ROW: u32 = 0x1ffu;

var<private> P: array<vec3u, 9>;
var<private> H: array<vec3u, 9>;

fn single3(v: vec3u) -> vec3<bool> {
  return (v & (v - vec3u(1u))) == vec3u(0u);
}

// per band: the columns (9 bits) where the band has a bit
fn fold(w: vec3u) -> vec3u {
  return (w | (w >> vec3u(9u)) | (w >> vec3u(18u))) & vec3u(ROW);
}

// per band: 9 column bits to the three rows of the band
fn spread(c: vec3u) -> vec3u {
  return c | (c << vec3u(9u)) | (c << vec3u(18u));
}

// per band: the column groups (boxes) of `c` that hold a bit, as 9 column bits
fn groups(c: vec3u) -> vec3u {
  return select(vec3u(0u), vec3u(7u), (c & vec3u(7u)) != vec3u(0u)) |
    select(vec3u(0u), vec3u(0x38u), (c & vec3u(0x38u)) != vec3u(0u)) |
    select(vec3u(0u), vec3u(0x1c0u), (c & vec3u(0x1c0u)) != vec3u(0u));
}

var<private> bad: bool;
var<private> changed: bool;
// places removed so far in this round, to see cells of two candidates become single
var<private> removed: vec3u;

// The box of columns `m` (per band) when it holds one place of the digit: bo has the columns with a place, bt
// those with two.
fn box_hidden(q: vec3u, bo: vec3u, bt: vec3u, m: u32) -> vec3u {
  let gm = vec3u(m);
  let g = bo & gm;
  bad = bad || any(g == vec3u(0u));
  return select(vec3u(0u), q & spread(gm), single3(g) & ((bt & gm) == vec3u(0u)));
}

struct Lines {
  e0: vec3u,
  e1: vec3u,
  e2: vec3u,
}

// Rows direction for the box of columns `m`, adding to what rows 0-2 of each band lose.
fn rows_locked(a0: vec3u, a1: vec3u, a2: vec3u, m: u32, e: Lines) -> Lines {
  let gm = vec3u(m);
  let h0 = (a0 & gm) != vec3u(0u);
  let h1 = (a1 & gm) != vec3u(0u);
  let h2 = (a2 & gm) != vec3u(0u);
  // pointing: the box's places in one row leave the row's other boxes
  let rest = vec3u(ROW & ~m);
  // claiming: a row's places in one box leave the box's other rows
  let c0 = h0 & ((a0 & ~gm) == vec3u(0u));
  let c1 = h1 & ((a1 & ~gm) == vec3u(0u));
  let c2 = h2 & ((a2 & ~gm) == vec3u(0u));
  return Lines(
    e.e0 | select(vec3u(0u), rest, h0 & !h1 & !h2) | select(vec3u(0u), gm, c1 | c2),
    e.e1 | select(vec3u(0u), rest, h1 & !h0 & !h2) | select(vec3u(0u), gm, c0 | c2),
    e.e2 | select(vec3u(0u), rest, h2 & !h0 & !h1) | select(vec3u(0u), gm, c0 | c1),
  );
}

fn column_point(bo: vec3u, m: u32) -> vec3u {
  let g = bo & vec3u(m);
  return select(vec3u(0u), g, single3(g) & (g != vec3u(0u)));
}

// One digit's plane: naked singles of this digit (`fixed`, its cells that are single) leave their rows, columns
// and boxes; returns the digit's hidden singles (cells that are its only place in a row, column or box).
fn digit_round(d: u32, singles: vec3u, taken: vec3u) -> vec3u {
  let start = P[d];
  // cells that hidden singles of the digits before this one took this round
  let before = start & ~taken;
  let f = before & singles;
  let rowsF = select(vec3u(0u), vec3u(ROW), (f & vec3u(ROW)) != vec3u(0u)) |
    select(vec3u(0u), vec3u(ROW << 9u), (f & vec3u(ROW << 9u)) != vec3u(0u)) |
    select(vec3u(0u), vec3u(ROW << 18u), (f & vec3u(ROW << 18u)) != vec3u(0u));
  let cf = fold(f);
  let colsF = spread(vec3u(cf.x | cf.y | cf.z));
  let boxF = spread(groups(cf));
  let q = (before & ~(rowsF | colsF | boxF)) | f;
  changed = changed || any(q != start);
  removed |= start & ~q;
  P[d] = q;
  // rows
  let r0 = q & vec3u(ROW);
  let r1 = q & vec3u(ROW << 9u);
  let r2 = q & vec3u(ROW << 18u);
  bad = bad || any(r0 == vec3u(0u)) || any(r1 == vec3u(0u)) || any(r2 == vec3u(0u));
  var hid = select(vec3u(0u), r0, single3(r0)) | select(vec3u(0u), r1, single3(r1)) | select(vec3u(0u), r2, single3(r2));
  // columns: per band the columns with a bit (bo) and with two (bt), then across the bands
  let a0 = r0;
  let a1 = r1 >> vec3u(9u);
  let a2 = r2 >> vec3u(18u);
  let bo = a0 | a1 | a2;
  let bt = (a0 & a1) | (a0 & a2) | (a1 & a2);
  let colOnce = bo.x | bo.y | bo.z;
  let colTwice = bt.x | bt.y | bt.z | (bo.x & bo.y) | (bo.x & bo.z) | (bo.y & bo.z);
  bad = bad || colOnce != ROW;
  hid |= q & spread(vec3u(colOnce & ~colTwice));
  // boxes: a box has one place when one of its columns has a bit, in one row
  hid |= box_hidden(q, bo, bt, 7u) | box_hidden(q, bo, bt, 0x38u) | box_hidden(q, bo, bt, 0x1c0u);
  return hid;
}

// One digit's locked candidates; rows direction inside each band, columns direction across the bands.
fn digit_locked(d: u32) {
  let q = P[d];
  let a0 = q & vec3u(ROW);
  let a1 = (q >> vec3u(9u)) & vec3u(ROW);
  let a2 = q >> vec3u(18u);
  var e = Lines(vec3u(0u), vec3u(0u), vec3u(0u));
  e = rows_locked(a0, a1, a2, 7u, e);
  e = rows_locked(a0, a1, a2, 0x38u, e);
  e = rows_locked(a0, a1, a2, 0x1c0u, e);
  var r = q & ~(e.e0 | (e.e1 << vec3u(9u)) | (e.e2 << vec3u(18u)));
  // columns: pointing (a box's places in one column leave the column in the other bands), claiming (a column's
  // places in one band leave the box's other columns)
  let bo = fold(r);
  let point = column_point(bo, 7u) | column_point(bo, 0x38u) | column_point(bo, 0x1c0u);
  let pointAll = point.x | point.y | point.z;
  let colOnce = bo.x | bo.y | bo.z;
  let colTwice = (bo.x & bo.y) | (bo.x & bo.z) | (bo.y & bo.z);
  let claimed = vec3u(colOnce & ~colTwice) & bo;
  let claimElim = groups(claimed) & ~claimed;
  r &= ~spread((vec3u(pointAll) & ~point) | claimElim);
  changed = changed || any(r != q);
  P[d] = r;
}

// One round over all nine planes.
fn round() -> u32 {
  var once = vec3u(0u);
  var twice = vec3u(0u);
  var thrice = vec3u(0u);
  for (var d = 0u; d < 9u; d++) {
    let p = P[d];
    thrice |= twice & p;
    twice |= once & p;
    once |= p;
  }
  if (any(once != vec3u(ALL))) {
    return SWEEP_CONTRADICTION;
  }
  let singles = once & ~twice;
  bad = false;
  changed = false;
  // a hidden single takes its cell from every other digit at once, and a cell of two candidates that loses one
  // is single, so that the digits after them see them as naked singles in the same round (a cell hidden for two
  // digits empties: a contradiction next round)
  let pairs = twice & ~thrice;
  var fixed = singles;
  removed = vec3u(0u);
  var hidden = vec3u(0u);
  for (var d = 0u; d < 9u; d++) {
    let h = digit_round(d, fixed, hidden) & ~fixed;
    H[d] = h;
    changed = changed || any(h != vec3u(0u));
    hidden |= h;
    fixed |= h | (removed & pairs);
  }
  // the digits before a hidden single lose its cell now (the ones after it lost it as they began)
  for (var d = 0u; d < 9u && any(hidden != vec3u(0u)); d++) {
    P[d] &= ~hidden | H[d];
  }
  if (bad) {
    return SWEEP_CONTRADICTION;
  }
  if (changed) {
    return SWEEP_CHANGED;
  }
  return select(SWEEP_STALLED, SWEEP_SOLVED, all(singles == vec3u(ALL)));
}

fn locked() -> bool {
  changed = false;
  for (var d = 0u; d < 9u; d++) {
    digit_locked(d);
  }
  return changed;
}

// The cell to split on (band, bit): two candidates if any, else three, else the first open cell.
fn branch_cell() -> vec2u {
  var c1 = vec3u(0u);
  var c2 = vec3u(0u);
  var c3 = vec3u(0u);
  var c4 = vec3u(0u);
  for (var d = 0u; d < 9u; d++) {
    let p = P[d];
    c4 |= c3 & p;
    c3 |= c2 & p;
    c2 |= c1 & p;
    c1 |= p;
  }
  var pick = c2 & ~c3;
  pick = select(pick, c3 & ~c4, all(pick == vec3u(0u)));
  pick = select(pick, c2, all(pick == vec3u(0u)));
  let band = select(select(2u, 1u, pick.y != 0u), 0u, pick.x != 0u);
  let word = select(select(pick.z, pick.y, pick.y != 0u), pick.x, pick.x != 0u);
  return vec2u(band, firstTrailingBit(word));
}

fn save(at: u32) {
  for (var d = 0u; d < 9u; d++) {
    let p = P[d];
    scratch[at + d * 3u] = p.x;
    scratch[at + d * 3u + 1u] = p.y;
    scratch[at + d * 3u + 2u] = p.z;
  }
}

fn load_scratch(at: u32) {
  for (var d = 0u; d < 9u; d++) {
    P[d] = vec3u(scratch[at + d * 3u], scratch[at + d * 3u + 1u], scratch[at + d * 3u + 2u]);
  }
}

fn load_input(at: u32) {
  for (var d = 0u; d < 9u; d++) {
    P[d] = vec3u(input[at + d * 3u], input[at + d * 3u + 1u], input[at + d * 3u + 2u]);
  }
}

fn write_solution(at: u32) {
  for (var d = 0u; d < 9u; d++) {
    let p = P[d];
    results[at + d * 3u] = p.x;
    results[at + d * 3u + 1u] = p.y;
    results[at + d * 3u + 2u] = p.z;
  }
}

// Split on cell (band, bit): this grid keeps the smallest digit there, the copy saved at `at` every other one.
fn split(cell: vec2u, at: u32) {
  let bit = select(vec3u(0u), vec3u(1u << cell.y), vec3u(cell.x) == vec3u(0u, 1u, 2u));
  var first = 9u;
  for (var d = 0u; d < 9u && first == 9u; d++) {
    first = select(first, d, any((P[d] & bit) != vec3u(0u)));
  }
  P[first] &= ~bit;
  save(at);
  for (var d = 0u; d < 9u; d++) {
    P[d] = select(P[d] & ~bit, P[d] | bit, d == first);
  }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn sudoku_lanes9(@builtin(global_invocation_id) id: vec3u) {
  let stack = id.x * params.depthCap * params.stride;
  let lockedRule = (params.rules & RULE_LOCKED) != 0u;
  var out = 0u;
  var busy = false;
  var depth = 0u;
  var maxDepth = 0u;
  var nodes = 0u;
  var splits = 0u;
  var solutions = 0u;
  var sweeps = 0u;
  var rootSweeps = 0u;
  loop {
    if (!busy) {
      let job = next_job();
      if (job >= params.count) {
        break;
      }
      let header = input[job];
      out = input[header + 3u];
      load_input(input[header + 1u]);
      busy = true;
      depth = 0u;
      maxDepth = 0u;
      nodes = 1u;
      splits = 0u;
      solutions = 0u;
      sweeps = 0u;
    }
    sweeps++;
    var r = round();
    if (r == SWEEP_STALLED && lockedRule) {
      r = select(SWEEP_STALLED, SWEEP_CHANGED, locked());
    }
    if (splits == 0u) {
      rootSweeps = sweeps;
    }
    var status = 0u;
    if (r == SWEEP_SOLVED) {
      write_solution(out + RESULT_HEADER + solutions * PLANE_WORDS);
      solutions++;
      status = select(0u, STATUS_MULTIPLE, solutions == 2u);
    }
    if (r == SWEEP_STALLED && depth == params.depthCap) {
      status = STATUS_DEPTH;
    }
    if (r == SWEEP_STALLED && status == 0u) {
      split(branch_cell(), stack + depth * params.stride);
      depth++;
      maxDepth = max(maxDepth, depth);
      splits++;
      nodes++;
    }
    // a contradiction, or a first solution: the newest waiting copy runs next
    if ((r == SWEEP_CONTRADICTION || r == SWEEP_SOLVED) && status == 0u) {
      if (depth == 0u) {
        status = select(STATUS_CONTRADICTION, STATUS_SOLVED, solutions == 1u);
      } else if (nodes >= params.nodeCap) {
        status = STATUS_CAPPED;
      } else {
        depth--;
        load_scratch(stack + depth * params.stride);
        nodes++;
      }
    }
    if (status != 0u) {
      results[out] = status;
      results[out + 1u] = nodes;
      results[out + 2u] = splits;
      results[out + 3u] = maxDepth;
      results[out + 4u] = rootSweeps;
      results[out + 5u] = sweeps;
      busy = false;
    }
  }
}
