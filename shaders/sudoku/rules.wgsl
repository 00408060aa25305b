// The sudoku elimination rules: one cell's next candidates from its units (bit v-1 = value v still possible).
// CPU twin: src/puzzles/sudoku/reference.ts (caCell, lockedFor). The candidates of cell i of the current grid come
// from `cand(i)`, defined by the file joined with this one: sync.wgsl reads the previous generation (ping-pong,
// one exact generation per dispatch), async.wgsl reads the live state (in place, order-independent rounds).
// A grid's items are min(cells, WORKGROUP_SIZE): a 9x9 grid is one workgroup (SwiftShader pays tens of
// microseconds per workgroup for a barrier), and invocation i takes cells i, i + items, ...
// Rules (grid param1 bits): 1 naked single, 2 hidden single, 4 locked candidates.

const RULE_NAKED: u32 = 1u;
const RULE_HIDDEN: u32 = 2u;
const RULE_LOCKED: u32 = 4u;
const FLAG_NAKED: u32 = 256u;
const FLAG_HIDDEN: u32 = 512u;
const FLAG_LOCKED: u32 = 1024u;
// the counter packs cells per rule, 10 bits each (at most 1024 cells)
const COUNT_NAKED: u32 = 1u;
const COUNT_HIDDEN: u32 = 1024u;
const COUNT_LOCKED: u32 = 1048576u;

fn is_single(v: u32) -> bool {
  return (v & (v - 1u)) == 0u;
}

// OR of the candidates of a unit's cells other than x (.x), and OR of those that hold a single value (.y).
// A unit is base + i * outerStride + j * innerStride (rows, columns, boxes, diagonals: no division per cell).
fn scan_unit(x: u32, base: u32, outer: u32, outerStride: u32, inner: u32, innerStride: u32) -> vec2u {
  var others = 0u;
  var singles = 0u;
  for (var i = 0u; i < outer; i++) {
    for (var j = 0u; j < inner; j++) {
      let cell = base + i * outerStride + j * innerStride;
      let v = cand(cell);
      if (cell != x) {
        others |= v;
        singles |= select(0u, v, is_single(v));
      }
    }
  }
  return vec2u(others, singles);
}

// The same over a jigsaw region, whose cells are listed in aux.
fn scan_region_list(s: Shape, x: u32, R: u32) -> vec2u {
  var others = 0u;
  var singles = 0u;
  let list = s.auxOffset + s.n * s.n + R * s.n;
  for (var k = 0u; k < s.n; k++) {
    let cell = aux[list + k];
    let v = cand(cell);
    if (cell != x) {
      others |= v;
      singles |= select(0u, v, is_single(v));
    }
  }
  return vec2u(others, singles);
}

// Values locked out of cell x by box/line interaction (rows and columns):
//  pointing: a region R2 != R whose candidates for a value all lie on x's line;
//  claiming: another line parallel to x's whose candidates for a value all lie in x's region.
// Rectangular boxes: only the boxes of x's band (stack) and the lines of x's box can lock anything.
fn locked_boxes(s: Shape, x: u32) -> u32 {
  let n = s.n;
  let r = x / n;
  let c = x % n;
  let r0 = (r / s.boxH) * s.boxH;  // first row of x's band
  let c0 = (c / s.boxW) * s.boxW;  // first column of x's stack
  var lock = 0u;
  // pointing along the row: the other boxes of the band
  for (var bc = 0u; bc < n; bc += s.boxW) {
    if (bc == c0) {
      continue;
    }
    var inLine = 0u;
    var rest = 0u;
    for (var i = 0u; i < s.boxH; i++) {
      var seg = 0u;
      for (var j = 0u; j < s.boxW; j++) {
        seg |= cand((r0 + i) * n + bc + j);
      }
      if (r0 + i == r) {
        inLine |= seg;
      } else {
        rest |= seg;
      }
    }
    lock |= inLine & ~rest;
  }
  // pointing along the column: the other boxes of the stack
  for (var br = 0u; br < n; br += s.boxH) {
    if (br == r0) {
      continue;
    }
    var inLine = 0u;
    var rest = 0u;
    for (var j = 0u; j < s.boxW; j++) {
      var seg = 0u;
      for (var i = 0u; i < s.boxH; i++) {
        seg |= cand((br + i) * n + c0 + j);
      }
      if (c0 + j == c) {
        inLine |= seg;
      } else {
        rest |= seg;
      }
    }
    lock |= inLine & ~rest;
  }
  // claiming from the other rows of x's box
  for (var i = 0u; i < s.boxH; i++) {
    let row = r0 + i;
    if (row == r) {
      continue;
    }
    var inRegion = 0u;
    var rest = 0u;
    for (var k = 0u; k < n; k++) {
      let v = cand(row * n + k);
      if (k >= c0 && k < c0 + s.boxW) {
        inRegion |= v;
      } else {
        rest |= v;
      }
    }
    lock |= inRegion & ~rest;
  }
  // claiming from the other columns of x's box
  for (var j = 0u; j < s.boxW; j++) {
    let col = c0 + j;
    if (col == c) {
      continue;
    }
    var inRegion = 0u;
    var rest = 0u;
    for (var k = 0u; k < n; k++) {
      let v = cand(k * n + col);
      if (k >= r0 && k < r0 + s.boxH) {
        inRegion |= v;
      } else {
        rest |= v;
      }
    }
    lock |= inRegion & ~rest;
  }
  return lock;
}

// Jigsaw regions: every region and every line may interact; region membership comes from aux.
fn locked_jigsaw(s: Shape, x: u32) -> u32 {
  let n = s.n;
  let r = x / n;
  let c = x % n;
  let R = region_of(s, x);
  var lock = 0u;
  for (var line = 0u; line < 2u; line++) {
    for (var R2 = 0u; R2 < n; R2++) {
      if (R2 == R) {
        continue;
      }
      var inLine = 0u;
      var rest = 0u;
      for (var k = 0u; k < n; k++) {
        let cell = region_cell(s, R2, k);
        let v = cand(cell);
        if (select(cell % n == c, cell / n == r, line == 0u)) {
          inLine |= v;
        } else {
          rest |= v;
        }
      }
      lock |= inLine & ~rest;
    }
    let own = select(c, r, line == 0u);
    for (var L = 0u; L < n; L++) {
      if (L == own) {
        continue;
      }
      var inRegion = 0u;
      var rest = 0u;
      for (var k = 0u; k < n; k++) {
        let cell = select(k * n + L, L * n + k, line == 0u);
        let v = cand(cell);
        if (region_of(s, cell) == R) {
          inRegion |= v;
        } else {
          rest |= v;
        }
      }
      lock |= inRegion & ~rest;
    }
  }
  return lock;
}

// The hidden-single rule for one unit: a value no other cell of the unit can take must go here.
fn hidden_in(s: Shape, others: u32, m: ptr<function, u32>, flags: ptr<function, u32>, counter: ptr<function, u32>) {
  let need = s.full & ~others;
  if (need == 0u) {
    return;
  }
  if (!is_single(need) || (need & *m) == 0u) {
    *flags |= FLAG_CONTRADICTION;
    *m = 0u;
  } else if (*m != need) {
    *m = need;
    *flags |= FLAG_HIDDEN;
    *counter += COUNT_HIDDEN;
  }
}

// One cell's next candidates: x = mask, y = flags, z = packed rule counts. Units in the twin's order: row,
// column, region, main diagonal, anti-diagonal.
fn next_cell(s: Shape, x: u32, rules: u32) -> vec3u {
  let n = s.n;
  let r = x / n;
  let c = x % n;
  let before = cand(x);
  var m = before;
  var flags = 0u;
  var counter = 0u;
  let row = scan_unit(x, r * n, 1u, 0u, n, 1u);
  let col = scan_unit(x, c, n, n, 1u, 0u);
  var region: vec2u;
  if (is_jigsaw(s)) {
    region = scan_region_list(s, x, region_of(s, x));
  } else {
    region = scan_unit(x, (r / s.boxH) * s.boxH * n + (c / s.boxW) * s.boxW, s.boxH, n, s.boxW, 1u);
  }
  let diagonal = (s.variant & VARIANT_DIAGONAL) != 0u;
  let onMain = diagonal && r == c;
  let onAnti = diagonal && r + c == n - 1u;
  var d0 = vec2u(0u);
  var d1 = vec2u(0u);
  if (onMain) {
    d0 = scan_unit(x, 0u, n, n + 1u, 1u, 0u);
  }
  if (onAnti) {
    d1 = scan_unit(x, n - 1u, n, n - 1u, 1u, 0u);
  }
  if ((rules & RULE_NAKED) != 0u) {
    let solved = row.y | col.y | region.y | d0.y | d1.y;
    if ((m & solved) != 0u) {
      m &= ~solved;
      flags |= FLAG_NAKED;
      counter += COUNT_NAKED;
    }
  }
  if ((rules & RULE_HIDDEN) != 0u) {
    hidden_in(s, row.x, &m, &flags, &counter);
    hidden_in(s, col.x, &m, &flags, &counter);
    hidden_in(s, region.x, &m, &flags, &counter);
    if (onMain) {
      hidden_in(s, d0.x, &m, &flags, &counter);
    }
    if (onAnti) {
      hidden_in(s, d1.x, &m, &flags, &counter);
    }
  }
  if ((rules & RULE_LOCKED) != 0u && m != 0u) {
    var lock: u32;
    if (is_jigsaw(s)) {
      lock = locked_jigsaw(s, x);
    } else {
      lock = locked_boxes(s, x);
    }
    if ((m & lock) != 0u) {
      m &= ~lock;
      flags |= FLAG_LOCKED;
      counter += COUNT_LOCKED;
    }
  }
  if (m == 0u) {
    flags |= FLAG_CONTRADICTION;
  }
  if (m != before) {
    flags |= FLAG_CHANGED;
  }
  if (!is_single(m)) {
    flags |= FLAG_PENDING;
  }
  return vec3u(m, flags, counter);
}
