// Dead-end filling for small mazes (at most 31 cells wide, SMALL_MAX_ROWS tall) packed in an atlas: one
// invocation per maze, whose rows are one word each. The rows sit in private memory and are swept down and up,
// bit-parallel, each row repeated until it is stable (so a fill runs along a row in one visit), until a sweep pair
// changes nothing: Gauss-Seidel order, which dead-end filling allows (the rule is monotone, every order of
// updates reaches the same fixpoint; see deadend_chains.wgsl). Work is the same for all lanes of a SIMD group,
// no atomics inside the sweeps, no barriers. CPU twin: deadendFill in src/puzzles/maze/reference.ts.
//
// State: the atlas' plane A (open) and plane B (fake or terminal; terminals are open in both). aux: per maze
// [word column, first row, rows]; the word holds the maze's row and its wall column, so it is the maze's alone.

const SMALL_MAX_ROWS: u32 = 64u;

// one row brought to its fixpoint given the rows above and below (cells with two open neighbours or pinned stay)
fn settle_row(row: u32, up: u32, down: u32, pin: u32) -> u32 {
  var a = row;
  loop {
    let next = a & (at_least_two(up, down, a << 1u, a >> 1u) | pin);
    if (next == a) { break; }
    a = next;
  }
  return a;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn deadend_small(@builtin(workgroup_id) workgroupId: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  let w = work_item(workgroupId, localIndex);
  if (!w.valid) { return; }
  let g = w.grid;
  let item = w.item;
  let wx = aux[g.auxOffset + 3u * item];
  let y0 = aux[g.auxOffset + 3u * item + 1u];
  let h = min(aux[g.auxOffset + 3u * item + 2u], SMALL_MAX_ROWS);
  let wpr = (g.width + 31u) / 32u;
  let plane = wpr * g.height;
  let base = g.stateOffset + y0 * wpr + wx;
  var a: array<u32, 64>;
  var pin: array<u32, 64>;
  for (var r = 0u; r < h; r++) {
    a[r] = atomicLoad(&state[base + r * wpr]);
    pin[r] = atomicLoad(&state[base + r * wpr + plane]) & a[r];
  }
  var dirty = false;
  loop {
    var changed = false;
    for (var r = 0u; r < h; r++) {
      var up = 0u;
      var down = 0u;
      if (r > 0u) { up = a[r - 1u]; }
      if (r + 1u < h) { down = a[r + 1u]; }
      let n = settle_row(a[r], up, down, pin[r]);
      if (n != a[r]) { a[r] = n; changed = true; }
    }
    for (var k = 0u; k < h; k++) {
      let r = h - 1u - k;
      var up = 0u;
      var down = 0u;
      if (r > 0u) { up = a[r - 1u]; }
      if (r + 1u < h) { down = a[r + 1u]; }
      let n = settle_row(a[r], up, down, pin[r]);
      if (n != a[r]) { a[r] = n; changed = true; }
    }
    if (!changed) { break; }
    dirty = true;
  }
  if (dirty) {
    for (var r = 0u; r < h; r++) {
      let at = base + r * wpr;
      let old = atomicLoad(&state[at]);
      if (old != a[r]) {
        atomicStore(&state[at], a[r]);
        atomicOr(&state[at + plane], old & ~a[r]);
      }
    }
    report_flags(w.tileIndex, localIndex, FLAG_CHANGED);
  }
}
