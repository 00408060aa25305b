// The thesis' binary puzzle automaton (van Dijk 2017, 3.3.2), one generation; CPU twin: thesisStep in
// src/puzzles/binary/reference.ts, where the state words and the walker are described in full.
// One work item per cell. The cell sees its radius-2 von Neumann neighbourhood: Method 1 ("two consecutive
// neighbours with the same sure value") and Method 2 ("two opposite neighbours with the same sure value") are
// local rules on it; Method 3 comes from one walker per row and per column, which climbs from the line's last cell
// to its first counting zeros and ones, decides there, and walks back down setting the unknown cells.
//
// word 0: bits 0-1 sure | 2-4 hwalker | 5-7 vwalker | 8 hfired | 9 vfired | 10 hfresh | 11 vfresh | 12 hdirty |
//         13 vdirty | 16-31 age;   word 1: bits 0-7 row zeros | 8-15 row ones | 16-23 column zeros | 24-31 ones

const UNKNOWN: u32 = 2u;
const M_PAIRS: u32 = 1u;
const M_TRIOS: u32 = 2u;
const M_COUNT: u32 = 4u;
const RULE_FLAG_BASE: u32 = 256u;
const AGE_MAX: u32 = 0xffffu;

fn th_w0(g: Grid, x: i32, y: i32) -> u32 {
  return src[g.stateOffset + (u32(y) * g.width + u32(x)) * 2u];
}

fn th_w1(g: Grid, x: i32, y: i32) -> u32 {
  return src[g.stateOffset + (u32(y) * g.width + u32(x)) * 2u + 1u];
}

fn th_sure(g: Grid, x: i32, y: i32) -> u32 {
  if (x < 0 || y < 0 || x >= i32(g.width) || y >= i32(g.height)) {
    return UNKNOWN;
  }
  return th_w0(g, x, y) & 3u;
}

// A walker's fields at one cell, for one direction.
struct Walk {
  w: u32,
  fired: u32,
  fresh: u32,
  z: u32,
  o: u32,
  counted: bool,
  demand: u32,     // 0: set to 0, 1: set to 1, UNKNOWN: nothing
  overflow: bool,
}

fn h_walk(w0: u32, w1: u32) -> Walk {
  return Walk((w0 >> 2u) & 7u, (w0 >> 8u) & 1u, (w0 >> 10u) & 1u, w1 & 0xffu, (w1 >> 8u) & 0xffu, false, UNKNOWN, false);
}

fn v_walk(w0: u32, w1: u32) -> Walk {
  return Walk((w0 >> 5u) & 7u, (w0 >> 9u) & 1u, (w0 >> 11u) & 1u, (w1 >> 16u) & 0xffu, w1 >> 24u, false, UNKNOWN, false);
}

fn demand_of(w: u32) -> u32 {
  if (w == 3u) {
    return 0u;
  }
  if (w == 4u) {
    return 1u;
  }
  return UNKNOWN;
}

// One walker step at index i of a line of n cells (0: the first cell, where walkers turn; n-1: the last, where
// they start). `cur` is this cell's walker, `next` the cell at i+1 (hasNext), `prev` the cell at i-1 (hasPrev).
fn walk(i: u32, n: u32, sure: u32, dirty: u32, cur: Walk, hasNext: bool, next: Walk, hasPrev: bool, prev: Walk) -> Walk {
  var z0 = 0u;
  var o0 = 0u;
  if (sure == 0u) {
    z0 = 1u;
  }
  if (sure == 1u) {
    o0 = 1u;
  }
  let half = n / 2u;
  // the last cell fires the walker: the first time, and again when it comes back down
  if (i == n - 1u && (cur.fired == 0u || cur.w >= 2u)) {
    return Walk(1u, 1u, dirty, z0, o0, true, UNKNOWN, false);
  }
  // at the first cell: "ones - zeros == unknowns" -> 3 (unknowns become 0); the reverse -> 4; else 2
  if (i == 0u && cur.w == 1u) {
    let unknowns = n - cur.z - cur.o;
    var w = 2u;
    if (cur.o == half && unknowns > 0u) {
      w = 3u;
    } else if (cur.z == half && unknowns > 0u) {
      w = 4u;
    }
    return Walk(w, cur.fired, cur.fresh, cur.z, cur.o, false, demand_of(w), cur.o > half || cur.z > half);
  }
  // climbing: count this cell
  if (hasNext && next.w == 1u) {
    return Walk(1u, cur.fired, next.fresh | dirty, next.z + z0, next.o + o0, true, UNKNOWN, false);
  }
  // coming back down
  if (hasPrev && prev.w >= 2u) {
    return Walk(prev.w, cur.fired, prev.fresh, 0u, 0u, false, demand_of(prev.w), false);
  }
  return Walk(0u, cur.fired, 0u, 0u, 0u, false, UNKNOWN, false);
}

// the value Method 1 or 2 wants from a pair of neighbours (UNKNOWN: none)
fn pair_want(a: u32, b: u32) -> u32 {
  if (a != UNKNOWN && a == b) {
    return 1u - a;
  }
  return UNKNOWN;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn binary_thesis(@builtin(workgroup_id) workgroupId: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  let w = work_item(workgroupId, localIndex);
  if (!w.valid) { return; }
  let g = w.grid;
  let item = w.item;
  let x = i32(item % g.width);
  let y = i32(item / g.width);
  let w0 = th_w0(g, x, y);
  let w1 = th_w1(g, x, y);
  let sure = w0 & 3u;
  let hdirty = (w0 >> 12u) & 1u;
  let vdirty = (w0 >> 13u) & 1u;
  let W = i32(g.width);
  let H = i32(g.height);

  var hNext = Walk(0u, 0u, 0u, 0u, 0u, false, UNKNOWN, false);
  var hPrev = hNext;
  var vNext = hNext;
  var vPrev = hNext;
  if (x + 1 < W) {
    hNext = h_walk(th_w0(g, x + 1, y), th_w1(g, x + 1, y));
  }
  if (x > 0) {
    hPrev = h_walk(th_w0(g, x - 1, y), th_w1(g, x - 1, y));
  }
  if (y + 1 < H) {
    vNext = v_walk(th_w0(g, x, y + 1), th_w1(g, x, y + 1));
  }
  if (y > 0) {
    vPrev = v_walk(th_w0(g, x, y - 1), th_w1(g, x, y - 1));
  }
  let hw = walk(u32(x), g.width, sure, hdirty, h_walk(w0, w1), x + 1 < W, hNext, x > 0, hPrev);
  let vw = walk(u32(y), g.height, sure, vdirty, v_walk(w0, w1), y + 1 < H, vNext, y > 0, vPrev);

  // Methods 1 (pairs) and 2 (trios): want bit 0 = "be 0", bit 1 = "be 1", per method
  var pairs = 0u;
  var trios = 0u;
  var counts = 0u;
  let e1 = th_sure(g, x + 1, y);
  let w_1 = th_sure(g, x - 1, y);
  let s1 = th_sure(g, x, y + 1);
  let n1 = th_sure(g, x, y - 1);
  for (var d = 0u; d < 4u; d++) {
    var p = UNKNOWN;
    switch d {
      case 0u: { p = pair_want(e1, th_sure(g, x + 2, y)); }
      case 1u: { p = pair_want(w_1, th_sure(g, x - 2, y)); }
      case 2u: { p = pair_want(s1, th_sure(g, x, y + 2)); }
      default: { p = pair_want(n1, th_sure(g, x, y - 2)); }
    }
    if (p != UNKNOWN) {
      pairs |= 1u << p;
    }
  }
  let th = pair_want(e1, w_1);
  if (th != UNKNOWN) {
    trios |= 1u << th;
  }
  let tv = pair_want(s1, n1);
  if (tv != UNKNOWN) {
    trios |= 1u << tv;
  }
  if (hw.demand != UNKNOWN) {
    counts |= 1u << hw.demand;
  }
  if (vw.demand != UNKNOWN) {
    counts |= 1u << vw.demand;
  }

  var flags = 0u;
  if (hw.overflow || vw.overflow) {
    flags |= FLAG_CONTRADICTION;
  }
  var nextSure = sure;
  if (sure == UNKNOWN) {
    let want = pairs | trios | counts;
    if (want == 3u) {
      flags |= FLAG_CONTRADICTION;
    } else if (want != 0u) {
      nextSure = want >> 1u;
      if (pairs != 0u) {
        flags |= M_PAIRS * RULE_FLAG_BASE;
      }
      if (trios != 0u) {
        flags |= M_TRIOS * RULE_FLAG_BASE;
      }
      if (counts != 0u) {
        flags |= M_COUNT * RULE_FLAG_BASE;
      }
    }
  } else if (((pairs | trios) & (1u << (1u - sure))) != 0u) {
    // Methods 1-2 want a known cell the other way: it sits in three equal cells
    flags |= FLAG_CONTRADICTION;
  }

  let changed = nextSure != sure;
  var hd = 0u;
  var vd = 0u;
  if (changed || (hdirty == 1u && !hw.counted)) {
    hd = 1u;
  }
  if (changed || (vdirty == 1u && !vw.counted)) {
    vd = 1u;
  }
  var age = min((w0 >> 16u) + 1u, AGE_MAX);
  if (changed) {
    age = 0u;
  }
  let at = g.stateOffset + item * 2u;
  dst[at] = nextSure | (hw.w << 2u) | (vw.w << 5u) | (hw.fired << 8u) | (vw.fired << 9u) | (hw.fresh << 10u) | (vw.fresh << 11u) |
    (hd << 12u) | (vd << 13u) | (age << 16u);
  dst[at + 1u] = hw.z | (hw.o << 8u) | (vw.z << 16u) | (vw.o << 24u);
  // still running: a cell changed, a change not yet counted by its walkers, or a walker carrying one
  if (changed || hd == 1u || vd == 1u || (hw.w != 0u && hw.fresh == 1u) || (vw.w != 0u && vw.fresh == 1u)) {
    flags |= FLAG_CHANGED;
  }
  if (nextSure == UNKNOWN) {
    flags |= FLAG_PENDING;
  }
  report_flags(w.tileIndex, localIndex, flags);
}
