// The complete nonogram solver with one puzzle per invocation (src/puzzles/nonogram/lane.ts), for puzzles whose
// lines fit one word (up to 31 cells). CPU twin: solveCpu in src/puzzles/nonogram/reference.ts, step for step, so
// tests compare probes, branches and line settles exactly.
//
// A node is the puzzle's cells in private memory, both orientations (rows' and columns' filled/empty bits), so a
// line reads its own word and news go to the crossing lines bit by bit. Line logic settles dirty rows, then dirty
// columns, until nothing is dirty (settle1 in settle.wgsl: the exact settle). Probing takes the cells of the node's
// probe set: each is set filled in one copy and empty in another, both run line logic; a contradiction fixes the
// cell to the surviving copy, cells both copies agree on are fixed, and news puts the unknown cells of its rows and
// columns back in the set. When the set is empty, the cell probed since the last news whose weaker copy decides the
// most cells (or both copies together, for a job whose `variant` says so) is branched on: the likelier copy runs
// on (count.wgsl), the other waits on the job's stack in its slot of `scratch` (depth first). The search ends at
// `maxSolutions` solutions or an empty stack.
//
// Why one puzzle per invocation on SwiftShader: the rounds solver (line.wgsl + solver.ts) pays a readback and host
// decisions per round and moves every probe copy through storage; here a probe copy never leaves the invocation and
// a round of jobs is one dispatch and one readback (engine/lanes.wgsl, lane.ts).

struct Params {
  count: u32,
  // waiting copies per job (its stack in its slot of scratch, ENTRY_WORDS each)
  depthCap: u32,
  // probes one puzzle may run in all before it is handed back as capped
  probeCap: u32,
  // 1: stop at the first solution; 2: prove uniqueness or find a second
  maxSolutions: u32,
  // probes a job may run in this dispatch before it is suspended (before its next probe) to resume in a later one
  budget: u32,
  // words per slot of scratch
  slotWords: u32,
  // probes a search runs before it starts again from the puzzle with the other child order, twice as long each
  // time (solveCpu's restarts; 0: never)
  restartAfter: u32,
  // 1: the host can give every slot a deeper stack, so a search that would branch past depthCap waits for it
  // (STATUS_DEEPER, suspended at the branch) instead of ending STATUS_DEPTH
  deeper: u32,
  // below a run's root, the `weaker` search branches as soon as a cell scores this (reference.ts EARLY_BRANCH_SCORE;
  // 0xffffffff: never)
  earlyBranchScore: u32,
}

@group(0) @binding(0) var<uniform> params: Params;

// input and results as job.wgsl says; the counters: probes, branches, settles, root generations, level, nodes,
// deepest stack.
// scratch: one slot per job in flight, `slotWords` words each, that keeps a suspended search between dispatches:
// a header of 16 words (word 0 SLOT_ENDED, the counters in RESULT_HEADER layout from word 1, then the stack depth,
// the solutions found, from SLOT_SCAN where a suspended node's probing stands and from SLOT_RUN its restarts), two
// solutions, the node to probe next with its probe set, then the stack of waiting copies (each with its probe set).
const STATE_WORDS: u32 = 128u;
const SLOT_SOLUTIONS: u32 = 16u;
// a suspended node's scan state (next_cell): scanAny | scanRow << 1 | scanCol << 6 | atRoot << 11, bestScore,
// branchCell, base
const SLOT_SCAN: u32 = 10u;
// the search's restarts so far and the probes before its run
const SLOT_RUN: u32 = 14u;
const SLOT_NODE: u32 = 80u;      // SLOT_SOLUTIONS + 2 * MAX_LINES
const SLOT_STACK: u32 = 240u;    // SLOT_NODE + ENTRY_WORDS
// a waiting copy (or a suspended node): its cells, then its probe set
const ENTRY_WORDS: u32 = 160u;

// job.wgsl's `variant`: the branch score, as an index in reference.ts BRANCH_SCORES ('weaker', 'sum')
const VARIANT_SUM: u32 = 1u;

const LEVEL_LINE: u32 = 0u;
const LEVEL_PROBE: u32 = 1u;
const LEVEL_SEARCH: u32 = 2u;

// a node's words: rows' filled, rows' empty, columns' filled, columns' empty bits
const ROW_F: u32 = 0u;
const ROW_E: u32 = 32u;
const COL_F: u32 = 64u;
const COL_E: u32 = 96u;
alias State = array<u32, 128>;

// the node being probed (st[CUR]), its probe copy with the cell filled (st[FILL]) and with it empty (st[EMPTY]): one
// array, so one line logic loop can run on either copy
var<private> st: array<State, 3>;
const CUR: u32 = 0u;
const FILL: u32 = 1u;
const EMPTY: u32 = 2u;

// the search's counters and solutions so far
var<private> probes: u32;
var<private> settles: u32;
var<private> generations: u32;
var<private> solutions: u32;
// cells decided by line logic since `gained` was last reset (a probe copy's cells = its node's + gained)
var<private> gained: u32;
// rows where line logic decided cells since `touched` was last reset (a probe copy differs from its node only there)
var<private> touched: u32;

fn clue_word(i: u32) -> u32 {
  return input[i];
}

fn line_mask(len: u32) -> u32 {
  return (1u << len) - 1u;
}

// Adds filled (nf) and empty (ne) cells to a row (rows) or column of `s`, and to the crossing lines' words.
fn add_cells(s: u32, rows: bool, line: u32, nf: u32, ne: u32) {
  st[s][select(COL_F, ROW_F, rows) + line] |= nf;
  st[s][select(COL_E, ROW_E, rows) + line] |= ne;
  let otherF = select(ROW_F, COL_F, rows);
  let otherE = select(ROW_E, COL_E, rows);
  let bit = 1u << line;
  for (var b = nf; b != 0u; b &= b - 1u) { st[s][otherF + firstTrailingBit(b)] |= bit; }
  for (var b = ne; b != 0u; b &= b - 1u) { st[s][otherE + firstTrailingBit(b)] |= bit; }
}

// Line logic to its fixpoint on st[s] from these dirty lines (LineSolver.run): generations of a pass over the dirty
// rows, then one over the dirty columns (those given and those the rows' news crossed), until a generation brings no
// news; false: a contradiction. With `both`, st[s] is a probe's filled copy and st[s + 1] its empty one, from the
// same dirty lines: when the first ends (its outcome in fillOk, fillGained, fillTouched), the loop goes on with the
// second. SwiftShader runs 4 invocations in lockstep and emits every branch of a loop body for all of them, so
// this loop settles one line per turn whatever the pass and the copy: with a loop per pass, or per copy, each of the
// 4 waited for the slowest at every pass's or copy's end.
fn line_logic(first: u32, both: bool, rowDirty: u32, colDirty: u32) -> bool {
  var s = first;
  var rows = true;
  var left = rowDirty;
  var cols = colDirty;
  var fromRows = 0u;
  var fromCols = 0u;
  var failed = false;
  loop {
    // a pass with no lines left: rows go on to columns, columns to the next generation or the fixpoint
    loop {
      if (left != 0u) { break; }
      if (!failed) {
        if (rows) {
          rows = false;
          left = cols | fromRows;
          continue;
        }
        if ((fromRows | fromCols) != 0u) { generations++; }
        if (fromCols != 0u) {
          rows = true;
          left = fromCols;
          cols = 0u;
          fromRows = 0u;
          fromCols = 0u;
          continue;
        }
      } else {
        // a contradiction ends line logic in the generation it turns up in, which counts (as in LineSolver.run)
        generations++;
      }
      if (!both || s != first) { return !failed; }
      // the filled copy is done; the empty one from the same lines
      fillOk = !failed;
      fillGained = gained;
      fillTouched = touched;
      s = first + 1u;
      failed = false;
      gained = 1u;
      touched = rowDirty;
      rows = true;
      left = rowDirty;
      cols = colDirty;
      fromRows = 0u;
      fromCols = 0u;
    }
    let line = firstTrailingBit(left);
    left &= left - 1u;
    settles++;
    let ownF = select(COL_F, ROW_F, rows);
    let ownE = select(COL_E, ROW_E, rows);
    let fil = st[s][ownF + line];
    let emp = st[s][ownE + line];
    let settled = settle1(fil, emp, select(height, width, rows), clues + clue_word(clues + select(height, 0u, rows) + line));
    if (!settled.ok) {
      failed = true;
      left = 0u;
      continue;
    }
    let nf = settled.fil & ~fil;
    let ne = settled.emp & ~emp;
    if ((nf | ne) == 0u) { continue; }
    add_cells(s, rows, line, nf, ne);
    if (rows) { fromRows |= nf | ne; } else { fromCols |= nf | ne; }
    gained += countOneBits(nf | ne);
    // a row's news is on that row; a column's news is on the rows of its new bits
    touched |= select(nf | ne, 1u << line, rows);
  }
}

fn known(s: u32) -> u32 {
  var k = 0u;
  for (var r = 0u; r < height; r++) { k += countOneBits(known_row(s, r)); }
  return k;
}

// the filled copy's outcome (line_logic with both copies)
var<private> fillOk: bool;
var<private> fillGained: u32;
var<private> fillTouched: u32;

// The node with cell (r, c) set filled (st[FILL]) and empty (st[EMPTY]); line_logic(FILL, true, ...) then runs both:
// fillOk, fillGained and fillTouched for the filled copy; gained, touched and its result for the empty one.
fn probe_copies(r: u32, c: u32) {
  st[FILL] = st[CUR];
  st[EMPTY] = st[CUR];
  add_cells(FILL, true, r, 1u << c, 0u);
  add_cells(EMPTY, true, r, 0u, 1u << c);
  gained = 1u;
  touched = 1u << r;
}

// Records a complete copy as a solution (in the job's slot) unless it is the one already recorded, or enough are
// (both probe copies of a cell may be complete).
fn add_solution(s: u32) {
  if (solutions >= params.maxSolutions) { return; }
  let first = slotAt + SLOT_SOLUTIONS;
  if (solutions == 1u) {
    var same = true;
    for (var r = 0u; r < height; r++) {
      same = same && scratch[first + r] == st[s][ROW_F + r];
    }
    if (same) { return; }
  }
  let at = first + solutions * MAX_LINES;
  for (var r = 0u; r < height; r++) {
    scratch[at + r] = st[s][ROW_F + r];
  }
  solutions++;
}

// How a node's probing ended (`outcome`; NODE_NONE while it goes on)
const NODE_NONE: u32 = 0u;
const NODE_FAILED: u32 = 1u;    // a contradiction: no solution below this node
const NODE_ENDED: u32 = 2u;     // complete, or enough solutions found
const NODE_BRANCH: u32 = 3u;    // probing stalled: branch on `branchCell`
const NODE_CAPPED: u32 = 4u;    // the probe cap
const NODE_SUSPENDED: u32 = 5u; // the dispatch's budget spent: the node goes on in a later one from where it stopped

// where probing stands in a node, kept in the slot's header while suspended mid-node: the row and column its scan
// goes on from, whether its pass probed any cell, the best branch score since the last news and the known cells then
var<private> scanRow: u32;
var<private> scanCol: u32;
var<private> scanAny: bool;
var<private> bestScore: i32;
var<private> base: i32;
var<private> branchCell: u32;
// the node is its run's root (probed to its fixpoint: no early branch)
var<private> atRoot: bool;
// probes when this dispatch took up the job (each dispatch spends at most params.budget >> share)
var<private> entryProbes: u32;

// the node's probe set: bit c of word r = probe cell (r, c)
var<private> open: array<u32, 32>;
// known cells per row of the node before its last news
var<private> knownBefore: array<u32, 32>;

fn known_row(s: u32, r: u32) -> u32 {
  return st[s][ROW_F + r] | st[s][ROW_E + r];
}

// Puts in `open` the unknown cells of `s` on the rows and columns where `s` knows cells that `knownBefore` did not.
fn mark_lines(s: u32) {
  var rows = 0u;
  var cols = 0u;
  for (var r = 0u; r < height; r++) {
    let news = known_row(s, r) & ~knownBefore[r];
    rows |= select(0u, 1u << r, news != 0u);
    cols |= news;
  }
  let full = line_mask(width);
  for (var r = 0u; r < height; r++) {
    let lines = select(cols, full, ((rows >> r) & 1u) != 0u);
    open[r] |= lines & full & ~known_row(s, r);
  }
}

fn remember_known(s: u32) {
  for (var r = 0u; r < height; r++) { knownBefore[r] = known_row(s, r); }
}

// ---------------------------------------------------------------------------------------------------------------
// The search, in turns. SwiftShader runs 4 invocations in lockstep and emits every branch of a loop body for all of
// them (only loops end early, when no invocation goes on), so each of the 4 pays for every stage of a turn. One turn
// is at most one probe (a cell's two copies) per invocation, and the rest of a search happens in the same turn, in
// stages: the node's line logic after news (or the puzzle's own), what a node's end leads to (the waiting copy to
// take, the branch, or the job's end), the next cell of the scan, the probe, what the probe says. A stage that only
// some turns need is a loop or a function of loops, which costs little when no invocation runs it; so no invocation
// waits for the others' nodes or jobs to end, as it did with a loop per node and per job. The order of everything
// one search does is solveCpu's (reference.ts), so tests compare probes, settles and nodes exactly.

// the job of the invocation and its search's standing
var<private> job: u32;
var<private> status: u32;
var<private> level: u32;
var<private> depth: u32;
var<private> branches: u32;
var<private> nodes: u32;
var<private> deepest: u32;
var<private> rootGenerations: u32;
// restarts so far (odd: this run takes the child that decided fewer cells first) and the probes before this run
var<private> restarts: u32;
var<private> runStart: u32;

// The job's starting cells (its givens) as the node.
fn start_cells(rec: u32) {
  for (var x = 0u; x < STATE_WORDS; x++) { st[CUR][x] = 0u; }
  for (var r = 0u; r < height; r++) { add_cells(CUR, true, r, input[rec + 4u + r], input[rec + 4u + height + r]); }
}

// Has this run spent its probes (solveCpu's runLimit)?
fn run_spent() -> bool {
  return params.restartAfter != 0u && restarts < 15u && probes - runStart >= (params.restartAfter << restarts);
}

fn take_job() -> bool {
  loop {
    job = next_job();
    if (job >= params.count) { return false; }
    let rec = open_job(job);
    if (job_gone(job, rec)) { continue; }
    status = 0u;
    if (input[rec + 3u] != 0u) {
      // a suspended search goes on from its slot, in the node it was suspended in
      probes = scratch[slotAt + 1u];
      branches = scratch[slotAt + 2u];
      settles = scratch[slotAt + 3u];
      rootGenerations = scratch[slotAt + 4u];
      level = scratch[slotAt + 5u];
      nodes = scratch[slotAt + 6u];
      deepest = scratch[slotAt + 7u];
      depth = scratch[slotAt + 8u];
      solutions = scratch[slotAt + 9u];
      restarts = scratch[slotAt + SLOT_RUN];
      runStart = scratch[slotAt + SLOT_RUN + 1u];
      for (var x = 0u; x < STATE_WORDS; x++) { st[CUR][x] = scratch[slotAt + SLOT_NODE + x]; }
      for (var r = 0u; r < MAX_LINES; r++) { open[r] = scratch[slotAt + SLOT_NODE + STATE_WORDS + r]; }
      let scan = scratch[slotAt + SLOT_SCAN];
      scanAny = (scan & 1u) != 0u;
      scanRow = (scan >> 1u) & 31u;
      scanCol = (scan >> 6u) & 31u;
      atRoot = ((scan >> 11u) & 1u) != 0u;
      bestScore = bitcast<i32>(scratch[slotAt + SLOT_SCAN + 1u]);
      branchCell = scratch[slotAt + SLOT_SCAN + 2u];
      base = bitcast<i32>(scratch[slotAt + SLOT_SCAN + 3u]);
    } else {
      probes = 0u;
      branches = 0u;
      settles = 0u;
      generations = 0u;
      rootGenerations = 0u;
      level = LEVEL_LINE;
      nodes = 0u;
      deepest = 0u;
      depth = 0u;
      solutions = 0u;
      restarts = 0u;
      runStart = 0u;
      atRoot = true;
      start_cells(rec);
    }
    entryProbes = probes;
    return true;
  }
}

// The job's results (its slot keeps a suspended search).
fn end_job() {
  if (status == 0u) {
    status = select(select(STATUS_MULTIPLE, STATUS_SOLVED, solutions == 1u), STATUS_CONTRADICTION, solutions == 0u);
  }
  close_job(job, array<u32, 8>(status, probes, branches, settles, rootGenerations, level, nodes, deepest), SLOT_SOLUTIONS);
  if (goes_on(status)) {
    scratch[slotAt + 8u] = depth;
    scratch[slotAt + 9u] = solutions;
    scratch[slotAt + SLOT_RUN] = restarts;
    scratch[slotAt + SLOT_RUN + 1u] = runStart;
  }
}

// After a node's probing ended: true if the job ends here (status set); otherwise the next node is in `cur` (the
// newest waiting copy), or `branching` is set for the probe stage to make the branch cell's copies.
fn node_ended(outcome: u32) -> bool {
  // a branch past the stack's depth waits for a deeper one: resumed, the node's scan is over and it branches
  let deeper = outcome == NODE_BRANCH && depth == params.depthCap && params.deeper != 0u && solutions < params.maxSolutions;
  if (outcome == NODE_SUSPENDED || deeper) {
    // this dispatch's share is spent (or the stack): the node and where its probing stood wait in the slot
    status = select(STATUS_SUSPENDED, STATUS_DEEPER, deeper);
    for (var x = 0u; x < STATE_WORDS; x++) { scratch[slotAt + SLOT_NODE + x] = st[CUR][x]; }
    for (var r = 0u; r < MAX_LINES; r++) { scratch[slotAt + SLOT_NODE + STATE_WORDS + r] = open[r]; }
    scratch[slotAt + SLOT_SCAN] = select(0u, 1u, scanAny) | (scanRow << 1u) | (scanCol << 6u) | (select(0u, 1u, atRoot) << 11u);
    scratch[slotAt + SLOT_SCAN + 1u] = bitcast<u32>(bestScore);
    scratch[slotAt + SLOT_SCAN + 2u] = branchCell;
    scratch[slotAt + SLOT_SCAN + 3u] = bitcast<u32>(base);
    return true;
  }
  if (outcome == NODE_CAPPED) {
    status = STATUS_CAPPED;
    return true;
  }
  if (solutions >= params.maxSolutions) { return true; }
  if (outcome == NODE_BRANCH) {
    if (depth == params.depthCap) {
      status = STATUS_DEPTH;
      return true;
    }
    level = LEVEL_SEARCH;
    branches += 2u;
    return false;
  }
  // depth first: the newest waiting copy
  if (depth == 0u) { return true; }
  depth--;
  let at = slotAt + SLOT_STACK + depth * ENTRY_WORDS;
  for (var x = 0u; x < STATE_WORDS; x++) { st[CUR][x] = scratch[at + x]; }
  for (var y = 0u; y < MAX_LINES; y++) { open[y] = scratch[at + STATE_WORDS + y]; }
  return false;
}

// The next unknown cell of the probe set from (scanRow, scanCol) on, in index order (cells news puts in later in the
// row come in this pass; known ones leave the set), passes until the set is empty; then the node's outcome: complete,
// or the branch (the best cell probed since the last news), or, with none, every unknown cell is probed again.
// Returns NODE_NONE with the cell at (scanRow, scanCol).
fn next_cell(curKnown: u32) -> u32 {
  loop {
    loop {
      if (scanRow >= height) { break; }
      let next = open[scanRow] & ~((1u << scanCol) - 1u);
      if (next == 0u) {
        scanRow++;
        scanCol = 0u;
        continue;
      }
      scanCol = firstTrailingBit(next);
      if ((known_row(CUR, scanRow) & (1u << scanCol)) == 0u) { return NODE_NONE; }
      open[scanRow] &= ~(1u << scanCol);
      scanCol++;
    }
    // a pass over the set ended: another while it probed any cell
    scanRow = 0u;
    scanCol = 0u;
    if (scanAny) {
      scanAny = false;
      continue;
    }
    if (curKnown == width * height) {
      add_solution(CUR);
      return NODE_ENDED;
    }
    if (bestScore >= 0) { return NODE_BRANCH; }
    for (var r = 0u; r < height; r++) { open[r] = line_mask(width) & ~known_row(CUR, r); }
  }
}

// log2 of the placements left to row r and column c (count.wgsl), summed, of the filled copy (x) and the empty one
// (y): the branch's children go likelier first, as in solveCpu. One loop over the four lines, so the count is
// compiled once (SwiftShader inlines every call).
fn placements_at(r: u32, c: u32) -> vec2<u32> {
  var sum = vec2<u32>(0u);
  for (var k = 0u; k < 4u; k++) {
    let s = FILL + (k >> 1u);
    let isRow = (k & 1u) == 0u;
    let line = select(c, r, isRow);
    let n = count_placements(st[s][select(COL_F, ROW_F, isRow) + line], st[s][select(COL_E, ROW_E, isRow) + line], select(height, width, isRow), clues + clue_word(clues + select(height + c, r, isRow)));
    sum[k >> 1u] += log2_fixed(n);
  }
  return sum;
}

// The branch's filled or empty copy becomes the node, its probe set the lines it changed (from `knownBefore`, the
// parent's known cells). A loop, not `st[CUR] = st[FILL]`: that would be emitted, so paid, every turn.
fn enter_child(filled: bool) {
  for (var y = 0u; y < MAX_LINES; y++) { open[y] = 0u; }
  if (filled) { mark_lines(FILL); } else { mark_lines(EMPTY); }
  for (var x = 0u; x < STATE_WORDS; x++) { st[CUR][x] = select(st[EMPTY][x], st[FILL][x], filled); }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn nono_lanes() {
  var needJob = true;
  // line logic the node waits for: the puzzle's own (root), or news (rows and columns to settle)
  var root = false;
  var newsRows = 0u;
  var newsCols = 0u;
  var outcome = NODE_NONE;
  // the node is new: count it and start its scan (a resumed one goes on where it stood)
  var freshNode = false;
  // the probe stage makes the branch cell's copies
  var branching = false;
  var curKnown = 0u;
  loop {
    if (needJob) {
      if (!take_job()) { break; }
      needJob = false;
      let resumed = input[input[job] + 3u] != 0u;
      root = !resumed;
      newsRows = select(0u, line_mask(height), root);
      newsCols = select(0u, line_mask(width), root);
      outcome = NODE_NONE;
      freshNode = false;
      branching = false;
      if (resumed) { curKnown = known(CUR); }
    }

    // A turn runs line logic once: on the node (after news, or the puzzle's own at a root) or on a probe's two
    // copies. One call site, so lanes in either phase run the same loop in lockstep, and the settle is compiled
    // once rather than twice (SwiftShader inlines every call).
    let nodeTurn = root || (newsRows | newsCols) != 0u;
    var r = 0u;
    var cell = 0u;
    var counted = 0u;
    if (!nodeTurn) {
      // a node's end: the job's, the next waiting copy, or a branch
      if (outcome != NODE_NONE) {
        let ended = node_ended(outcome);
        branching = outcome == NODE_BRANCH && !ended;
        freshNode = !ended && !branching;
        outcome = NODE_NONE;
        if (ended) {
          end_job();
          needJob = true;
          continue;
        }
      }
      if (freshNode) {
        freshNode = false;
        nodes++;
        curKnown = known(CUR);
        bestScore = -1;
        base = i32(curKnown);
        scanRow = 0u;
        scanCol = 0u;
        scanAny = false;
      }

      // the cell to probe: the branch cell, or the scan's next
      r = branchCell >> 5u;
      cell = branchCell & 31u;
      if (!branching) {
        outcome = next_cell(curKnown);
        if (outcome == NODE_NONE && probes - entryProbes >= params.budget >> share) {
          // this dispatch's share is spent: the scan goes on at this cell in a later one
          outcome = NODE_SUSPENDED;
        }
        if (outcome == NODE_NONE && probes >= params.probeCap) { outcome = NODE_CAPPED; }
        if (outcome == NODE_NONE && run_spent()) {
          // again from the puzzle (its line logic counted again) with the other child order and twice the probes;
          // solutions found so far stay found
          restarts++;
          runStart = probes;
          atRoot = true;
          depth = 0u;
          start_cells(input[job]);
          root = true;
          newsRows = line_mask(height);
          newsCols = line_mask(width);
          continue;
        }
        if (outcome != NODE_NONE) { continue; }
        r = scanRow;
        cell = scanCol;
        scanCol = cell + 1u;
        open[r] &= ~(1u << cell);
        scanAny = true;
        probes += 2u;
      }

      // the probe: the node with the cell filled, and with it empty, each through line logic below
      counted = settles;
      probe_copies(r, cell);
    }
    let ok = line_logic(select(FILL, CUR, nodeTurn), !nodeTurn, select(1u << r, newsRows, nodeTurn), select(1u << cell, newsCols, nodeTurn));
    // after line logic on the node
    if (nodeTurn) {
      newsRows = 0u;
      newsCols = 0u;
      curKnown = known(CUR);
      if (root) {
        root = false;
        if (restarts == 0u) { rootGenerations = generations; }
        if (!ok) {
          status = STATUS_CONTRADICTION;
        } else if (curKnown == width * height) {
          add_solution(CUR);
          status = STATUS_SOLVED;
        } else {
          level = max(level, LEVEL_PROBE);
          // the root probes every cell
          for (var y = 0u; y < MAX_LINES; y++) { open[y] = select(0u, line_mask(width) & ~known_row(CUR, y), y < height); }
          freshNode = true;
        }
        if (status != 0u) {
          end_job();
          needJob = true;
          continue;
        }
      } else if (!ok) {
        outcome = NODE_FAILED;
      } else {
        // news: earlier outcomes no longer hold; the cells near it are probed (again)
        bestScore = -1;
        base = i32(curKnown);
        mark_lines(CUR);
      }
      continue;
    }

    let emptyOk = ok;
    let fillKnown = curKnown + fillGained;
    let emptyKnown = curKnown + gained;

    if (branching) {
      // the branch cell's copies count as neither probes nor settles (solveCpu keeps them from the sweep). The
      // likelier child runs first (the one whose branch cell's row and column keep more placements; on a tie the
      // one that decided fewer cells, then the filled one), the other waits with its probe set: the cells on the
      // lines its branch changed
      settles = counted;
      branching = false;
      atRoot = false;
      let places = placements_at(r, cell);
      let likelier = select(i32(places.y) - i32(places.x), 0, (restarts & 1u) == 1u);
      let emptyFirst = likelier > 0 || (likelier == 0 && gained < fillGained);
      remember_known(CUR);
      enter_child(emptyFirst);
      let at = slotAt + SLOT_STACK + depth * ENTRY_WORDS;
      for (var x = 0u; x < STATE_WORDS; x++) { scratch[at + x] = st[CUR][x]; }
      for (var y = 0u; y < MAX_LINES; y++) { scratch[at + STATE_WORDS + y] = open[y]; }
      depth++;
      deepest = max(deepest, depth);
      enter_child(!emptyFirst);
      freshNode = true;
      continue;
    }
    if (!fillOk && !emptyOk) {
      outcome = NODE_FAILED;
      continue;
    }
    if (!fillOk || !emptyOk) {
      // the surviving copy holds: everything it decided is forced, and it is line logic's fixpoint, so it becomes
      // the node as solveCpu takes it, by a loop as in enter_child (line logic on the node from the cell, which got
      // the same copy again, ran as fast)
      remember_known(CUR);
      for (var x = 0u; x < STATE_WORDS; x++) { st[CUR][x] = select(st[EMPTY][x], st[FILL][x], fillOk); }
      curKnown = select(emptyKnown, fillKnown, fillOk);
      // news: earlier outcomes no longer hold; the cells near it are probed (again)
      bestScore = -1;
      base = i32(curKnown);
      mark_lines(CUR);
      continue;
    }
    if (fillKnown == width * height) { add_solution(FILL); }
    if (emptyKnown == width * height) { add_solution(EMPTY); }
    if (solutions >= params.maxSolutions) {
      outcome = NODE_ENDED;
      continue;
    }
    // cells both copies agree on are forced; line logic spreads them next turn, before the next probe. Only rows
    // both copies touched can hold cells they agree on
    for (var both = fillTouched & touched; both != 0u; both &= both - 1u) {
      let y = firstTrailingBit(both);
      let f = st[FILL][ROW_F + y] & st[EMPTY][ROW_F + y] & ~st[CUR][ROW_F + y];
      let e = st[FILL][ROW_E + y] & st[EMPTY][ROW_E + y] & ~st[CUR][ROW_E + y];
      if ((f | e) == 0u) { continue; }
      // the node's known cells before the news, once (mark_lines compares with them)
      if (newsRows == 0u) { remember_known(CUR); }
      newsRows |= 1u << y;
      newsCols |= f | e;
      add_cells(CUR, true, y, f, e);
    }
    if (newsRows == 0u) {
      // the branch score (reference.ts BRANCH_SCORES): the weaker copy's cells, or both copies'
      let score = select(i32(min(fillKnown, emptyKnown)) - base, i32(fillKnown + emptyKnown) - 2 * base, variant == VARIANT_SUM);
      if (score > bestScore) {
        bestScore = score;
        branchCell = r * 32u + cell;
      }
      if (!atRoot && variant != VARIANT_SUM && u32(bestScore) >= params.earlyBranchScore) {
        // (bestScore >= score >= 0 here) the rest of the set goes unprobed: next_cell finds the scan over and branches
        for (var y = 0u; y < MAX_LINES; y++) { open[y] = 0u; }
        scanAny = false;
      }
    }
  }
}
