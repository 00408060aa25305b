// The elimination automaton in place, for the complete solver: candidates are atomics in the state buffer, and
// a cell's update is an atomicAnd (a deduction only ever removes candidates, and placing a value is removing the
// others). Cells read whatever their peers hold now, so the order of updates differs from the synchronous
// generation, but every mask read is a sound superset of the answer at any moment: the rules stay sound, and the
// sweeps reach the same fixpoint the synchronous automaton does (test/sudoku.test.ts checks it). No workgroup
// memory and no barrier per generation: SwiftShader charges tens of microseconds for each.

var<private> gridBase: u32;

fn cand(i: u32) -> u32 {
  return atomicLoad(&state[gridBase + i]);
}

override SWEEPS: u32 = 8u;

fn sweeps(workgroupId: vec3u, localIndex: u32, count: u32) {
  let t = tile_index(workgroupId);
  if (t >= batch.tileCount) {
    return;
  }
  let tile = tiles[t];
  let g = grids[tile.grid];
  let s = shape_of(g);
  gridBase = g.stateOffset;
  let total = s.n * s.n;
  var flags = 0u;
  let first = tile.firstItem + localIndex;
  if (first < g.items) {
    for (var k = 0u; k < count; k++) {
      var changed = false;
      for (var x = first; x < total; x += g.items) {
        let r = next_cell(s, x, g.param1);
        if ((r.y & FLAG_CHANGED) != 0u) {
          atomicAnd(&state[gridBase + x], r.x);
          changed = true;
        }
        flags |= r.y & ~FLAG_PENDING;
      }
      if (!changed || (flags & FLAG_CONTRADICTION) != 0u) {
        break;
      }
    }
    // pending is what the cells hold at the end of the dispatch
    for (var x = first; x < total; x += g.items) {
      if (!is_single(cand(x))) {
        flags |= FLAG_PENDING;
      }
    }
  }
  report_flags(t, localIndex, flags);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn sudoku_sweep(@builtin(workgroup_id) workgroupId: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  sweeps(workgroupId, localIndex, 1u);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn sudoku_sweeps(@builtin(workgroup_id) workgroupId: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  sweeps(workgroupId, localIndex, SWEEPS);
}
