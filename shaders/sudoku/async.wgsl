// The elimination automaton in place, for the complete solver: candidates are atomics in the state buffer, and
// a cell's update is an atomicAnd (a deduction only ever removes candidates, and placing a value is removing the
// others). Cells read whatever their peers hold now, so the order of updates differs from the synchronous
// generation, but every mask read is a sound superset of the answer at any moment: the rules stay sound, and the
// rounds reach the same fixpoint the synchronous automaton does (test/sudoku.test.ts checks it).
// State per grid: n*n masks, then one word counting the rounds that changed something.
//
// One dispatch runs rounds until one changes nothing (the grid's fixpoint, found inside the dispatch: the
// dispatch then reports no change, so the engine retires the grid at the next readback instead of spending a
// dispatch to notice), a contradiction, or MAX_ROUNDS.

var<private> gridBase: u32;

fn cand(i: u32) -> u32 {
  return atomicLoad(&state[gridBase + i]);
}

override MAX_ROUNDS: u32 = 64u;

var<workgroup> wgLastChanged: atomic<u32>;

// One round: every cell of this invocation once, in place. Returns the OR of the cells' flags.
fn round_cells(s: Shape, first: u32, items: u32, total: u32, rules: u32) -> u32 {
  var flags = 0u;
  for (var x = first; x < total; x += items) {
    let r = next_cell(s, x, rules);
    if ((r.y & FLAG_CHANGED) != 0u) {
      atomicAnd(&state[gridBase + x], r.x);
    }
    flags |= r.y & ~FLAG_PENDING;
  }
  return flags;
}

// Rounds shared by the workgroup's invocations (a grid's cells spread over them), a barrier after each. (One
// invocation sweeping the whole grid with no barrier at all, from private memory, was 2-4x slower on
// SwiftShader, which runs a workgroup's invocations 4 lanes wide.)
@compute @workgroup_size(WORKGROUP_SIZE)
fn sudoku_rounds(@builtin(workgroup_id) workgroupId: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  let t = tile_index(workgroupId);
  if (t >= batch.tileCount) {
    return;
  }
  let g = grids[tiles[t].grid];
  let s = shape_of(g);
  gridBase = g.stateOffset;
  let total = s.n * s.n;
  var flags = 0u;
  var rounds = 0u;
  var fixpoint = false;
  // Locked candidates cost most per cell: rounds use singles only until they stop changing anything, then one
  // round with every rule; the fixpoint is a round of every rule that changes nothing (the same fixpoint).
  var rules = g.param1 & ~RULE_LOCKED;
  for (var round = 1u; round <= MAX_ROUNDS; round++) {
    var f = 0u;
    if (localIndex < g.items) {
      f = round_cells(s, localIndex, g.items, total, rules);
    }
    flags |= f;
    if ((f & FLAG_CHANGED) != 0u) {
      atomicMax(&wgLastChanged, round);
    }
    if ((f & FLAG_CONTRADICTION) != 0u) {
      atomicMax(&wgLastChanged, 0xffffffffu);
    }
    // one barrier per round: the uniform load of the atomic is itself the barrier
    let status = workgroupUniformLoad(&wgLastChanged);
    if (status == 0xffffffffu) {
      break;
    }
    if (status != round) {
      if (rules == g.param1) {
        fixpoint = true;
        break;
      }
      rules = g.param1;
    } else {
      rules = g.param1 & ~RULE_LOCKED;
      // only rounds that changed something count (the header word's meaning): a dispatch past the fixpoint adds
      // nothing, so the count is the same at any chunk length (the viewer's speeds gave 10 to 265)
      rounds++;
    }
  }
  finish_dispatch(t, localIndex, g, total, flags, rounds, fixpoint);
}

// Pending from the final cells, the round count into the header word, and the flags: a dispatch that reached the
// fixpoint reports no change, so the engine sees the fixpoint now.
fn finish_dispatch(t: u32, localIndex: u32, g: Grid, total: u32, flagsIn: u32, rounds: u32, fixpoint: bool) {
  var flags = flagsIn;
  if (fixpoint) {
    flags &= ~FLAG_CHANGED;
  }
  for (var x = localIndex; x < total; x += WORKGROUP_SIZE) {
    if (!is_single(cand(x))) {
      flags |= FLAG_PENDING;
    }
  }
  if (localIndex == 0u && rounds > 0u) {
    atomicAdd(&state[gridBase + total], rounds);
  }
  report_flags(t, localIndex, flags);
}
