// The walker (thesis 3.1.2): an 8-state automaton that walks the maze from the entrance, marks cross-roads and
// marks fake paths `-`, one synchronous generation per dispatch (its intermediate states depend on update order,
// so it is not run in place). CPU twin: walkerStep in src/puzzles/maze/reference.ts; states there (W):
//   0 wall, 1 path (X), 2 cross-road (T), 3 start (9), 4 walked (2), 5 walked cross-road (5), 6 fake (-), 7 exit (8).
// Rules (von Neumann): passable = not wall and not fake; active = start, walked, walked cross-road.
//   path: active neighbour -> walked (walked cross-road if >= 3 passable neighbours); else cross-road if >= 3.
//   cross-road: active neighbour -> walked cross-road.
//   walked / walked cross-road with <= 1 passable neighbour -> fake (the walk backs out of a dead end).
// State: 4 bits per cell, 8 cells per word, rows of ceil(width / 8) words; one work item per word.

fn cell(word: u32, i: u32) -> u32 {
  return (word >> (4u * i)) & 15u;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn walker_step(@builtin(workgroup_id) workgroupId: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  let t = tile_index(workgroupId);
  if (t >= batch.tileCount) { return; }
  let tile = tiles[t];
  let g = grids[tile.grid];
  let item = tile.firstItem + localIndex;
  if (item >= g.items) { return; }
  let wpr = (g.width + 7u) / 8u;
  let y = item / wpr;
  let wx = item % wpr;
  let at = g.stateOffset + item;
  let me = src[at];
  var up = 0u;
  var down = 0u;
  var left = 0u;
  var right = 0u;
  if (y > 0u) { up = src[at - wpr]; }
  if (y + 1u < g.height) { down = src[at + wpr]; }
  if (wx > 0u) { left = src[at - 1u]; }
  if (wx + 1u < wpr) { right = src[at + 1u]; }
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
  dst[at] = out;
  if (out != me) { report_flags(t, localIndex, FLAG_CHANGED); }
}
