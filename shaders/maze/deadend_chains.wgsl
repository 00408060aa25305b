// Dead-end filling in place, every dispatch running the rule to (almost always) its global fixpoint.
//
// Why this is allowed: the rule (a path cell with at most one open neighbour becomes fake, thesis 3.1.1 with the
// third state of 4.1) is monotone. Cells only ever go from open to fake, so a neighbour read too early looks
// *more* open than it is, which can only delay a fill, never cause a wrong one; and every order of single-cell
// updates ends in the same fixpoint (fake = the cells on no loop and no start-end path). So any invocation may
// update any cell, in any order, as long as each update is one application of the rule to one cell with atomic
// bit operations (no lost updates).
//
// The order is chosen to be work-efficient (O(cells), like the sequential algorithm) and barrier-free (on
// SwiftShader a workgroup barrier costs a coroutine switch per invocation): each invocation owns a region of
// REGION_ROWS rows of one word (32 cells), finds its dead ends 32 cells at a time, and follows each one cell by
// cell (the asynchronous automaton updating one cell at a time along the fake path) through cross-roads whose
// other ways are already fake, across region borders, until a cell with two open neighbours or a terminal. Two
// chains that reach a cross-road together may both stop there; the next dispatch rescans and finishes it.
//
// Regions that cannot change are skipped: filling a cell stamps its region and the regions of its neighbours
// with the dispatch number (BatchInfo.dispatchBase + step.generation); a region is scanned when its stamp is
// from this or the previous dispatch (or it was never scanned). The grid is at its fixpoint when a dispatch fills
// nothing. CPU twin: deadendFill / deadendStep in src/puzzles/maze/reference.ts (same final state).
//
// State (src/puzzles/maze/pack.ts packDeadend): plane A (open), plane B (fake or terminal), then per region
// [stamp, fills]. param0/param1 = start/end cell (never filled). One work item per region.

override REGION_ROWS: u32 = 64u;

const REGION_META: u32 = 2u;

struct Geom {
  base: u32,       // first word of plane A
  plane: u32,      // words per plane
  wpr: u32,
  width: u32,
  height: u32,
  metaBase: u32,   // first region word
  start: u32,
  end: u32,
  dispatch: u32,
}

fn open_at(geom: Geom, x: u32, y: u32) -> bool {
  // x, y wrap to huge values below zero: out of the grid, a wall
  if (x >= geom.width || y >= geom.height) { return false; }
  return ((atomicLoad(&state[geom.base + y * geom.wpr + x / 32u]) >> (x % 32u)) & 1u) != 0u;
}

fn region_of(geom: Geom, x: u32, y: u32) -> u32 {
  return (y / REGION_ROWS) * geom.wpr + x / 32u;
}

fn stamp(geom: Geom, region: u32) {
  let at = geom.metaBase + region * REGION_META;
  if (atomicLoad(&state[at]) < geom.dispatch) {
    atomicMax(&state[at], geom.dispatch);
  }
}

// Follows a dead end from (x, y): fills while the cell is open, not a terminal and has at most one open
// neighbour, moving on to that neighbour. Returns the cells filled.
fn follow(geom: Geom, x0: u32, y0: u32, home: u32) -> u32 {
  var x = x0;
  var y = y0;
  var filled = 0u;
  var lastRegion = home;
  loop {
    if (!open_at(geom, x, y)) { break; }
    let cell = y * geom.width + x;
    if (cell == geom.start || cell == geom.end) { break; }
    var n = 0u;
    var nx = x;
    var ny = y;
    if (open_at(geom, x, y - 1u)) { n++; nx = x; ny = y - 1u; }
    if (open_at(geom, x, y + 1u)) { n++; nx = x; ny = y + 1u; }
    if (open_at(geom, x - 1u, y)) { n++; nx = x - 1u; ny = y; }
    if (open_at(geom, x + 1u, y)) { n++; nx = x + 1u; ny = y; }
    if (n >= 2u) { break; }
    let word = geom.base + y * geom.wpr + x / 32u;
    let bit = 1u << (x % 32u);
    let before = atomicAnd(&state[word], ~bit);
    if ((before & bit) == 0u) { break; } // another chain filled it meanwhile: it goes on from here
    atomicOr(&state[word + geom.plane], bit);
    filled++;
    // this cell's region and those of its neighbours may hold new dead ends: rescan them next dispatch
    let region = region_of(geom, x, y);
    if (region != lastRegion) { stamp(geom, region); lastRegion = region; }
    if (x % 32u == 0u && x > 0u) { stamp(geom, region - 1u); }
    if (x % 32u == 31u && x + 1u < geom.width) { stamp(geom, region + 1u); }
    if (y % REGION_ROWS == 0u && y > 0u) { stamp(geom, region - geom.wpr); }
    if (y % REGION_ROWS == REGION_ROWS - 1u && y + 1u < geom.height) { stamp(geom, region + geom.wpr); }
    if (n == 0u) { break; }
    x = nx;
    y = ny;
  }
  return filled;
}

fn word_at(geom: Geom, wx: u32, y: u32) -> u32 {
  if (wx >= geom.wpr || y >= geom.height) { return 0u; }
  return atomicLoad(&state[geom.base + y * geom.wpr + wx]);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn deadend_chains(@builtin(workgroup_id) workgroupId: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  let t = tile_index(workgroupId);
  if (t >= batch.tileCount) { return; }
  let tile = tiles[t];
  let g = grids[tile.grid];
  let region = tile.firstItem + localIndex;
  if (region >= g.items) { return; }
  var geom: Geom;
  geom.wpr = (g.width + 31u) / 32u;
  geom.base = g.stateOffset;
  geom.plane = geom.wpr * g.height;
  geom.width = g.width;
  geom.height = g.height;
  geom.metaBase = g.stateOffset + 2u * geom.plane;
  geom.start = g.param0;
  geom.end = g.param1;
  geom.dispatch = batch.dispatchBase + step.generation;
  let metaAt = geom.metaBase + region * REGION_META;
  let s = atomicLoad(&state[metaAt]);
  if (s != 0u && s + 1u < geom.dispatch) { return; }
  if (s == 0u) { atomicMax(&state[metaAt], 1u); }

  let wx = region % geom.wpr;
  let y0 = (region / geom.wpr) * REGION_ROWS;
  let y1 = min(y0 + REGION_ROWS, g.height);
  let terminals = select(0u, 1u << (g.param0 % g.width % 32u), g.param0 % g.width / 32u == wx);
  let terminals2 = select(0u, 1u << (g.param1 % g.width % 32u), g.param1 % g.width / 32u == wx);
  var filled = 0u;
  for (var y = y0; y < y1; y++) {
    let a = word_at(geom, wx, y);
    if (a == 0u) { continue; }
    let up = word_at(geom, wx, y - 1u);
    let down = word_at(geom, wx, y + 1u);
    let left = from_left(a, word_at(geom, wx - 1u, y));
    let right = from_right(a, word_at(geom, wx + 1u, y));
    var dead = a & ~at_least_two(up, down, left, right);
    if (y == g.param0 / g.width) { dead &= ~terminals; }
    if (y == g.param1 / g.width) { dead &= ~terminals2; }
    while (dead != 0u) {
      let bit = firstTrailingBit(dead);
      dead &= dead - 1u;
      filled += follow(geom, wx * 32u + bit, y, region);
    }
  }
  if (filled != 0u) {
    atomicAdd(&state[metaAt + 1u], filled);
    report_flags(t, localIndex, FLAG_CHANGED);
  }
}
