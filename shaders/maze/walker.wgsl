// The walker (thesis 3.1.2): an 8-state automaton that walks the maze from the entrance, marks cross-roads and
// marks fake paths `-`, one synchronous generation per dispatch (its intermediate states depend on update order,
// so it is not run in place). CPU twin: walkerStep in src/puzzles/maze/reference.ts; states there (W):
//   0 wall, 1 path (X), 2 cross-road (T), 3 start (9), 4 walked (2), 5 walked cross-road (5), 6 fake (-), 7 exit (8).
// Rules (von Neumann): passable = not wall and not fake; active = start, walked, walked cross-road.
//   path: active neighbour -> walked (walked cross-road if >= 3 passable neighbours); else cross-road if >= 3.
//   cross-road: active neighbour -> walked cross-road.
//   walked / walked cross-road with <= 1 passable neighbour -> fake (the walk backs out of a dead end).
// State: 4 bits per cell, 8 cells per word, rows of ceil(width / 8) words, then the region stamps.

fn cell(word: u32, i: u32) -> u32 {
  return (word >> (4u * i)) & 15u;
}

// the walker's rule for the 8 cells of word `me` (4 bits each), given the words around it
fn walker_word(me: u32, up: u32, down: u32, left: u32, right: u32) -> u32 {
  var out = 0u;
  for (var i = 0u; i < 8u; i++) {
    let v = cell(me, i);
    var n = v;
    if (v == 1u || v == 2u || v == 4u || v == 5u) {
      var nb = array<u32, 4>(cell(up, i), cell(down, i), 0u, 0u);
      if (i > 0u) { nb[2] = cell(me, i - 1u); } else { nb[2] = cell(left, 7u); }
      if (i < 7u) { nb[3] = cell(me, i + 1u); } else { nb[3] = cell(right, 0u); }
      var passable = 0u;
      var walking = false;
      for (var k = 0u; k < 4u; k++) {
        let u = nb[k];
        if (u != 0u && u != 6u) { passable++; }
        if (u == 3u || u == 4u || u == 5u) { walking = true; }
      }
      if (v == 1u) {
        if (walking) { n = select(4u, 5u, passable >= 3u); } else if (passable >= 3u) { n = 2u; }
      } else if (v == 2u) {
        if (walking) { n = 5u; }
      } else if (passable <= 1u) {
        n = 6u;
      }
    }
    out |= n << (4u * i);
  }
  return out;
}

// Skipping, as in wavefront.wgsl: a region of one word (8 cells) by REGION_ROWS rows runs only when its own cells
// changed in one of the last two dispatches or a neighbour's facing row or column changed in the last one; the
// stamps ([0] any change, [1] top row, [2] bottom row, [3] left column, [4] right column; 0 = never ran) follow
// the cell words and are carried to dst by every run. The walk touches few cells per generation, so most
// regions skip.
override REGION_ROWS: u32 = 32u;
override REGIONS_PER_ITEM: u32 = 8u;
const REGION_META: u32 = 5u;

fn walker_region(g: Grid, region: u32) -> bool {
  let wpr = (g.width + 7u) / 8u;
  let base = g.stateOffset;
  let metaBase = base + wpr * g.height;
  let regionsY = (g.height + REGION_ROWS - 1u) / REGION_ROWS;
  let wx = region % wpr;
  let ry = region / wpr;
  let y0 = ry * REGION_ROWS;
  let y1 = min(y0 + REGION_ROWS, g.height);
  let dispatch = batch.dispatchBase + step.generation;
  let metaAt = metaBase + REGION_META * region;
  let own = src[metaAt];
  var run = own == 0u || own + 2u >= dispatch;
  if (ry > 0u) { run = run || src[metaAt - REGION_META * wpr + 2u] + 1u >= dispatch; }
  if (ry + 1u < regionsY) { run = run || src[metaAt + REGION_META * wpr + 1u] + 1u >= dispatch; }
  if (wx > 0u) { run = run || src[metaAt - REGION_META + 4u] + 1u >= dispatch; }
  if (wx + 1u < wpr) { run = run || src[metaAt + REGION_META + 3u] + 1u >= dispatch; }
  if (!run) { return false; }
  var edges = 0u;
  var up = 0u;
  if (y0 > 0u) { up = src[base + (y0 - 1u) * wpr + wx]; }
  var me = src[base + y0 * wpr + wx];
  for (var y = y0; y < y1; y++) {
    let at = base + y * wpr + wx;
    var down = 0u;
    if (y + 1u < g.height) { down = src[at + wpr]; }
    var left = 0u;
    var right = 0u;
    if (wx > 0u) { left = src[at - 1u]; }
    if (wx + 1u < wpr) { right = src[at + 1u]; }
    let out = walker_word(me, up, down, left, right);
    dst[at] = out;
    let diff = out ^ me;
    if (diff != 0u) {
      edges |= 1u;
      if (y == y0) { edges |= 2u; }
      if (y + 1u == y1) { edges |= 4u; }
      if ((diff & 15u) != 0u) { edges |= 8u; }
      if ((diff >> 28u) != 0u) { edges |= 16u; }
    }
    up = me;
    me = down;
  }
  dst[metaAt] = select(max(own, 1u), dispatch, (edges & 1u) != 0u);
  for (var k = 1u; k < REGION_META; k++) {
    dst[metaAt + k] = select(src[metaAt + k], dispatch, ((edges >> k) & 1u) != 0u);
  }
  return edges != 0u;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn walker_step(@builtin(workgroup_id) workgroupId: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  let w = work_item(workgroupId, localIndex);
  if (!w.valid) { return; }
  let g = w.grid;
  let item = w.item;
  let wpr = (g.width + 7u) / 8u;
  let regionsY = (g.height + REGION_ROWS - 1u) / REGION_ROWS;
  let wx = item % wpr;
  let firstRow = (item / wpr) * REGIONS_PER_ITEM;
  var changed = false;
  for (var k = 0u; k < REGIONS_PER_ITEM; k++) {
    let ry = firstRow + k;
    if (ry >= regionsY) { break; }
    if (walker_region(g, ry * wpr + wx)) { changed = true; }
  }
  if (changed) { report_flags(w.tileIndex, localIndex, FLAG_CHANGED); }
}
