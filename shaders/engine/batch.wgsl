// The engine's side of every rule: the batch tables, per-grid status words and the flag reduction.
// Joined in front of a rule's own file(s); the rule adds its state bindings (pingpong.wgsl or inplace.wgsl) and
// its entry points. Host twin: src/engine/batch.ts.

override WORKGROUP_SIZE: u32 = 64u;

const FLAG_CHANGED: u32 = 1u;
const FLAG_CONTRADICTION: u32 = 2u;
const FLAG_PENDING: u32 = 4u;
const STATUS_WORDS: u32 = 4u;

// One grid of the batch. Rules read their own meaning into param0..param3.
struct Grid {
  width: u32,
  height: u32,
  stateOffset: u32,  // first u32 of this grid in the state buffer(s)
  stateWords: u32,
  auxOffset: u32,    // first u32 of this grid's read-only data (clues, walls) in `aux`
  items: u32,        // work items this grid runs per dispatch (one invocation each)
  param0: u32,
  param1: u32,
  param2: u32,
  param3: u32,
  slot: u32,         // this grid's index in `grids` and `status`
  pad: u32,
}

// A workgroup's share of one grid: items firstItem .. firstItem + WORKGROUP_SIZE - 1. Or, with TILE_SHARED in
// firstItem, several small grids: slots grid, grid + 1, ... (count in bits 16-30), each with the same number of
// items (bits 0-15), invocation i on grid i / items (Rule.sharesWorkgroups).
struct Tile {
  grid: u32,
  firstItem: u32,
}

const TILE_SHARED: u32 = 0x80000000u;

struct Step {
  generation: u32,   // 1-based generation index inside the current chunk
}

struct BatchInfo {
  tileCount: u32,
  dispatchWidth: u32,  // workgroups along x; tiles past 65535 continue on y
  gridCount: u32,
  // dispatches encoded in this batch before the current chunk: dispatchBase + step.generation numbers every
  // dispatch of the batch's life (rules that stamp tiles with the dispatch that changed them, e.g. shaders/maze)
  dispatchBase: u32,
}

@group(0) @binding(0) var<storage, read> grids: array<Grid>;
@group(0) @binding(1) var<storage, read> tiles: array<Tile>;
@group(0) @binding(2) var<storage, read> aux: array<u32>;
// per grid: [0] flags (atomicOr), [1] last generation that changed (atomicMax), [2] rule counter (atomicAdd),
// [3] last generation with an item pending (atomicMax)
@group(0) @binding(3) var<storage, read_write> status: array<atomic<u32>>;
@group(0) @binding(4) var<uniform> step: Step;
@group(0) @binding(5) var<uniform> batch: BatchInfo;

fn tile_index(workgroupId: vec3u) -> u32 {
  return workgroupId.x + workgroupId.y * batch.dispatchWidth;
}

// What one invocation works on: its tile, its grid and its item (one of the grid's `items`).
struct WorkItem {
  valid: bool,       // false past the last tile or the grid's last item: the invocation has nothing to do
  tileIndex: u32,
  grid: Grid,
  item: u32,
}

// Every rule's entry point starts here, then returns at once when `valid` is false.
fn work_item(workgroupId: vec3u, localIndex: u32) -> WorkItem {
  var w: WorkItem;
  w.tileIndex = tile_index(workgroupId);
  if (w.tileIndex >= batch.tileCount) {
    return w;
  }
  let tile = tiles[w.tileIndex];
  if ((tile.firstItem & TILE_SHARED) != 0u) {
    let per = tile.firstItem & 0xffffu;
    let k = localIndex / per;
    if (k >= ((tile.firstItem >> 16u) & 0x7fffu)) {
      return w;
    }
    w.grid = grids[tile.grid + k];
    w.item = localIndex % per;
  } else {
    w.grid = grids[tile.grid];
    w.item = tile.firstItem + localIndex;
  }
  w.valid = w.item < w.grid.items;
  return w;
}

// The slot of the grid an invocation works on (status words are per slot).
fn tile_slot(tileIndex: u32, localIndex: u32) -> u32 {
  let tile = tiles[tileIndex];
  if ((tile.firstItem & TILE_SHARED) != 0u) {
    return tile.grid + localIndex / (tile.firstItem & 0xffffu);
  }
  return tile.grid;
}

// Raises an invocation's flags in its grid's status words. No workgroup barrier, so callers may return early:
// SwiftShader runs barriers as coroutine switches, ~100x the cost of a whole Life workgroup there. A load first
// keeps the atomics rare: once a bit is set (or the generation recorded), later invocations only read.
fn report_flags(tileIndex: u32, localIndex: u32, flags: u32) {
  if (flags == 0u) {
    return;
  }
  let s = tile_slot(tileIndex, localIndex) * STATUS_WORDS;
  if ((atomicLoad(&status[s]) & flags) != flags) {
    atomicOr(&status[s], flags);
  }
  if ((flags & FLAG_CHANGED) != 0u && atomicLoad(&status[s + 1u]) < step.generation) {
    atomicMax(&status[s + 1u], step.generation);
  }
  // pending is only read at a fixpoint, so what counts is whether the last generation still had it
  if ((flags & FLAG_PENDING) != 0u && atomicLoad(&status[s + 3u]) < step.generation) {
    atomicMax(&status[s + 3u], step.generation);
  }
}

// Adds to the grid's rule counter (e.g. unknown cells left, tile-local generations).
fn report_count(tileIndex: u32, localIndex: u32, count: u32) {
  if (count != 0u) {
    atomicAdd(&status[tile_slot(tileIndex, localIndex) * STATUS_WORDS + 2u], count);
  }
}
