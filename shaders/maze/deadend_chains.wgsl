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
// Regions that cannot change are skipped: a chain that stops at a cross-road stamps the cross-road's region with
// the dispatch number (BatchInfo.dispatchBase + step.generation); a region is scanned when its stamp is from
// this or the previous dispatch (or it was never scanned). The grid is at its fixpoint when a dispatch fills
// nothing. CPU twin: deadendFill / deadendStep in src/puzzles/maze/reference.ts (same final state).
//
// State (src/puzzles/maze/pack.ts packDeadend): plane A (open), plane B (fake or terminal), then per region
// [stamp, fills]. Terminals are the cells open in both planes: a grid may hold any number of them, so many small
// mazes can share one grid (an atlas, separated by walls: src/puzzles/maze/solver.ts). One work item per region.

override REGION_ROWS: u32 = 64u;

const REGION_META: u32 = 2u;

struct Geom {
  base: u32,       // first word of plane A
  plane: u32,      // words per plane
  wpr: u32,
  width: u32,
  height: u32,
  metaBase: u32,   // first region word
  dispatch: u32,
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
// neighbour, moving on to that neighbour. Returns the cells filled. A chain that stops at a cell with two open
// neighbours stamps that cell's region: if a chain on another branch stopped there at the same moment, the cell
// is dead but unfilled, and the next dispatch rescans it. (Every open neighbour of a filled cell is the chain's
// next cell, so no other cell can be left dead.)
fn follow(geom: Geom, x0: u32, y0: u32) -> u32 {
  var x = x0;
  var y = y0;
  var filled = 0u;
  loop {
    let wi = x / 32u;
    let b = x % 32u;
    let at = geom.base + y * geom.wpr + wi;
    let me = atomicLoad(&state[at]);
    if (((me >> b) & 1u) == 0u) { break; }
    var up = 0u;
    var down = 0u;
    if (y > 0u) { up = (atomicLoad(&state[at - geom.wpr]) >> b) & 1u; }
    if (y + 1u < geom.height) { down = (atomicLoad(&state[at + geom.wpr]) >> b) & 1u; }
    var left = 0u;
    var right = 0u;
    if (b > 0u) { left = (me >> (b - 1u)) & 1u; } else if (wi > 0u) { left = atomicLoad(&state[at - 1u]) >> 31u; }
    // bits past the width are walls in plane A, so no width test is needed inside a word
    if (b < 31u) { right = (me >> (b + 1u)) & 1u; } else if (wi + 1u < geom.wpr) { right = atomicLoad(&state[at + 1u]) & 1u; }
    let n = up + down + left + right;
    if (n >= 2u) {
      stamp(geom, region_of(geom, x, y));
      break;
    }
    // terminals (start and end: open and marked in plane B) are never filled
    if (((atomicLoad(&state[at + geom.plane]) >> b) & 1u) != 0u) { break; }
    let bit = 1u << b;
    let before = atomicAnd(&state[at], ~bit);
    if ((before & bit) == 0u) { break; } // another chain filled it meanwhile: it goes on from here
    atomicOr(&state[at + geom.plane], bit);
    filled++;
    if (n == 0u) { break; }
    if (up != 0u) { y -= 1u; } else if (down != 0u) { y += 1u; } else if (left != 0u) { x -= 1u; } else { x += 1u; }
  }
  return filled;
}

fn word_at(geom: Geom, wx: u32, y: u32) -> u32 {
  if (wx >= geom.wpr || y >= geom.height) { return 0u; }
  return atomicLoad(&state[geom.base + y * geom.wpr + wx]);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn deadend_chains(@builtin(workgroup_id) workgroupId: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  let w = work_item(workgroupId, localIndex);
  if (!w.valid) { return; }
  let g = w.grid;
  let region = w.item;
  var geom: Geom;
  geom.wpr = (g.width + 31u) / 32u;
  geom.base = g.stateOffset;
  geom.plane = geom.wpr * g.height;
  geom.width = g.width;
  geom.height = g.height;
  geom.metaBase = g.stateOffset + 2u * geom.plane;
  geom.dispatch = batch.dispatchBase + step.generation;
  let metaAt = geom.metaBase + region * REGION_META;
  let s = atomicLoad(&state[metaAt]);
  if (s != 0u && s + 1u < geom.dispatch) { return; }
  if (s == 0u) { atomicMax(&state[metaAt], 1u); }

  let wx = region % geom.wpr;
  let y0 = (region / geom.wpr) * REGION_ROWS;
  let y1 = min(y0 + REGION_ROWS, g.height);
  var filled = 0u;
  for (var y = y0; y < y1; y++) {
    let a = word_at(geom, wx, y);
    if (a == 0u) { continue; }
    let up = word_at(geom, wx, y - 1u);
    let down = word_at(geom, wx, y + 1u);
    let left = from_left(a, word_at(geom, wx - 1u, y));
    let right = from_right(a, word_at(geom, wx + 1u, y));
    var dead = a & ~at_least_two(up, down, left, right);
    while (dead != 0u) {
      let bit = firstTrailingBit(dead);
      dead &= dead - 1u;
      filled += follow(geom, wx * 32u + bit, y);
    }
  }
  if (filled != 0u) {
    atomicAdd(&state[metaAt + 1u], filled);
    report_flags(w.tileIndex, localIndex, FLAG_CHANGED);
  }
}
