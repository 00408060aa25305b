// The complete solver with one puzzle per invocation (src/puzzles/sudoku/lane.ts): the elimination automaton runs
// in the invocation's private memory to its fixpoint, and a stalled grid splits into two copies on its cell with
// the fewest candidates (the smallest candidate, and every other one); the first copy runs on, the second waits on
// the invocation's stack in `scratch` (depth first), a contradicting copy retires and the next waiting one runs.
// The search goes on past the first solution to a second (uniqueness). When its puzzle is finished, an invocation
// takes the next puzzle of the batch (an atomic counter), so solved puzzles leave at once and no lane waits for
// the hardest one.
//
// Why this shape on SwiftShader (the CPU Vulkan driver): a workgroup barrier is a coroutine switch per invocation,
// Dawn zero-fills workgroup memory per workgroup and each dispatch costs tens of microseconds; here a whole batch is
// one dispatch with no barrier and no workgroup memory, and the host reads back once.
//
// Rules per sweep, unit by unit (rows, columns, regions, diagonals), in place (every deduction only removes
// candidates, so the order changes the path, not the fixpoint): naked single (a solved cell's value leaves the
// unit's other cells), hidden single (a value with one place left in the unit goes there); when a sweep changes
// nothing, locked candidates (pointing and claiming between boxes and lines; rectangular boxes only). A
// contradiction: a cell without candidates, a unit missing a value, two solved cells or two hidden values colliding.

struct Params {
  count: u32,
  depthCap: u32,
  nodeCap: u32,
  rules: u32,
  // words per waiting copy: the largest grid of the batch
  stride: u32,
}

// one word per puzzle job: the offset of its header in `input`
//   header: shape (n | boxW << 8 | boxH << 16 | variant << 24), masks offset, jigsaw region lists offset
//   (every region's cells in order), result offset
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<u32>;
// per puzzle at its result offset: RESULT_HEADER words (status, nodes, splits, depth, sweeps of the puzzle
// itself before its first split, sweeps of all its copies), then 2 solutions of n*n masks
@group(0) @binding(2) var<storage, read_write> results: array<u32>;
// the waiting copies: per invocation, depthCap grids of `stride` words
@group(0) @binding(3) var<storage, read_write> scratch: array<u32>;
// word 0: the next puzzle to take
@group(0) @binding(4) var<storage, read_write> work: array<atomic<u32>>;

override WORKGROUP_SIZE: u32 = 4u;
const MAX_CELLS: u32 = 625u;

const RESULT_HEADER: u32 = 8u;
const RULE_LOCKED: u32 = 4u;
const VARIANT_DIAGONAL: u32 = 1u;
const VARIANT_JIGSAW: u32 = 2u;

const STATUS_SOLVED: u32 = 1u;
const STATUS_MULTIPLE: u32 = 2u;
const STATUS_CONTRADICTION: u32 = 3u;
const STATUS_DEPTH: u32 = 4u;
const STATUS_CAPPED: u32 = 5u;

const SWEEP_STALLED: u32 = 0u;
const SWEEP_CHANGED: u32 = 1u;
const SWEEP_CONTRADICTION: u32 = 2u;
const SWEEP_SOLVED: u32 = 3u;

var<private> cells: array<u32, MAX_CELLS>;

struct Shape {
  n: u32,
  boxW: u32,
  boxH: u32,
  variant: u32,
  full: u32,
  regions: u32,
}

// A unit's cells, walked flat: from `base`, +1 within a run of `inner` cells, `wrap` from a run's last cell to the
// next run's first (rows: one run of n; columns and diagonals: runs of 1; boxes: boxH runs of boxW). Jigsaw
// regions are read from their list in `input` instead: `walk_first` and `walk_next` come from lane-boxes.wgsl or
// lane-jigsaw.wgsl, joined after this file (two pipelines, so that box grids pay nothing for jigsaw lists).
// Walk = vec4u(base, inner, wrap, list)
const NO_LIST: u32 = 0xffffffffu;

fn is_single(v: u32) -> bool {
  return (v & (v - 1u)) == 0u;
}

fn unit_count(s: Shape) -> u32 {
  return select(3u * s.n, 3u * s.n + 2u, (s.variant & VARIANT_DIAGONAL) != 0u);
}

// Selects rather than branches: SwiftShader runs both sides of a branch (masked), and each costs more than the
// arithmetic here.
fn unit_walk(s: Shape, u: u32) -> vec4u {
  let n = s.n;
  let kind = min(u / n, 3u);
  let k = u - kind * n;
  let perRow = n / s.boxW;
  let boxBase = (k / perRow) * s.boxH * n + (k % perRow) * s.boxW;
  let jigsaw = (s.variant & VARIANT_JIGSAW) != 0u;
  var w = vec4u(k * n, n, 1u, NO_LIST);
  w = select(w, vec4u(k, 1u, n, NO_LIST), kind == 1u);
  w = select(w, vec4u(boxBase, s.boxW, n - s.boxW + 1u, NO_LIST), kind == 2u && !jigsaw);
  w = select(w, vec4u(0u, 1u, n, s.regions + k * n), kind == 2u && jigsaw);
  w = select(w, vec4u(select(0u, n - 1u, k == 1u), 1u, select(n + 1u, n - 1u, k == 1u), NO_LIST), kind == 3u);
  return w;
}

// One sweep of naked and hidden singles over every unit, in place.
fn sweep_singles(s: Shape) -> u32 {
  var changed = false;
  var pending = false;
  var bad = false;
  let units = unit_count(s);
  for (var u = 0u; u < units && !bad; u++) {
    let w = unit_walk(s, u);
    let first = walk_first(w);
    var once = 0u;
    var twice = 0u;
    var solved = 0u;
    var clash = 0u;
    var open = 0u;
    var x = first;
    var j = 0u;
    for (var k = 0u; k < s.n; k++) {
      let m = cells[x];
      twice |= once & m;
      once |= m;
      let single = is_single(m);
      clash |= select(0u, solved & m, single);
      solved |= select(0u, m, single);
      open |= select(m, 0u, single);
      x = walk_next(w, x, &j, k);
    }
    bad = once != s.full || clash != 0u;
    // values with one place left that is not solved yet; solved values still open elsewhere in the unit
    let hidden = once & ~twice & ~solved;
    let remove = open & solved;
    pending = pending || open != 0u;
    // a loop, not a branch, so that no lane pays for it when no lane needs it
    let apply = (hidden | remove) != 0u && !bad;
    x = first;
    j = 0u;
    for (var k = 0u; k < s.n && apply; k++) {
      let m = cells[x];
      var next = select(m & ~solved, m, is_single(m));
      let place = next & hidden;
      bad = bad || !is_single(place);
      next = select(next, place, place != 0u);
      bad = bad || next == 0u;
      cells[x] = next;
      changed = changed || next != m;
      x = walk_next(w, x, &j, k);
    }
  }
  if (bad) {
    return SWEEP_CONTRADICTION;
  }
  if (changed) {
    return SWEEP_CHANGED;
  }
  return select(SWEEP_SOLVED, SWEEP_STALLED, pending);
}

// Locked candidates along one direction (rows, or columns): lines are grouped in bands of `perBand` lines that
// cross boxes in segments of `segLen` cells. A value open in a segment and nowhere else on its line leaves the
// box's other lines (claiming); one open in the segment and nowhere else in its box leaves the line's other
// segments (pointing). Cell (line l, position p) = l * lineStride + p * posStride.
fn locked_direction(s: Shape, lineStride: u32, posStride: u32, perBand: u32, segLen: u32) -> u32 {
  let n = s.n;
  let segs = n / segLen;
  var changed = false;
  var seg: array<u32, 32>;
  var segOpen: array<u32, 32>;
  for (var band = 0u; band < n; band += perBand) {
    // seg[i * segs + b]: candidates of line band + i inside box b of the band
    for (var i = 0u; i < perBand; i++) {
      for (var b = 0u; b < segs; b++) {
        var all = 0u;
        var open = 0u;
        for (var p = 0u; p < segLen; p++) {
          let m = cells[(band + i) * lineStride + (b * segLen + p) * posStride];
          all |= m;
          open |= select(m, 0u, is_single(m));
        }
        seg[i * segs + b] = all;
        segOpen[i * segs + b] = open;
      }
    }
    for (var i = 0u; i < perBand; i++) {
      for (var b = 0u; b < segs; b++) {
        let here = segOpen[i * segs + b];
        if (here == 0u) {
          continue;
        }
        var lineRest = 0u;
        for (var b2 = 0u; b2 < segs; b2++) {
          lineRest |= select(seg[i * segs + b2], 0u, b2 == b);
        }
        var boxRest = 0u;
        for (var i2 = 0u; i2 < perBand; i2++) {
          boxRest |= select(seg[i2 * segs + b], 0u, i2 == i);
        }
        let claim = here & ~lineRest;
        let point = here & ~boxRest;
        if (claim != 0u) {
          for (var i2 = 0u; i2 < perBand; i2++) {
            if (i2 == i) {
              continue;
            }
            for (var p = 0u; p < segLen; p++) {
              let x = (band + i2) * lineStride + (b * segLen + p) * posStride;
              let m = cells[x];
              if ((m & claim) != 0u) {
                cells[x] = m & ~claim;
                changed = true;
              }
            }
          }
        }
        if (point != 0u) {
          for (var q = 0u; q < n; q++) {
            if (q / segLen == b) {
              continue;
            }
            let x = (band + i) * lineStride + q * posStride;
            let m = cells[x];
            if ((m & point) != 0u) {
              cells[x] = m & ~point;
              changed = true;
            }
          }
        }
      }
    }
  }
  return select(SWEEP_STALLED, SWEEP_CHANGED, changed);
}

// The cell with the fewest candidates (the first with two).
fn branch_cell(total: u32) -> u32 {
  var best = 0u;
  var bestCount = 99u;
  for (var x = 0u; x < total && bestCount > 2u; x++) {
    let k = countOneBits(cells[x]);
    let better = k > 1u && k < bestCount;
    bestCount = select(bestCount, k, better);
    best = select(best, x, better);
  }
  return best;
}

// The search as a state machine with one automaton sweep per turn: the lanes of a SIMD group (4 puzzles on
// SwiftShader) run in lockstep and pay for every step any of them takes, so each turn is the same sweep for all,
// and the rarer steps (locked candidates, a split, a copy taken back, a new puzzle) are each taken by the lanes
// that need them that turn.
@compute @workgroup_size(WORKGROUP_SIZE)
fn sudoku_lanes(@builtin(global_invocation_id) id: vec3u) {
  let stack = id.x * params.depthCap * params.stride;
  let lockedRule = LOCKED_CANDIDATES && (params.rules & RULE_LOCKED) != 0u;
  var s: Shape;
  var total = 0u;
  var out = 0u;
  var busy = false;
  var depth = 0u;
  var maxDepth = 0u;
  var nodes = 0u;
  var splits = 0u;
  var solutions = 0u;
  var sweeps = 0u;
  var rootSweeps = 0u;
  loop {
    if (!busy) {
      let job = atomicAdd(&work[0], 1u);
      if (job >= params.count) {
        break;
      }
      let header = input[job];
      let param = input[header];
      let n = param & 0xffu;
      s = Shape(n, (param >> 8u) & 0xffu, (param >> 16u) & 0xffu, param >> 24u, select((1u << n) - 1u, 0xffffffffu, n >= 32u), input[header + 2u]);
      total = n * n;
      out = input[header + 3u];
      let masks = input[header + 1u];
      for (var x = 0u; x < total; x++) {
        cells[x] = input[masks + x];
      }
      busy = true;
      depth = 0u;
      maxDepth = 0u;
      nodes = 1u;
      splits = 0u;
      solutions = 0u;
      sweeps = 0u;
    }
    sweeps++;
    var r = sweep_singles(s);
    // singles stalled: locked candidates, and if they change something, singles again next turn
    if (r == SWEEP_STALLED && lockedRule) {
      let a = locked_direction(s, s.n, 1u, s.boxH, s.boxW);
      let b = locked_direction(s, 1u, s.n, s.boxW, s.boxH);
      r = select(SWEEP_STALLED, SWEEP_CHANGED, (a | b) != SWEEP_STALLED);
    }
    if (splits == 0u) {
      rootSweeps = sweeps;
    }
    var status = 0u;
    if (r == SWEEP_SOLVED) {
      let at = out + RESULT_HEADER + solutions * total;
      for (var x = 0u; x < total; x++) {
        results[at + x] = cells[x];
      }
      solutions++;
      status = select(0u, STATUS_MULTIPLE, solutions == 2u);
    }
    if (r == SWEEP_STALLED && depth == params.depthCap) {
      status = STATUS_DEPTH;
    }
    if (r == SWEEP_STALLED && status == 0u) {
      // split: this grid goes on with the smallest candidate, a copy with every other one waits
      let b = branch_cell(total);
      let m = cells[b];
      let first = m & (0u - m);
      let at = stack + depth * params.stride;
      cells[b] = m & ~first;
      for (var x = 0u; x < total; x++) {
        scratch[at + x] = cells[x];
      }
      cells[b] = first;
      depth++;
      maxDepth = max(maxDepth, depth);
      splits++;
      nodes++;
    }
    // a contradiction, or a first solution: the newest waiting copy runs next
    if ((r == SWEEP_CONTRADICTION || r == SWEEP_SOLVED) && status == 0u) {
      if (depth == 0u) {
        status = select(STATUS_CONTRADICTION, STATUS_SOLVED, solutions == 1u);
      } else if (nodes >= params.nodeCap) {
        status = STATUS_CAPPED;
      } else {
        depth--;
        let at = stack + depth * params.stride;
        for (var x = 0u; x < total; x++) {
          cells[x] = scratch[at + x];
        }
        nodes++;
      }
    }
    if (status != 0u) {
      results[out] = status;
      results[out + 1u] = nodes;
      results[out + 2u] = splits;
      results[out + 3u] = maxDepth;
      results[out + 4u] = rootSweeps;
      results[out + 5u] = sweeps;
      busy = false;
    }
  }
}
