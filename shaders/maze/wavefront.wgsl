// Wavefront: distance from the start, stored modulo 3 in two bit planes (issue 3: 2 bits per cell, so 36 M cells
// fit the default buffer limits and trace-back still works: neighbours' distances differ by at most one, and
// d - 1, d, d + 1 differ mod 3). Label code: 0 not reached, 1 + distance mod 3. CPU twin: wavefrontLabels in
// src/puzzles/maze/reference.ts.
//
// One synchronous generation: an open, unreached cell next to a reached one is reached. All its reached
// neighbours have the same distance d - 1 (one reached earlier would have reached it earlier), so its label is
// that neighbour's plus one, without knowing the generation number:
//   new = open & ~reached & dilate(reached);  label 1 from neighbours labelled 3, 2 from 1, 3 from 2.
//
// Each invocation owns a region of one word (32 cells) by REGION_ROWS rows. It copies a window of three words by
// REGION_ROWS + 2K rows into private memory, runs K generations there (K = 1 in wave_step, GENERATIONS in
// wave_multi) and writes its region back: exact, since errors from the window's edge travel one cell per
// generation and K <= 32. No workgroup memory and no barriers (on SwiftShader a barrier costs a coroutine switch
// per invocation).
//
// Ping-pong with skipping. A region must run when its own cells changed in one of the last two dispatches (the
// second run makes both buffers hold the same words), or when something it reads changed in the last one: with
// one generation, a neighbour's facing row or column; with K, anything in the 3x3 neighbourhood. Otherwise its
// next state is the one it has and both buffers hold it, so it writes nothing. The stamps (dispatch numbers) sit
// after the planes and are carried to dst by every run. Once the end cell is reached every region only copies,
// so the grid reaches a fixpoint.
// State (pack.ts packWavefront): plane lo, plane hi, REGION_META stamps per region. aux: the open plane. param1 = end cell.

override REGION_ROWS: u32 = 32u;
override GENERATIONS: u32 = 16u;
override REGIONS_PER_ITEM: u32 = 8u;

const REGION_META: u32 = 5u;

// private window: 3 words by at most WINDOW_ROWS rows (REGION_ROWS + 2 * GENERATIONS must not exceed it)
const WINDOW_ROWS: u32 = 96u;

struct Window {
  lo: array<u32, 288>,
  hi: array<u32, 288>,
  open: array<u32, 288>,
}

// one-hot planes of label codes 1, 2, 3 for the three words of a window row
fn one_hot(lo: vec3u, hi: vec3u) -> array<vec3u, 3> {
  return array<vec3u, 3>(lo & ~hi, hi & ~lo, lo & hi);
}

// cells of word c whose left or right neighbour is set in plane p (words 0..2 of one window row)
fn across(p: vec3u, c: u32) -> u32 {
  var left = 0u;
  var right = 0u;
  if (c > 0u) { left = p[c - 1u]; }
  if (c < 2u) { right = p[c + 1u]; }
  return from_left(p[c], left) | from_right(p[c], right);
}

// which of a region's parts a change `diff` in row y touches (bits as in `edges` below)
fn edge_bits(diff: u32, y: u32, y0: u32, y1: u32) -> u32 {
  if (diff == 0u) { return 0u; }
  var e = 1u;
  if (y == y0) { e |= 2u; }
  if (y + 1u == y1) { e |= 4u; }
  if ((diff & 1u) != 0u) { e |= 8u; }
  if ((diff >> 31u) != 0u) { e |= 16u; }
  return e;
}

// One work item runs a column of up to REGIONS_PER_ITEM regions (fewer workgroups per dispatch: with one
// generation per dispatch, tens of thousands of dispatches each launch every workgroup of the grid).
fn wave_item(workgroupId: vec3u, localIndex: u32, generations: u32) {
  let w = work_item(workgroupId, localIndex);
  if (!w.valid) { return; }
  let g = w.grid;
  let item = w.item;
  let wpr = (g.width + 31u) / 32u;
  let regionsY = (g.height + REGION_ROWS - 1u) / REGION_ROWS;
  let wx = item % wpr;
  let firstRow = (item / wpr) * REGIONS_PER_ITEM;
  var changed = false;
  for (var k = 0u; k < REGIONS_PER_ITEM; k++) {
    let ry = firstRow + k;
    if (ry >= regionsY) { break; }
    if (wave_region(g, ry * wpr + wx, generations)) { changed = true; }
  }
  if (changed) { report_flags(w.tileIndex, localIndex, FLAG_CHANGED); }
}

// Runs one region if it may change; returns whether it changed.
fn wave_region(g: Grid, region: u32, generations: u32) -> bool {
  let wpr = (g.width + 31u) / 32u;
  let plane = wpr * g.height;
  let base = g.stateOffset;
  let metaBase = base + 2u * plane;
  let regionsY = (g.height + REGION_ROWS - 1u) / REGION_ROWS;
  let wx = region % wpr;
  let ry = region / wpr;
  let y0 = ry * REGION_ROWS;
  let y1 = min(y0 + REGION_ROWS, g.height);
  let dispatch = batch.dispatchBase + step.generation;

  // Skip test. Per region: [0] last dispatch that changed it, [1..4] last that changed its top row, bottom row,
  // left column, right column (what the region above, below, left, right reads). 0: never ran.
  let metaAt = metaBase + REGION_META * region;
  let own = src[metaAt];
  var run = own == 0u || own + 2u >= dispatch;
  if (generations == 0u) {
    // one generation reads one cell around the region: only the neighbours' facing edges matter
    if (ry > 0u) { run = run || src[metaAt - REGION_META * wpr + 2u] + 1u >= dispatch; }
    if (ry + 1u < regionsY) { run = run || src[metaAt + REGION_META * wpr + 1u] + 1u >= dispatch; }
    if (wx > 0u) { run = run || src[metaAt - REGION_META + 4u] + 1u >= dispatch; }
    if (wx + 1u < wpr) { run = run || src[metaAt + REGION_META + 3u] + 1u >= dispatch; }
  } else {
    // K generations read K cells around it: any change in the 3x3 neighbourhood
    for (var dy = 0u; dy < 3u; dy++) {
      for (var dx = 0u; dx < 3u; dx++) {
        let nx = wx + dx - 1u;
        let ny = ry + dy - 1u;
        if (nx >= wpr || ny >= regionsY) { continue; }
        run = run || src[metaBase + REGION_META * (ny * wpr + nx)] + 2u >= dispatch;
      }
    }
  }
  if (!run) { return false; }

  // the end reached: only copy (so both buffers agree and the grid reaches its fixpoint)
  let ex = g.param1 % g.width;
  let ey = g.param1 / g.width;
  let endWord = base + ey * wpr + ex / 32u;
  let done = (((src[endWord] | src[endWord + plane]) >> (ex % 32u)) & 1u) != 0u;

  var edges = 0u; // bit 0: anything changed; 1 top row, 2 bottom row, 3 left column, 4 right column
  if (generations == 0u && !done) {
    // one generation straight from src: the rows above, at and below roll through registers
    var upLo = 0u;
    var upHi = 0u;
    if (y0 > 0u) {
      upLo = src[base + (y0 - 1u) * wpr + wx];
      upHi = src[base + plane + (y0 - 1u) * wpr + wx];
    }
    var lo = src[base + y0 * wpr + wx];
    var hi = src[base + plane + y0 * wpr + wx];
    for (var y = y0; y < y1; y++) {
      let at = base + y * wpr + wx;
      var downLo = 0u;
      var downHi = 0u;
      if (y + 1u < g.height) {
        downLo = src[at + wpr];
        downHi = src[at + plane + wpr];
      }
      let fresh = aux[g.auxOffset + y * wpr + wx] & ~(lo | hi);
      var nlo = lo;
      var nhi = hi;
      if (fresh != 0u) {
        var leftLo = 0u;
        var leftHi = 0u;
        var rightLo = 0u;
        var rightHi = 0u;
        if (wx > 0u) {
          leftLo = src[at - 1u];
          leftHi = src[at + plane - 1u];
        }
        if (wx + 1u < wpr) {
          rightLo = src[at + 1u];
          rightHi = src[at + plane + 1u];
        }
        let up = one_hot(vec3u(upLo), vec3u(upHi));
        let down = one_hot(vec3u(downLo), vec3u(downHi));
        let me = one_hot(vec3u(leftLo, lo, rightLo), vec3u(leftHi, hi, rightHi));
        let n1 = fresh & (up[2].x | down[2].x | across(me[2], 1u));
        let n2 = fresh & (up[0].x | down[0].x | across(me[0], 1u));
        let n3 = fresh & (up[1].x | down[1].x | across(me[1], 1u));
        nlo = lo | n1 | n3;
        nhi = hi | n2 | n3;
        edges |= edge_bits((nlo ^ lo) | (nhi ^ hi), y, y0, y1);
      }
      dst[at] = nlo;
      dst[at + plane] = nhi;
      upLo = lo;
      upHi = hi;
      lo = downLo;
      hi = downHi;
    }
  } else if (done) {
    for (var y = y0; y < y1; y++) {
      dst[base + y * wpr + wx] = src[base + y * wpr + wx];
      dst[base + plane + y * wpr + wx] = src[base + plane + y * wpr + wx];
    }
  } else {
    // window rows wy0 .. wy0 + rows - 1 (may start above the grid: those rows stay empty)
    let k = generations;
    let rows = (y1 - y0) + 2u * k;
    let wy0 = y0 - k; // wraps below zero: such rows are out of the grid
    var w: Window;
    for (var r = 0u; r < rows; r++) {
      let y = wy0 + r;
      for (var c = 0u; c < 3u; c++) {
        let x = wx + c - 1u;
        var lo = 0u;
        var hi = 0u;
        var op = 0u;
        if (y < g.height && x < wpr) {
          lo = src[base + y * wpr + x];
          hi = src[base + plane + y * wpr + x];
          op = aux[g.auxOffset + y * wpr + x];
        }
        w.lo[r * 3u + c] = lo;
        w.hi[r * 3u + c] = hi;
        w.open[r * 3u + c] = op;
      }
    }
    // rows that may change this generation: all at first, then those next to a row that changed
    var rFirst = 0u;
    var rLast = rows - 1u;
    for (var gen = 0u; gen < k; gen++) {
      // rows in place, top to bottom: keep the previous row's old values for the row below
      var prevLo = vec3u(0u);
      var prevHi = vec3u(0u);
      if (rFirst > 0u) {
        prevLo = vec3u(w.lo[rFirst * 3u - 3u], w.lo[rFirst * 3u - 2u], w.lo[rFirst * 3u - 1u]);
        prevHi = vec3u(w.hi[rFirst * 3u - 3u], w.hi[rFirst * 3u - 2u], w.hi[rFirst * 3u - 1u]);
      }
      var changedFirst = rows;
      var changedLast = 0u;
      for (var r = rFirst; r <= rLast; r++) {
        let curLo = vec3u(w.lo[r * 3u], w.lo[r * 3u + 1u], w.lo[r * 3u + 2u]);
        let curHi = vec3u(w.hi[r * 3u], w.hi[r * 3u + 1u], w.hi[r * 3u + 2u]);
        var nextLo = vec3u(0u);
        var nextHi = vec3u(0u);
        if (r + 1u < rows) {
          nextLo = vec3u(w.lo[r * 3u + 3u], w.lo[r * 3u + 4u], w.lo[r * 3u + 5u]);
          nextHi = vec3u(w.hi[r * 3u + 3u], w.hi[r * 3u + 4u], w.hi[r * 3u + 5u]);
        }
        let up = one_hot(prevLo, prevHi);
        let down = one_hot(nextLo, nextHi);
        let me = one_hot(curLo, curHi);
        for (var c = 0u; c < 3u; c++) {
          let fresh = w.open[r * 3u + c] & ~(curLo[c] | curHi[c]);
          if (fresh == 0u) { continue; }
          // each one-hot label plane dilated over the von Neumann neighbourhood
          let from1 = up[0][c] | down[0][c] | across(me[0], c);
          let from2 = up[1][c] | down[1][c] | across(me[1], c);
          let from3 = up[2][c] | down[2][c] | across(me[2], c);
          let n1 = fresh & from3; // distance 0 mod 3 comes from 2 mod 3
          let n2 = fresh & from1;
          let n3 = fresh & from2;
          if ((n1 | n2 | n3) != 0u) {
            w.lo[r * 3u + c] = curLo[c] | n1 | n3;
            w.hi[r * 3u + c] = curHi[c] | n2 | n3;
            changedFirst = min(changedFirst, r);
            changedLast = r;
          }
        }
        prevLo = curLo;
        prevHi = curHi;
      }
      // nothing reached in this generation: the window is at rest for the others too
      if (changedFirst == rows) { break; }
      rFirst = select(0u, changedFirst - 1u, changedFirst > 0u);
      rLast = min(changedLast + 1u, rows - 1u);
    }
    for (var y = y0; y < y1; y++) {
      let r = y - wy0;
      let at = base + y * wpr + wx;
      let lo = w.lo[r * 3u + 1u];
      let hi = w.hi[r * 3u + 1u];
      edges |= edge_bits((lo ^ src[at]) | (hi ^ src[at + plane]), y, y0, y1);
      dst[at] = lo;
      dst[at + plane] = hi;
    }
  }
  dst[metaAt] = select(max(own, 1u), dispatch, (edges & 1u) != 0u);
  for (var k = 1u; k < REGION_META; k++) {
    dst[metaAt + k] = select(src[metaAt + k], dispatch, ((edges >> k) & 1u) != 0u);
  }
  return edges != 0u;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn wave_step(@builtin(workgroup_id) workgroupId: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  wave_item(workgroupId, localIndex, 0u);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn wave_multi(@builtin(workgroup_id) workgroupId: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  wave_item(workgroupId, localIndex, GENERATIONS);
}
