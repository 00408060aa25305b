// Dead-end filling, one synchronous generation per dispatch (thesis 3.1.1, with the third state of thesis 4.1):
// a path cell with at most one open neighbour becomes a fake path. CPU twin: deadendStep in
// src/puzzles/maze/reference.ts. State (pack.ts packDeadend): plane A = open (path or terminal), plane B = fake
// or terminal; terminals (start, end) are A&B and never fill. One work item = one word = 32 cells.

@compute @workgroup_size(WORKGROUP_SIZE)
fn deadend_step(@builtin(workgroup_id) workgroupId: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  let w = work_item(workgroupId, localIndex);
  if (!w.valid) { return; }
  let g = w.grid;
  let item = w.item;
  let wpr = (g.width + 31u) / 32u;
  let plane = wpr * g.height;
  let y = item / wpr;
  let x = item % wpr;
  let at = g.stateOffset + item;
  let a = src[at];
  let b = src[at + plane];
  var up = 0u;
  var down = 0u;
  var lw = 0u;
  var rw = 0u;
  if (y > 0u) { up = src[at - wpr]; }
  if (y + 1u < g.height) { down = src[at + wpr]; }
  if (x > 0u) { lw = src[at - 1u]; }
  if (x + 1u < wpr) { rw = src[at + 1u]; }
  let keep = at_least_two(up, down, from_left(a, lw), from_right(a, rw)) | b;
  let na = a & keep;
  dst[at] = na;
  dst[at + plane] = b | (a & ~na);
  if (na != a) { report_flags(w.tileIndex, localIndex, FLAG_CHANGED); }
}
