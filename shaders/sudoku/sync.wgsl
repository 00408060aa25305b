// The elimination automaton, one exact synchronous generation per dispatch (ping-pong): every cell's next
// candidates from the previous generation only. This is the CPU twin's generation, bit for bit (`--method ca`
// and the twin tests).

var<private> gridBase: u32;

fn cand(i: u32) -> u32 {
  return src[gridBase + i];
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn sudoku_step(@builtin(workgroup_id) workgroupId: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  let w = work_item(workgroupId, localIndex);
  if (!w.valid) { return; }
  let g = w.grid;
  let s = shape_of(g);
  gridBase = g.stateOffset;
  let total = s.n * s.n;
  var flags = 0u;
  var counter = 0u;
  for (var x = w.item; x < total; x += g.items) {
    let r = next_cell(s, x, g.param1);
    dst[gridBase + x] = r.x;
    flags |= r.y;
    counter += r.z;
  }
  report_flags(w.tileIndex, localIndex, flags);
  report_count(w.tileIndex, localIndex, counter);
}
