// The complete binary puzzle solver with one puzzle per invocation (src/puzzles/binary/lane.ts), for grids up to
// 32x32: rows (and columns) as [known, value] bit planes in private memory, our automaton's generations
// (generation.wgsl, shared with ca.wgsl) to each fixpoint. The same steps as the batch path (solver.ts solveFull):
//   stages by the thesis' levels (Methods 1-2, +3, +4; thesis 4.3): the stage that completes the grid is the
//     level, 4 when probing is needed (the level is decided by the same fixpoints as the batch path's stages);
//   Method 5, probing (thesis 3.3.1): copies of the stalled node with one unknown cell set, each run to its
//     fixpoint; a copy that reaches a contradiction fixes the cell the other way (the other way's whole fixpoint
//     follows), cells both ways agree on are fixed. Cells of lines short of one value first, that value first
//     (the remainder of thesis Figure 3.21), as solver.ts `startProbing`; a sweep goes on after a fix;
//   branching when a whole sweep fixes nothing: on the probed cell whose two ways knew most, the 1-way waiting on
//     the invocation's stack (2 * height words a level), to two solutions.
// An invocation takes the next puzzle when it is done with one. Puzzles beyond the stack (`depthCap`) or the node
// cap end as STATUS_DEPTH / STATUS_CAPPED: the host hands those to the batch path.

struct Params {
  count: u32,
  depthCap: u32,
  nodeCap: u32,
  pad: u32,
}

// input: one record offset per puzzle; record: width, height, Rule 3 (0/1), result offset, then rows [known, value]
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<u32>;
// per puzzle: RESULT_HEADER words (status, level, probes, branches, generations, probeGenerations,
// branchGenerations, nodes), then 2 solutions of height words (row values)
@group(0) @binding(2) var<storage, read_write> results: array<u32>;
// per invocation: depthCap levels of STACK_WORDS words
@group(0) @binding(3) var<storage, read_write> scratch: array<u32>;
@group(0) @binding(4) var<storage, read_write> work: array<atomic<u32>>;

override WORKGROUP_SIZE: u32 = 4u;

// the engine's flag bits (shaders/engine/batch.wgsl), which generation.wgsl raises
const FLAG_CHANGED: u32 = 1u;
const FLAG_CONTRADICTION: u32 = 2u;
const FLAG_PENDING: u32 = 4u;

const RESULT_HEADER: u32 = 8u;
const STACK_WORDS: u32 = 64u;

const STATUS_SOLVED: u32 = 1u;
const STATUS_MULTIPLE: u32 = 2u;
const STATUS_CONTRADICTION: u32 = 3u;
const STATUS_DEPTH: u32 = 4u;
const STATUS_CAPPED: u32 = 5u;

const RUN_STALLED: u32 = 0u;
const RUN_DONE: u32 = 1u;
const RUN_CONTRADICTION: u32 = 2u;

const METHODS_ALL: u32 = 15u;

// the puzzle
var<private> gW: u32;
var<private> gH: u32;
var<private> gDistinct: bool;
var<private> resultAt: u32;
var<private> found: u32;
var<private> nodes: u32;
// the node being probed (rows and columns) and the first way's end of the cell being probed (rows)
var<private> nodeK: array<u32, 32>;
var<private> nodeV: array<u32, 32>;
var<private> nodeCK: array<u32, 32>;
var<private> nodeCV: array<u32, 32>;
var<private> endK: array<u32, 32>;
var<private> endV: array<u32, 32>;
// cells probed in this sweep (bit x of row y)
var<private> probed: array<u32, 32>;
// generations of the last run
var<private> lastGens: u32;

fn width_mask() -> u32 {
  return ca_width_mask(gW, 1u, 0u);
}

// What generation.wgsl knows of the last generation (complete lines, column facts) at a fixpoint: a copy of a
// fixpoint with one cell set starts from it as if that cell had just changed (the rows near it and those the
// changed column facts reach are computed; the others would repeat the fixpoint), not from every row.
struct Track {
  doneRows: u32,
  doneCols: u32,
  full0: u32,
  full1: u32,
  matched: u32,
}

var<private> nodeTrack: Track;
var<private> endTrack: Track;

fn track_now() -> Track {
  return Track(doneRows, doneCols, prevFull0, prevFull1, prevMatched);
}

fn track_set(t: Track) {
  doneRows = t.doneRows;
  doneCols = t.doneCols;
  prevFull0 = t.full0;
  prevFull1 = t.full1;
  prevMatched = t.matched;
}

// every row computed in the next generation: the grid is not a fixpoint's copy
fn track_all() {
  doneRows = 0u;
  doneCols = 0u;
  rowsChanged = 0xffffffffu;
  colsChanged = 0xffffffffu;
  prevFull0 = 0u;
  prevFull1 = 0u;
  prevMatched = 0u;
}

// the private grid to its fixpoint with these methods, from the tracking state set by the caller
fn run_fixpoint(methods: u32) -> u32 {
  nodes += 1u;
  var gens = 0u;
  var pending = 0u;
  loop {
    let f = small_generation(gW, gH, methods, gDistinct);
    pending = f & FLAG_PENDING;
    if ((f & (FLAG_CHANGED | FLAG_CONTRADICTION)) == 0u) {
      break;
    }
    gens += 1u;
    if ((f & FLAG_CONTRADICTION) != 0u) {
      lastGens = gens;
      return RUN_CONTRADICTION;
    }
  }
  lastGens = gens;
  return select(RUN_STALLED, RUN_DONE, pending == 0u);
}

fn rebuild_columns() {
  for (var c = 0u; c < gW; c++) {
    colK[c] = 0u;
    colV[c] = 0u;
  }
  for (var y = 0u; y < gH; y++) {
    var f = rowK[y];
    while (f != 0u) {
      let c = firstTrailingBit(f);
      f &= f - 1u;
      colK[c] |= 1u << y;
      colV[c] |= ((rowV[y] >> c) & 1u) << y;
    }
  }
}

fn save_node() {
  nodeTrack = track_now();
  for (var i = 0u; i < gH; i++) {
    nodeK[i] = rowK[i];
    nodeV[i] = rowV[i];
  }
  for (var i = 0u; i < gW; i++) {
    nodeCK[i] = colK[i];
    nodeCV[i] = colV[i];
  }
  line_shortness();
}

// the node's grid, and its tracking state: the caller sets one cell (set_cell) and runs it to its fixpoint
fn load_node() {
  track_set(nodeTrack);
  for (var i = 0u; i < gH; i++) {
    rowK[i] = nodeK[i];
    rowV[i] = nodeV[i];
  }
  for (var i = 0u; i < gW; i++) {
    colK[i] = nodeCK[i];
    colV[i] = nodeCV[i];
  }
}

fn set_cell(x: u32, y: u32, v: u32) {
  rowsChanged = 1u << y;
  colsChanged = 1u << x;
  rowK[y] |= 1u << x;
  rowV[y] = (rowV[y] & ~(1u << x)) | (v << x);
  colK[x] |= 1u << y;
  colV[x] = (colV[x] & ~(1u << y)) | (v << y);
}

// a complete grid in rowV: a new solution unless it is the first one again
fn solution_found() {
  let at = resultAt + RESULT_HEADER;
  if (found == 1u) {
    var same = true;
    for (var y = 0u; y < gH; y++) {
      same = same & (results[at + y] == rowV[y]);
    }
    if (same) {
      return;
    }
  }
  if (found < 2u) {
    for (var y = 0u; y < gH; y++) {
      results[at + found * gH + y] = rowV[y];
    }
  }
  found += 1u;
}

// known cells of the private grid
fn known_cells() -> u32 {
  var n = 0u;
  for (var y = 0u; y < gH; y++) {
    n += countOneBits(rowK[y]);
  }
  return n;
}

struct Pick {
  x: u32,
  y: u32,
  first: u32,
  ok: bool,
}

// What the sweep's order needs of a node, computed when it is saved (a node serves many probes): the lines short
// of exactly one value (the remainder of thesis Figure 3.21) and that value: rows as bits y, columns as bits x.
var<private> rowsShort: u32;
var<private> rowsShort1: u32;
var<private> colsShort: u32;
var<private> colsShort1: u32;

fn line_shortness() {
  let halfW = gW / 2u;
  let halfH = gH / 2u;
  rowsShort = 0u;
  rowsShort1 = 0u;
  colsShort = 0u;
  colsShort1 = 0u;
  for (var c = 0u; c < gW; c++) {
    let ones = countOneBits(nodeCK[c] & nodeCV[c]);
    let need1 = halfH - ones;
    let need0 = halfH - (countOneBits(nodeCK[c]) - ones);
    let short = min(need1, need0) == 1u;
    colsShort |= select(0u, 1u << c, short);
    colsShort1 |= select(0u, 1u << c, short & (need1 == 1u));
  }
  for (var y = 0u; y < gH; y++) {
    let ones = countOneBits(nodeK[y] & nodeV[y]);
    let need1 = halfW - ones;
    let need0 = halfW - (countOneBits(nodeK[y]) - ones);
    let short = min(need1, need0) == 1u;
    rowsShort |= select(0u, 1u << y, short);
    rowsShort1 |= select(0u, 1u << y, short & (need1 == 1u));
  }
}

// The next cell of the sweep (solver.ts startProbing): an unprobed unknown cell of a line short of exactly one
// value (that value first; a row before a column), else the first unprobed unknown cell (0 first).
fn pick_cell() -> Pick {
  var p: Pick;
  p.ok = false;
  var fallback = false;
  let wm = width_mask();
  for (var y = 0u; y < gH; y++) {
    let open = ~nodeK[y] & ~probed[y] & wm;
    let rowShort = ((rowsShort >> y) & 1u) == 1u;
    let prio = select(open & colsShort, open, rowShort);
    if (prio != 0u) {
      p.x = firstTrailingBit(prio);
      p.y = y;
      p.first = select(((colsShort1 >> p.x) & 1u), ((rowsShort1 >> y) & 1u), rowShort);
      p.ok = true;
      return p;
    }
    if (!fallback && open != 0u) {
      fallback = true;
      p.x = firstTrailingBit(open);
      p.y = y;
      p.first = 0u;
    }
  }
  p.ok = fallback;
  return p;
}

struct Counts {
  probes: u32,
  branches: u32,
  gens: u32,
  probeGens: u32,
  branchGens: u32,
}

var<private> counts: Counts;
// the node is on the root lineage (its generations are the puzzle's own) or a branch's
var<private> rootNode: bool;

fn count_node_run() {
  if (rootNode) {
    counts.gens += lastGens;
  } else {
    counts.branchGens += lastGens;
  }
}

// Probes the node (saved) until it is complete, dead or stalled after a sweep without fixes; returns
// RUN_DONE / RUN_CONTRADICTION when the node is over (its solution recorded), RUN_STALLED with the branch cell in
// branchX / branchY.
var<private> branchX: u32;
var<private> branchY: u32;

fn probe_node() -> u32 {
  loop {
    for (var i = 0u; i < gH; i++) {
      probed[i] = 0u;
    }
    var fixed = false;
    var bestScore = 0u;
    var haveBest = false;
    loop {
      if (found >= 2u || nodes > params.nodeCap) {
        return RUN_CONTRADICTION;
      }
      let p = pick_cell();
      if (!p.ok) {
        break;
      }
      probed[p.y] |= 1u << p.x;
      counts.probes += 1u;
      load_node();
      set_cell(p.x, p.y, p.first);
      let r1 = run_fixpoint(METHODS_ALL);
      counts.probeGens += lastGens;
      var adopt = false;
      if (r1 == RUN_CONTRADICTION) {
        // the other way follows from the node: its fixpoint is the stronger node
        load_node();
        set_cell(p.x, p.y, 1u - p.first);
        adopt = true;
      } else {
        if (r1 == RUN_DONE) {
          solution_found();
        }
        let known1 = known_cells();
        endTrack = track_now();
        for (var i = 0u; i < gH; i++) {
          endK[i] = rowK[i];
          endV[i] = rowV[i];
        }
        counts.probes += 1u;
        load_node();
        set_cell(p.x, p.y, 1u - p.first);
        let r2 = run_fixpoint(METHODS_ALL);
        counts.probeGens += lastGens;
        if (r2 == RUN_CONTRADICTION) {
          // the first way's whole fixpoint follows from the node
          for (var i = 0u; i < gH; i++) {
            rowK[i] = endK[i];
            rowV[i] = endV[i];
          }
          rebuild_columns();
          track_set(endTrack);
          if (r1 == RUN_DONE) {
            return RUN_DONE;
          }
          save_node();
          fixed = true;
          continue;
        }
        if (r2 == RUN_DONE) {
          solution_found();
        }
        // both live: what they share holds
        let score = select(min(known1, known_cells()), 0xffffffffu, (r1 == RUN_DONE) | (r2 == RUN_DONE));
        if (!haveBest || score > bestScore) {
          haveBest = true;
          bestScore = score;
          branchX = p.x;
          branchY = p.y;
        }
        var grew = false;
        for (var i = 0u; i < gH; i++) {
          let agree = endK[i] & rowK[i] & ~(endV[i] ^ rowV[i]) & ~nodeK[i];
          grew = grew | (agree != 0u);
          rowK[i] = nodeK[i] | agree;
          rowV[i] = nodeV[i] | (agree & endV[i]);
        }
        if (!grew) {
          continue;
        }
        rebuild_columns();
        track_all();
        adopt = true;
      }
      if (adopt) {
        let r = run_fixpoint(METHODS_ALL);
        count_node_run();
        if (r == RUN_DONE) {
          solution_found();
          return RUN_DONE;
        }
        if (r == RUN_CONTRADICTION) {
          return RUN_CONTRADICTION;
        }
        save_node();
        fixed = true;
      }
    }
    if (!fixed) {
      return RUN_STALLED;
    }
  }
}

fn stack_at(lane: u32, depth: u32) -> u32 {
  return (lane * params.depthCap + depth) * STACK_WORDS;
}

fn solve_puzzle(k: u32, lane: u32) {
  let rec = input[k];
  gW = input[rec];
  gH = input[rec + 1u];
  gDistinct = input[rec + 2u] == 1u;
  resultAt = input[rec + 3u];
  found = 0u;
  nodes = 0u;
  counts = Counts(0u, 0u, 0u, 0u, 0u);
  rootNode = true;
  for (var i = 0u; i < 32u; i++) {
    rowK[i] = select(0u, input[rec + 4u + 2u * i], i < gH);
    rowV[i] = select(0u, input[rec + 5u + 2u * i], i < gH);
  }
  rebuild_columns();
  track_all();
  // the stages (thesis levels): Methods 1-2, +3, +4 (Rule 3 off: no Method 4 stage)
  var level = 1u;
  var r = run_fixpoint(3u);
  counts.gens += lastGens;
  if (r == RUN_STALLED) {
    level = 2u;
    track_all();
    r = run_fixpoint(7u);
    counts.gens += lastGens;
  }
  if (r == RUN_STALLED && gDistinct) {
    level = 3u;
    track_all();
    r = run_fixpoint(METHODS_ALL);
    counts.gens += lastGens;
  }
  var depth = 0u;
  var status = 0u;
  if (r == RUN_DONE) {
    solution_found();
  } else if (r == RUN_STALLED) {
    level = 4u;
    save_node();
    // depth-first: probe the node; branch when probing stalls; take the next child from the stack when over
    loop {
      let s = probe_node();
      if (nodes > params.nodeCap) {
        status = STATUS_CAPPED;
        break;
      }
      if (found >= 2u) {
        break;
      }
      var next = false;
      if (s == RUN_STALLED) {
        if (depth >= params.depthCap) {
          status = STATUS_DEPTH;
          break;
        }
        counts.branches += 1u;
        // the 1-way waits on the stack; the 0-way goes on now
        let at = stack_at(lane, depth);
        for (var i = 0u; i < gH; i++) {
          let bit = select(0u, 1u << branchX, i == branchY);
          scratch[at + 2u * i] = nodeK[i] | bit;
          scratch[at + 2u * i + 1u] = nodeV[i] | bit;
        }
        depth += 1u;
        rootNode = false;
        load_node();
        set_cell(branchX, branchY, 0u);
        next = true;
      } else {
        if (depth == 0u) {
          break;
        }
        depth -= 1u;
        let at = stack_at(lane, depth);
        for (var i = 0u; i < 32u; i++) {
          rowK[i] = select(0u, scratch[at + 2u * i], i < gH);
          rowV[i] = select(0u, scratch[at + 2u * i + 1u], i < gH);
        }
        rebuild_columns();
        track_all();
        next = true;
      }
      // a new node: to its fixpoint, then probing (or over)
      loop {
        let rn = run_fixpoint(METHODS_ALL);
        count_node_run();
        if (rn == RUN_STALLED) {
          save_node();
          break;
        }
        if (rn == RUN_DONE) {
          solution_found();
        }
        if (depth == 0u || found >= 2u) {
          next = false;
          break;
        }
        depth -= 1u;
        let at = stack_at(lane, depth);
        for (var i = 0u; i < 32u; i++) {
          rowK[i] = select(0u, scratch[at + 2u * i], i < gH);
          rowV[i] = select(0u, scratch[at + 2u * i + 1u], i < gH);
        }
        rebuild_columns();
        track_all();
      }
      if (!next) {
        break;
      }
    }
  }
  if (status == 0u) {
    status = select(select(STATUS_MULTIPLE, STATUS_SOLVED, found == 1u), STATUS_CONTRADICTION, found == 0u);
  }
  results[resultAt] = status;
  results[resultAt + 1u] = level;
  results[resultAt + 2u] = counts.probes;
  results[resultAt + 3u] = counts.branches;
  results[resultAt + 4u] = counts.gens;
  results[resultAt + 5u] = counts.probeGens;
  results[resultAt + 6u] = counts.branchGens;
  results[resultAt + 7u] = nodes;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn binary_lanes(@builtin(global_invocation_id) id: vec3u) {
  loop {
    let k = atomicAdd(&work[0], 1u);
    if (k >= params.count) {
      break;
    }
    solve_puzzle(k, id.x);
  }
}
