// The complete binary puzzle solver with one puzzle per invocation (src/puzzles/binary/lane.ts), for grids up to
// 32x32: rows (and columns) as [known, value] bit planes in private memory, our automaton's generations
// (generation.wgsl, shared with ca.wgsl) to each fixpoint. The same steps as the batch path (solver.ts solveFull):
//   stages by the thesis' levels (Methods 1-2, +3, +4; thesis 4.3): the stage that completes the grid is the
//     level, 4 when probing is needed (the level is decided by the same fixpoints as the batch path's stages);
//   Method 5, probing (thesis 3.3.1): copies of the stalled node with one unknown cell set, each run to its
//     fixpoint; a copy that reaches a contradiction fixes the cell the other way (the other way's whole fixpoint
//     follows), cells both ways agree on are fixed. Cells of lines short of one value first, that value first
//     (the remainder of thesis Figure 3.21), as solver.ts `startProbing`; a sweep goes on after a fix;
//   branching when a whole sweep fixes nothing: on the probed cell whose two ways knew most, the other way waiting
//     on the invocation's stack (2 * height words a level), to two solutions, in restarts (run k may take
//     restartBranches * 2^k branch points, run 0 with the 0-way first, later runs with a hashed order), as the CPU
//     search (search.ts BinarySearch.solve) does and for the same reason: on grids with few givens one early
//     choice doomed a column far below.
// An invocation takes the next puzzle when it is done with one. Puzzles beyond the stack (`depthCap`) or the node
// cap end as STATUS_DEPTH / STATUS_CAPPED: the host hands those to the batch path.

struct Params {
  count: u32,
  depthCap: u32,
  nodeCap: u32,
  // branch points of a search's first run; each restart doubles it
  restartBranches: u32,
  // probes in a row that fix nothing after which a node over a quarter unknown branches (OPEN_NODE_PROBES)
  openProbes: u32,
}

// input: one record offset per puzzle; record: width, height, Rule 3 (0/1), result offset, then rows [known, value]
@group(0) @binding(0) var<uniform> params: Params;
// results (engine/lanes.wgsl), per puzzle: RESULT_HEADER words (status, level, probes, branches, generations,
// probeGenerations, branchGenerations, nodes), then 2 solutions of height words (row values); scratch: per
// invocation depthCap levels of STACK_WORDS words

// the engine's flag bits (shaders/engine/batch.wgsl), which generation.wgsl raises
const FLAG_CHANGED: u32 = 1u;
const FLAG_CONTRADICTION: u32 = 2u;
const FLAG_PENDING: u32 = 4u;

const RESULT_HEADER: u32 = 8u;
const STACK_WORDS: u32 = 64u;


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
// the puzzle's job number and record (a restart reads it again), this run and the branches before it
var<private> puzzleJob: u32;
var<private> puzzleRec: u32;
var<private> run: u32;
var<private> runFrom: u32;
// the node being probed (rows and columns) and the first way's end of the cell being probed (rows)
var<private> nodeK: array<u32, 32>;
var<private> nodeV: array<u32, 32>;
var<private> nodeCK: array<u32, 32>;
var<private> nodeCV: array<u32, 32>;
var<private> endK: array<u32, 32>;
var<private> endV: array<u32, 32>;
// cells probed in this sweep (bit x of row y)
var<private> probed: array<u32, 32>;

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

// What the private grid's run is, and what happens at its end (on_end). The main loop has one place where runs
// happen, whatever the puzzle is doing (a stage, either way of a probe, a node's own run): the lanes SwiftShader
// runs side by side (4 to a core, in step) run their generations together there, which are most of the work, and
// only the bookkeeping after diverges. With a run at each of its call sites (stage, probe, node) the lanes split
// between sites ran them one site after the other: 955 -> 1,182 puzzles/s on the bench's 625 base puzzles x 4.
const ST_STAGE: u32 = 0u;
const ST_PROBE1: u32 = 1u;
const ST_PROBE2: u32 = 2u;
const ST_ADOPT: u32 = 3u;
const ST_CHILD: u32 = 4u;

// What a turn's bookkeeping leaves to the main loop: a sweep's next probe, the next node from the stack, or the next
// puzzle. Each runs from one place there: SwiftShader inlines every call, and called where they are decided
// (next_puzzle behind every finish) the kernel took ~10 s to compile.
const THEN_NONE: u32 = 0u;
const THEN_PROBE: u32 = 1u;
const THEN_POP: u32 = 2u;
const THEN_PUZZLE: u32 = 3u;
var<private> then: u32;

var<private> counts: Counts;
var<private> state: u32;
var<private> methodsNow: u32;
var<private> gensNow: u32;
var<private> level: u32;
var<private> depth: u32;
var<private> laneId: u32;
// the node is on the root lineage (its generations are the puzzle's own) or a branch's
var<private> rootNode: bool;
// the cell being probed, its first way and that way's outcome and known cells
var<private> probeX: u32;
var<private> probeY: u32;
var<private> probeFirst: u32;
var<private> firstOutcome: u32;
var<private> firstKnown: u32;
// this sweep: did a probe fix cells; the best branch cell so far (its two ways knew most)
var<private> fixedInSweep: bool;
var<private> haveBest: bool;
var<private> bestScore: u32;
var<private> branchX: u32;
var<private> branchY: u32;
// cells this node has probed since its last fix or its start (a new sweep goes on counting)
var<private> fruitless: u32;

fn stack_at(d: u32) -> u32 {
  return (laneId * params.depthCap + d) * STACK_WORDS;
}

// A node below the root that is over a quarter unknown branches once params.openProbes probes in a row have fixed
// nothing, on the best cell so far (solver.ts OPEN_NODE_PROBES: why, and what it measured). Probes that fix cells
// reset the count, so a constrained node probes on while probing pays.
fn open_node_probed() -> bool {
  if (rootNode || fruitless < params.openProbes) {
    return false;
  }
  var known = 0u;
  for (var y = 0u; y < gH; y++) {
    known += countOneBits(nodeK[y]);
  }
  return 4u * (gW * gH - known) > gW * gH;
}

fn begin_sweep() {
  for (var i = 0u; i < gH; i++) {
    probed[i] = 0u;
  }
  fixedInSweep = false;
  haveBest = false;
  bestScore = 0u;
}

// the puzzle is over: its result, then (the main loop) the next puzzle
fn finish(status: u32) {
  results[resultAt] = status;
  results[resultAt + 1u] = level;
  results[resultAt + 2u] = counts.probes;
  results[resultAt + 3u] = counts.branches;
  results[resultAt + 4u] = counts.gens;
  results[resultAt + 5u] = counts.probeGens;
  results[resultAt + 6u] = counts.branchGens;
  results[resultAt + 7u] = nodes;
  then = THEN_PUZZLE;
}

fn finish_found() {
  finish(select(select(STATUS_MULTIPLE, STATUS_SOLVED, found == 1u), STATUS_CONTRADICTION, found == 0u));
}

fn next_puzzle() -> bool {
  let k = next_job();
  if (k >= params.count) {
    return false;
  }
  puzzleJob = k;
  puzzleRec = input[k];
  found = 0u;
  nodes = 1u;
  counts = Counts(0u, 0u, 0u, 0u, 0u);
  run = 0u;
  runFrom = 0u;
  load_puzzle();
  return true;
}

// the puzzle's givens, its first stage next: a new puzzle's start, and a restart's (solutions and counts kept)
fn load_puzzle() {
  let rec = puzzleRec;
  gW = input[rec];
  gH = input[rec + 1u];
  gDistinct = input[rec + 2u] == 1u;
  resultAt = input[rec + 3u];
  depth = 0u;
  rootNode = true;
  for (var i = 0u; i < gH; i++) {
    rowK[i] = input[rec + 4u + 2u * i];
    rowV[i] = input[rec + 5u + 2u * i];
  }
  rebuild_columns();
  // the first stage (thesis level 1): Methods 1-2
  track_all();
  level = 1u;
  methodsNow = 3u;
  state = ST_STAGE;
  gensNow = 0u;
}

// a later run's first way at a branch point: one bit of a hash of the puzzle, the run and the branch
fn hashed_way() -> u32 {
  var h = (puzzleJob * 0x9e3779b9u) ^ (run * 0x85ebca6bu) ^ (counts.branches * 0xc2b2ae35u);
  h ^= h >> 16u;
  h *= 0x7feb352du;
  h ^= h >> 15u;
  h *= 0x846ca68bu;
  h ^= h >> 16u;
  return h & 1u;
}

// The way a branch point tries first: the value its row and column together still need more of, on a tie 0 in the
// first run and a hashed way in later ones (solver.ts firstWay: why, and what it measured).
fn first_way() -> u32 {
  let rowOnes = countOneBits(nodeK[branchY] & nodeV[branchY]);
  let colOnes = countOneBits(nodeCK[branchX] & nodeCV[branchX]);
  let ones = rowOnes + colOnes;
  let zeros = countOneBits(nodeK[branchY]) + countOneBits(nodeCK[branchX]) - ones;
  if (ones != zeros) {
    return select(0u, 1u, ones < zeros);
  }
  return select(0u, hashed_way(), run > 0u);
}

// a new run of the private grid (set up by the caller) in this state
fn start(s: u32) {
  state = s;
  methodsNow = METHODS_ALL;
  gensNow = 0u;
  nodes += 1u;
}

// the node's sweep goes on: the next cell's first way, or (sweep over) a new sweep or a branch
fn next_probe() {
  if (nodes > params.nodeCap) {
    finish(STATUS_CAPPED);
    return;
  }
  loop {
    let p = pick_cell();
    if (p.ok && !open_node_probed()) {
      fruitless += 1u;
      probed[p.y] |= 1u << p.x;
      probeX = p.x;
      probeY = p.y;
      probeFirst = p.first;
      counts.probes += 1u;
      load_node();
      set_cell(p.x, p.y, p.first);
      start(ST_PROBE1);
      return;
    }
    if (fixedInSweep) {
      begin_sweep();
      continue;
    }
    break;
  }
  // probing stalled: branch on the best cell, one way on the stack, the other now; or this run's branches are
  // spent: the next run
  if (counts.branches - runFrom >= params.restartBranches << min(run, 20u)) {
    run += 1u;
    runFrom = counts.branches;
    nodes += 1u;
    load_puzzle();
    return;
  }
  if (depth >= params.depthCap) {
    finish(STATUS_DEPTH);
    return;
  }
  let now = first_way();
  counts.branches += 1u;
  fruitless = 0u;
  let at = stack_at(depth);
  for (var i = 0u; i < gH; i++) {
    let bit = select(0u, 1u << branchX, i == branchY);
    scratch[at + 2u * i] = nodeK[i] | bit;
    scratch[at + 2u * i + 1u] = nodeV[i] | select(0u, bit, now == 0u);
  }
  depth += 1u;
  rootNode = false;
  load_node();
  set_cell(branchX, branchY, now);
  start(ST_CHILD);
}

// the node is over (complete or dead): the next one from the stack, or the puzzle is over
fn pop_node() {
  if (found >= 2u || depth == 0u) {
    finish_found();
    return;
  }
  depth -= 1u;
  fruitless = 0u;
  let at = stack_at(depth);
  for (var i = 0u; i < gH; i++) {
    rowK[i] = scratch[at + 2u * i];
    rowV[i] = scratch[at + 2u * i + 1u];
  }
  rebuild_columns();
  track_all();
  start(ST_CHILD);
}

// the private grid is a fixpoint of the node (stronger than the saved one): probing goes on from it
fn node_grew() {
  save_node();
  fixedInSweep = true;
  fruitless = 0u;
  then = THEN_PROBE;
}

// the run ended (RUN_*): what follows, set up for the next turn (or left in `then` for the main loop)
fn on_end(outcome: u32) {
  if (state == ST_STAGE) {
    // a restart runs the stages again: the puzzle's own generations are its first run's
    counts.gens += select(0u, gensNow, run == 0u);
    if (outcome == RUN_DONE) {
      solution_found();
      finish_found();
      return;
    }
    if (outcome == RUN_CONTRADICTION) {
      finish(STATUS_CONTRADICTION);
      return;
    }
    // the next stage (Rule 3 off: no Method 4 stage), or probing
    if (level == 1u || (level == 2u && gDistinct)) {
      level += 1u;
      methodsNow = select(METHODS_ALL, 7u, level == 2u);
      gensNow = 0u;
      nodes += 1u;
      track_all();
      return;
    }
    level = 4u;
    save_node();
    begin_sweep();
    then = THEN_PROBE;
    return;
  }
  if (state == ST_PROBE1) {
    counts.probeGens += gensNow;
    firstOutcome = outcome;
    if (outcome == RUN_CONTRADICTION) {
      // the other way follows from the node: its fixpoint is the stronger node
      load_node();
      set_cell(probeX, probeY, 1u - probeFirst);
      start(ST_ADOPT);
      return;
    }
    if (outcome == RUN_DONE) {
      solution_found();
      if (found >= 2u) {
        finish_found();
        return;
      }
    }
    firstKnown = known_cells();
    endTrack = track_now();
    for (var i = 0u; i < gH; i++) {
      endK[i] = rowK[i];
      endV[i] = rowV[i];
    }
    counts.probes += 1u;
    load_node();
    set_cell(probeX, probeY, 1u - probeFirst);
    start(ST_PROBE2);
    return;
  }
  if (state == ST_PROBE2) {
    counts.probeGens += gensNow;
    if (outcome == RUN_CONTRADICTION) {
      // the first way's whole fixpoint follows from the node
      for (var i = 0u; i < gH; i++) {
        rowK[i] = endK[i];
        rowV[i] = endV[i];
      }
      rebuild_columns();
      track_set(endTrack);
      if (firstOutcome == RUN_DONE) {
        then = THEN_POP;
        return;
      }
      node_grew();
      return;
    }
    if (outcome == RUN_DONE) {
      solution_found();
      if (found >= 2u) {
        finish_found();
        return;
      }
    }
    // both live: what they share holds
    let score = select(min(firstKnown, known_cells()), 0xffffffffu, (firstOutcome == RUN_DONE) | (outcome == RUN_DONE));
    if (!haveBest || score > bestScore) {
      haveBest = true;
      bestScore = score;
      branchX = probeX;
      branchY = probeY;
    }
    var grew = false;
    for (var i = 0u; i < gH; i++) {
      let agree = endK[i] & rowK[i] & ~(endV[i] ^ rowV[i]) & ~nodeK[i];
      grew = grew | (agree != 0u);
      rowK[i] = nodeK[i] | agree;
      rowV[i] = nodeV[i] | (agree & endV[i]);
    }
    if (!grew) {
      then = THEN_PROBE;
      return;
    }
    rebuild_columns();
    track_all();
    start(ST_ADOPT);
    return;
  }
  // ST_ADOPT, ST_CHILD: a node's own run
  if (rootNode) {
    counts.gens += gensNow;
  } else {
    counts.branchGens += gensNow;
  }
  if (outcome == RUN_DONE) {
    solution_found();
    then = THEN_POP;
    return;
  }
  if (outcome == RUN_CONTRADICTION) {
    then = THEN_POP;
    return;
  }
  if (state == ST_ADOPT) {
    node_grew();
    return;
  }
  save_node();
  begin_sweep();
  then = THEN_PROBE;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn binary_lanes(@builtin(global_invocation_id) id: vec3u) {
  laneId = id.x;
  then = THEN_PUZZLE;
  loop {
    if (then == THEN_PUZZLE) {
      then = THEN_NONE;
      if (!next_puzzle()) { break; }
    }
    // the run to its end (all lanes of a SIMD group run their generations here together), then its bookkeeping
    var outcome = RUN_STALLED;
    loop {
      let f = small_generation(gW, gH, methodsNow, gDistinct);
      if ((f & FLAG_CONTRADICTION) != 0u) {
        gensNow += 1u;
        outcome = RUN_CONTRADICTION;
        break;
      }
      if ((f & FLAG_CHANGED) == 0u) {
        outcome = select(RUN_STALLED, RUN_DONE, (f & FLAG_PENDING) == 0u);
        break;
      }
      gensNow += 1u;
    }
    on_end(outcome);
    // pop_node and next_probe end in a new run or a finish (THEN_PUZZLE), never in each other
    if (then == THEN_POP) {
      then = THEN_NONE;
      pop_node();
    }
    if (then == THEN_PROBE) {
      then = THEN_NONE;
      next_probe();
    }
  }
}
