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
//   (every region's cells in order; 0 for boxes), result offset
@group(0) @binding(0) var<uniform> params: Params;
// results (engine/lanes.wgsl), per puzzle at its result offset: RESULT_HEADER words (status, nodes, splits,
// depth, sweeps of the puzzle itself before its first split, sweeps of all its copies), then 2 solutions of n*n
// masks; scratch: the waiting copies, per invocation depthCap grids of `stride` words
const MAX_CELLS: u32 = 625u;
// every unit's cells (3n + 2 units of n cells, n <= 25)
const MAX_UNIT_CELLS: u32 = 1925u;

const RESULT_HEADER: u32 = 8u;
const RULE_LOCKED: u32 = 4u;
const VARIANT_DIAGONAL: u32 = 1u;
const VARIANT_JIGSAW: u32 = 2u;


const SWEEP_STALLED: u32 = 0u;
const SWEEP_CHANGED: u32 = 1u;
const SWEEP_CONTRADICTION: u32 = 2u;
const SWEEP_SOLVED: u32 = 3u;

var<private> cells: array<u32, MAX_CELLS>;
// the cells of unit u at u * n .. u * n + n - 1 (rows, columns, regions, diagonals), filled per shape: a sweep
// reads a cell's index from here rather than computing it (SwiftShader pays for every instruction, per lane)
var<private> unitCells: array<u32, MAX_UNIT_CELLS>;

struct Shape {
  n: u32,
  boxW: u32,
  boxH: u32,
  variant: u32,
  full: u32,
  units: u32,
}

fn is_single(v: u32) -> bool {
  return (v & (v - 1u)) == 0u;
}

fn shape_of(param: u32) -> Shape {
  let n = param & 0xffu;
  let variant = param >> 24u;
  let units = select(3u * n, 3u * n + 2u, (variant & VARIANT_DIAGONAL) != 0u);
  return Shape(n, (param >> 8u) & 0xffu, (param >> 16u) & 0xffu, variant, select((1u << n) - 1u, 0xffffffffu, n >= 32u), units);
}

fn fill_units(s: Shape, regions: u32) {
  let n = s.n;
  let jigsaw = (s.variant & VARIANT_JIGSAW) != 0u;
  let perRow = n / s.boxW;
  for (var k = 0u; k < n; k++) {
    for (var i = 0u; i < n; i++) {
      unitCells[k * n + i] = k * n + i;
      unitCells[(n + k) * n + i] = i * n + k;
      let box = ((k / perRow) * s.boxH + i / s.boxW) * n + (k % perRow) * s.boxW + i % s.boxW;
      unitCells[(2u * n + k) * n + i] = select(box, input[min(regions + k * n + i, arrayLength(&input) - 1u)], jigsaw);
    }
  }
  for (var i = 0u; i < n && (s.variant & VARIANT_DIAGONAL) != 0u; i++) {
    unitCells[3u * n * n + i] = i * n + i;
    unitCells[3u * n * n + n + i] = i * n + n - 1u - i;
  }
}

// One sweep of naked and hidden singles over every unit, in place.
fn sweep_singles(s: Shape) -> u32 {
  var changed = false;
  var pending = false;
  var bad = false;
  let n = s.n;
  for (var u = 0u; u < s.units && !bad; u++) {
    let base = u * n;
    var once = 0u;
    var twice = 0u;
    var solved = 0u;
    var clash = 0u;
    for (var k = 0u; k < n; k++) {
      let m = cells[unitCells[base + k]];
      twice |= once & m;
      once |= m;
      let single = is_single(m);
      clash |= select(0u, solved & m, single);
      solved |= select(0u, m, single);
    }
    bad = once != s.full || clash != 0u;
    // values with one place left that is not solved yet; solved values still open elsewhere in the unit (twice,
    // and no clash: in an open cell); open cells remain while a value is in two cells or only in open ones
    let hidden = once & ~twice & ~solved;
    let remove = twice & solved;
    pending = pending || (twice | (once ^ solved)) != 0u;
    // a loop on the lanes' own condition, not a branch, so that no lane pays for it when none needs it
    let apply = (hidden | remove) != 0u && !bad;
    for (var k = 0u; k < n && apply; k++) {
      let x = unitCells[base + k];
      let m = cells[x];
      var next = select(m & ~solved, m, is_single(m));
      let place = next & hidden;
      next = select(next, place, place != 0u);
      bad = bad || !is_single(place) || next == 0u;
      cells[x] = next;
      changed = changed || next != m;
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

// Locked candidates along one direction (rows, or columns), band by band: a band is `perBand` lines crossing
// `segs` boxes in segments of `segLen` cells; seg[i * segs + b] holds the candidates of line i inside box b.
// Claiming: a value of a segment in no other segment of its line leaves the box's other segments. Pointing: a
// value of a segment in no other segment of its box leaves the line's other segments. A value in two segments of
// a line (box) is in twiceLine[i] (twiceBox[b]), so a segment's claim is seg & ~twiceLine and its point
// seg & ~twiceBox. Cell (line l, position p) = l * lineStride + p * posStride. Returns true when a cell changed.
var<private> seg: array<u32, 32>;
var<private> onceBox: array<u32, 32>;
var<private> twiceBox: array<u32, 32>;
var<private> claimBox: array<u32, 32>;
var<private> twiceLine: array<u32, 32>;
var<private> pointLine: array<u32, 32>;

fn locked_direction(s: Shape, lineStride: u32, posStride: u32, perBand: u32, segLen: u32) -> bool {
  let n = s.n;
  let segs = n / segLen;
  var changed = false;
  for (var band = 0u; band < n; band += perBand) {
    for (var b = 0u; b < segs; b++) {
      onceBox[b] = 0u;
      twiceBox[b] = 0u;
      claimBox[b] = 0u;
    }
    // the segments, and which values are in two segments of a line, of a box
    for (var i = 0u; i < perBand; i++) {
      var once = 0u;
      var twice = 0u;
      for (var b = 0u; b < segs; b++) {
        var x = (band + i) * lineStride + b * segLen * posStride;
        var all = 0u;
        for (var p = 0u; p < segLen; p++) {
          all |= cells[x];
          x += posStride;
        }
        seg[i * segs + b] = all;
        twice |= once & all;
        once |= all;
        twiceBox[b] |= onceBox[b] & all;
        onceBox[b] |= all;
      }
      twiceLine[i] = twice;
    }
    for (var i = 0u; i < perBand; i++) {
      var point = 0u;
      for (var b = 0u; b < segs; b++) {
        let all = seg[i * segs + b];
        claimBox[b] |= all & ~twiceLine[i];
        point |= all & ~twiceBox[b];
      }
      pointLine[i] = point;
    }
    // a segment loses what other segments of its box claim and other segments of its line point at
    for (var i = 0u; i < perBand; i++) {
      for (var b = 0u; b < segs; b++) {
        let all = seg[i * segs + b];
        let mine = all & ~twiceLine[i];
        let minePoint = all & ~twiceBox[b];
        let lose = ((claimBox[b] & ~mine) | (pointLine[i] & ~minePoint)) & all;
        var x = (band + i) * lineStride + b * segLen * posStride;
        for (var p = 0u; p < segLen && lose != 0u; p++) {
          let m = cells[x];
          cells[x] = m & ~lose;
          changed = changed || (m & lose) != 0u;
          x += posStride;
        }
      }
    }
  }
  return changed;
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
  let lockedRule = (params.rules & RULE_LOCKED) != 0u;
  var s: Shape;
  var shapeKey = vec2u(0xffffffffu);
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
      let job = next_job();
      if (job >= params.count) {
        break;
      }
      let header = input[job];
      let param = input[header];
      let regions = input[header + 2u];
      let key = vec2u(param, regions);
      s = shape_of(param);
      // the unit table of the shape, when it is not the previous puzzle's
      for (var fresh = any(key != shapeKey); fresh; fresh = false) {
        fill_units(s, regions);
        shapeKey = key;
      }
      let n = s.n;
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
    // (boxes against lines: not for jigsaw regions)
    if (r == SWEEP_STALLED && lockedRule && (s.variant & VARIANT_JIGSAW) == 0u) {
      let a = locked_direction(s, s.n, 1u, s.boxH, s.boxW);
      let b = locked_direction(s, 1u, s.n, s.boxW, s.boxH);
      r = select(SWEEP_STALLED, SWEEP_CHANGED, a || b);
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
