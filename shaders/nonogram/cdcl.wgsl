// Conflict-driven search for nonograms, one puzzle per invocation (src/puzzles/nonogram/cdcl-lanes.ts), for puzzles
// whose lines fit one word (up to 31 cells). CPU twin: solveCdclCpu in src/puzzles/nonogram/cdcl.ts, step for step
// (tests compare conflicts, decisions, settles and solutions exactly); the algorithm is described there.
//
// The cells are in private memory (rows' and columns' filled/empty words, as lane.wgsl keeps them); everything
// else of the search (trail, levels, reasons, activities, learned clauses with their watch chains) lives in the
// job's slot of `scratch`, so a job that has spent its share of conflicts suspends by saving its cells and a few
// counters, and goes on in the next round's dispatch.
//
// A cell's index is row * 32 + column (the twin's row * width + column sorts the same way), a literal is
// 2 * cell + 1 for "empty", 2 * cell for "filled".

struct Params {
  count: u32,
  // conflicts one puzzle may take before it is handed back as capped
  conflictCap: u32,
  // 1: stop at the first solution; 2: prove uniqueness or find a second
  maxSolutions: u32,
  // conflicts a job may take in this dispatch before it is suspended (at its next decision)
  budget: u32,
  // words per slot of scratch
  slotWords: u32,
  // words of a slot's learned-clause arena
  arenaWords: u32,
  // the run's rounds before this one (peers' clauses are read as they were at the end of the last)
  round: u32,
  // clean-ups on a schedule (cdcl.ts LbdCleanup; 0: only when the arena fills): the first after cleanupEvery
  // conflicts, the k-th cleanupGrowth * k later again; they keep clauses of LBD keepLbd or less beside the short ones
  cleanupEvery: u32,
  cleanupGrowth: u32,
  keepLbd: u32,
}

@group(0) @binding(0) var<uniform> params: Params;

// input and results as job.wgsl says; the counters: conflicts, decisions, settles, explanation checks, learned
// clauses, restarts, and the level (LEVEL_*: the weakest means that sufficed) with root probing's probes past its two
// bits.

// a slot: the header (counters from word 1 in the results' order, then the search's registers), two solutions,
// the suspended cells, per-cell arrays, then `mem`: watch heads (one per literal), the blocking clause's room and
// the arena of learned clauses ([length, link of literal 0, link of literal 1, literals...]). Links are `mem`
// addresses, as in the twin.
const S_SOLUTIONS: u32 = 32u;
const S_CELLS: u32 = 96u;
const S_LEVEL: u32 = 224u;
const S_TPOS: u32 = 1248u;
const S_REASON: u32 = 2272u;
const S_ACT: u32 = 3296u;
const S_TRAIL: u32 = 4320u;
const S_TRAIL_LIM: u32 = 5344u;
const S_LEARNT: u32 = 6369u;
const S_PHASE: u32 = 7394u;
// the target phases (cdcl.ts): the longest conflict-free trail's filled cells and its cells, as rows' bits
const S_TARGET_F: u32 = 7426u;
const S_TARGET_K: u32 = 7458u;
// the ring of learned clauses the search shares with its puzzle's other searches (SHARE_ENTRIES entries of
// [length, literals])
const S_RING: u32 = 7490u;
const S_MEM: u32 = 9794u;        // S_RING + 256 entries of SHARE_ENTRY_WORDS
// root probing's filled probe: its rows' filled and empty bits (in the learnt clause's room, unused until the search)
const S_PROBE_F: u32 = S_LEARNT;
const S_PROBE_E: u32 = S_LEARNT + 32u;
const MAX_CELLS: u32 = 1024u;
const HEADS_WORDS: u32 = 2048u;  // 2 * MAX_CELLS
const BLOCK: u32 = 2048u;
const ARENA: u32 = 3075u;        // BLOCK + MAX_CELLS + 3
// header words past the counters
const H_SOLUTIONS: u32 = 8u;
const H_TRAIL: u32 = 9u;
const H_LEVEL: u32 = 10u;
const H_INC: u32 = 11u;
const H_TOP: u32 = 12u;
const H_BLOCK: u32 = 13u;
const H_RESTARTS: u32 = 14u;
const H_UNTIL_RESTART: u32 = 15u;
const H_PROBE_AT: u32 = 16u;
const H_PROBE_CHANGED: u32 = 17u;
const H_TARGET: u32 = 18u;
// clause sharing: entries shared so far; what had been shared at the end of the last two rounds (by the round's
// parity), and those rounds; per peer (by member), the entries taken from it
const H_SHARED: u32 = 19u;
const H_PUBLISHED: u32 = 20u;
const H_PUBLISHED_ROUND: u32 = 22u;
const H_TAKEN: u32 = 24u;
// rephases so far, and the conflicts at which the next is due
const H_REPHASES: u32 = 28u;
const H_NEXT_REPHASE: u32 = 29u;
// clean-ups on the schedule so far, and the conflicts at which the next is due
const H_CLEANUPS: u32 = 30u;
const H_NEXT_CLEANUP: u32 = 31u;
// a learned clause's first word: its length, and its LBD from bit 16 (with clean-ups on a schedule; else 0)
const LENGTH_MASK: u32 = 0xffffu;
const MAX_PEERS: u32 = 4u;      // cdcl.ts CDCL_MAX_PEERS
// cdcl.ts CDCL_SHARE_LENGTH, CDCL_SHARE_RING: learned clauses up to SHARE_LENGTH literals go to the ring, at most
// SHARE_PER_ROUND a round, so the entries a peer reads (all but the newest SHARE_PER_ROUND of the ring) are never
// being overwritten. Tests make the ring smaller (at most the slot's 256 entries).
const SHARE_LENGTH: u32 = 8u;
const SHARE_ENTRY_WORDS: u32 = 9u;
override SHARE_ENTRIES: u32 = 256u;
override SHARE_PER_ROUND: u32 = 64u;
// root probes that count as one conflict of the round's budget: on SwiftShader the ~2,500 probes of a TAAI puzzle's
// root probing take about as long as 200 conflicts (TAAI #401-500 with --search cdcl: a first round of 19 s against
// ~10 s without it), though a probe settles ~5 lines and a conflict ~340
const ROOT_PROBES_PER_CONFLICT: u32 = 16u;

const KEEP_LENGTH: u32 = 12u;
const RESTART_BASE: u32 = 100u;
// cdcl.ts CDCL_REPHASE_INTERVAL (tests make it small)
override REPHASE_INTERVAL: u32 = 1000u;
// The job's variant is its search (cdcl.ts CDCL_SEARCHES): inc grows by inc >> (DECAY_SHIFT_BASE + the bits below
// VARIANT_TARGET_PHASES) per conflict (the activity decay), with VARIANT_TARGET_PHASES decisions take the target
// phases first, with VARIANT_ROOT_PROBING root probing comes first, and with VARIANT_FILLED_FIRST the saved phases
// start filled.
const DECAY_SHIFT_BASE: u32 = 4u;
const VARIANT_TARGET_PHASES: u32 = 0x20u;
const VARIANT_ROOT_PROBING: u32 = 0x40u;
const VARIANT_FILLED_FIRST: u32 = 0x80u;
const NONE: u32 = 0xffffffffu;
const DECISION: u32 = 0xffffffffu;
const FACT: u32 = 0xfffffffeu;
const LINE_REASON: u32 = 0x80000000u;
const COL_REASON: u32 = 0x40000000u;
const PROPAGATED: u32 = 0xfffffffdu;

const FILLED: u32 = 1u;
const EMPTY: u32 = 2u;

const LEVEL_LINE: u32 = 0u;
const LEVEL_PROBE: u32 = 1u;
const LEVEL_SEARCH: u32 = 2u;

const ROW_F: u32 = 0u;
const ROW_E: u32 = 32u;
const COL_F: u32 = 64u;
const COL_E: u32 = 96u;
alias State = array<u32, 128>;
var<private> cur: State;

var<private> cells: u32;
var<private> memAt: u32;

// the search's registers (saved in the slot's header while suspended)
var<private> conflicts: u32;
var<private> decisions: u32;
var<private> settles: u32;
var<private> explainChecks: u32;
var<private> learned: u32;
var<private> restarts: u32;
var<private> level: u32;
var<private> rootProbes: u32;
var<private> solutions: u32;
var<private> trailLen: u32;
var<private> dl: u32;
var<private> qhead: u32;
var<private> rowDirty: u32;
var<private> colDirty: u32;
var<private> inc: u32;
var<private> top: u32;
var<private> blockAt: u32;
var<private> restartCount: u32;
var<private> untilRestart: u32;
var<private> targetLen: u32;
var<private> rephases: u32;
var<private> nextRephase: u32;
var<private> cleanups: u32;
var<private> nextCleanup: u32;
var<private> sharedCount: u32;
var<private> sharedThisRound: u32;
// the job's peers in `input`: their count, then [slot, member] each
var<private> peersAt: u32;

var<private> seen: array<u32, 32>;
// the learned clause's decision levels (up to 1,023), as bits: its LBD
var<private> levelSeen: array<u32, 32>;
// explain's line: the trail positions of its known cells
var<private> lineTpos: array<u32, 32>;
// an explanation: false literals
var<private> expl: array<u32, 32>;
var<private> explLen: u32;
var<private> learntLen: u32;
var<private> pathC: u32;

fn clue_word(i: u32) -> u32 {
  return input[i];
}

fn mem(a: u32) -> u32 {
  return scratch[memAt + a];
}

fn set_mem(a: u32, v: u32) {
  scratch[memAt + a] = v;
}

fn value_of(c: u32) -> u32 {
  let r = c >> 5u;
  let bit = 1u << (c & 31u);
  if ((cur[ROW_F + r] & bit) != 0u) { return FILLED; }
  if ((cur[ROW_E + r] & bit) != 0u) { return EMPTY; }
  return 0u;
}

fn lit_of(c: u32) -> u32 {
  return 2u * c + select(0u, 1u, value_of(c) == EMPTY);
}

// 1 true, 2 false, 0 unassigned
fn lit_state(q: u32) -> u32 {
  let v = value_of(q >> 1u);
  if (v == 0u) { return 0u; }
  return select(2u, 1u, (v == EMPTY) == ((q & 1u) == 1u));
}

fn assign(c: u32, v: u32, why: u32) {
  let r = c >> 5u;
  let col = c & 31u;
  if (v == FILLED) {
    cur[ROW_F + r] |= 1u << col;
    cur[COL_F + col] |= 1u << r;
  } else {
    cur[ROW_E + r] |= 1u << col;
    cur[COL_E + col] |= 1u << r;
  }
  scratch[slotAt + S_LEVEL + c] = dl;
  scratch[slotAt + S_TPOS + c] = trailLen;
  scratch[slotAt + S_REASON + c] = why;
  scratch[slotAt + S_TRAIL + trailLen] = c;
  trailLen++;
  // the line whose settle decided the cell is at its fixpoint already
  let byLine = (why & LINE_REASON) != 0u && why != DECISION && why != FACT;
  let byCol = byLine && (why & COL_REASON) != 0u;
  let line = (why >> 20u) & 31u;
  if (!(byLine && !byCol && line == r)) { rowDirty |= 1u << r; }
  if (!(byLine && byCol && line == col)) { colDirty |= 1u << col; }
}

fn assign_lit(q: u32, why: u32) {
  assign(q >> 1u, select(FILLED, EMPTY, (q & 1u) == 1u), why);
}

fn cell_of(isCol: bool, l: u32, i: u32) -> u32 {
  return select(l * 32u + i, i * 32u + l, isCol);
}

fn clue_of(isCol: bool, l: u32) -> u32 {
  return clues + clue_word(clues + select(0u, height, isCol) + l);
}

// explain's automaton of the line's clue (cdcl.ts lineAutomaton): bits of states, the clue's pattern symbols
// matched; `aOne` states followed by a filled cell of a block, `aGap` those at a block's end followed by its one empty
// cell, `aStay` those an empty cell leaves alone
var<private> aOne: u32;
var<private> aGap: u32;
var<private> aStay: u32;
var<private> aAccept: u32;

fn line_automaton(clue: u32) {
  let k = clue_word(clue);
  aOne = 0u;
  aGap = 0u;
  aStay = 1u;
  var q = 0u;
  for (var b = 0u; b < k; b++) {
    let n = clue_word(clue + 1u + b);
    if (n == 0u) { continue; }
    if (q > 0u) {
      aGap |= 1u << q;
      q++;
      aStay |= 1u << q;
    }
    aOne |= ((1u << n) - 1u) << q;
    q += n;
  }
  aAccept = 1u << q;
  aStay |= aAccept;
}

// explain's kept cells of the line, the explained cell's index on it (NONE: a contradiction) and its other value;
// its layers (cdcl.ts explainLine): `paths[j]`, the states reachable from the start through cells 0..j-1 (through
// the other value at the explained cell, once past it); `ends[j]`, the states from which the accepting state is
// reachable through cells j..len-1 (through the other value at the explained cell, while before it)
var<private> xFil: u32;
var<private> xEmp: u32;
var<private> xAt: u32;
var<private> xOtherFilled: bool;
var<private> paths: array<u32, 32>;
var<private> ends: array<u32, 32>;

// one step over cell j as the kept cells (and the other value at the explained cell) allow
fn line_forward(s: u32, j: u32) -> u32 {
  let f = (s & aOne) << 1u;
  let e = (s & aStay) | ((s & aGap) << 1u);
  if (j == xAt) { return select(e, f, xOtherFilled); }
  let bit = 1u << j;
  return select(0u, f, (xEmp & bit) == 0u) | select(0u, e, (xFil & bit) == 0u);
}

fn line_backward(s: u32, j: u32) -> u32 {
  let f = (s >> 1u) & aOne;
  let e = (s & aStay) | ((s >> 1u) & aGap);
  if (j == xAt) { return select(e, f, xOtherFilled); }
  let bit = 1u << j;
  return select(0u, f, (xEmp & bit) == 0u) | select(0u, e, (xFil & bit) == 0u);
}

// The false literals of the cells of line l known before trail position `pos` that still force `goal` to `tv`
// (goal NONE: still contradict the clue), reduced latest first, each try a look at the automaton's layers (cdcl.ts
// explainLine); into `expl`.
fn explain(isCol: bool, l: u32, pos: u32, goal: u32, tv: u32) {
  let len = select(width, height, isCol);
  let fil = cur[select(ROW_F, COL_F, isCol) + l];
  let emp = cur[select(ROW_E, COL_E, isCol) + l];
  let clue = clue_of(isCol, l);
  var keep = 0u;
  var tIndex = 0u;
  for (var i = 0u; i < len; i++) {
    let c = cell_of(isCol, l, i);
    if (c == goal) {
      tIndex = i;
    } else if ((((fil | emp) >> i) & 1u) != 0u) {
      // read once here: the latest-first picks below look at each kept cell's trail position once per pick
      let t = scratch[slotAt + S_TPOS + c];
      lineTpos[i] = t;
      if (t < pos) { keep |= 1u << i; }
    }
  }
  line_automaton(clue);
  xFil = fil & keep;
  xEmp = emp & keep;
  xAt = select(tIndex, NONE, goal == NONE);
  xOtherFilled = tv == EMPTY;
  paths[0] = 1u;
  for (var j = 0u; j < len; j++) { paths[j + 1u] = line_forward(paths[j], j); }
  ends[len] = aAccept;
  for (var j = len; j > 0u; j--) { ends[j - 1u] = line_backward(ends[j], j - 1u); }
  // each known cell is tried once
  explainChecks += countOneBits(keep);
  var tried = 0u;
  loop {
    var pick = 32u;
    var latest = 0u;
    for (var m = keep & ~tried; m != 0u; m &= m - 1u) {
      let i = firstTrailingBit(m);
      let t = lineTpos[i];
      if (pick == 32u || t > latest) {
        latest = t;
        pick = i;
      }
    }
    if (pick == 32u) { break; }
    tried |= 1u << pick;
    // still forced without the cell: no state one step past paths[pick] (either value) is in ends[pick + 1]
    var s = paths[pick];
    if (((((s & aOne) << 1u) | (s & aStay) | ((s & aGap) << 1u)) & ends[pick + 1u]) != 0u) { continue; }
    keep &= ~(1u << pick);
    xFil &= keep;
    xEmp &= keep;
    // the layers past the cell and before it, as far as they change
    for (var j = pick; j < len; j++) {
      s = line_forward(s, j);
      if (s == paths[j + 1u]) { break; }
      paths[j + 1u] = s;
    }
    s = ends[pick + 1u];
    for (var j = pick + 1u; j > 0u; j--) {
      s = line_backward(s, j - 1u);
      if (s == ends[j - 1u]) { break; }
      ends[j - 1u] = s;
    }
  }
  explLen = 0u;
  for (var m = keep; m != 0u; m &= m - 1u) {
    expl[explLen] = lit_of(cell_of(isCol, l, firstTrailingBit(m))) ^ 1u;
    explLen++;
  }
}

// the line whose settle found a contradiction, and the trail's length then (explain's arguments)
var<private> failIsCol: bool;
var<private> failLine: u32;
var<private> failPos: u32;

// Settles line l; false: a contradiction (failIsCol, failLine and failPos say which line).
fn settle_line(isCol: bool, l: u32) -> bool {
  let len = select(width, height, isCol);
  let fil = cur[select(ROW_F, COL_F, isCol) + l];
  let emp = cur[select(ROW_E, COL_E, isCol) + l];
  settles++;
  let pos = trailLen;
  let st = settle1(fil, emp, len, clue_of(isCol, l));
  if (!st.ok) {
    // explained where propagate's caller takes the conflict: here it would be emitted into propagate's loop, and
    // SwiftShader runs a loop body's every block for all 4 lockstep invocations, whether or not one takes it
    failIsCol = isCol;
    failLine = l;
    failPos = pos;
    return false;
  }
  let why = LINE_REASON | select(0u, COL_REASON, isCol) | (l << 20u) | pos;
  let nf = st.fil & ~fil;
  for (var m = nf | (st.emp & ~emp); m != 0u; m &= m - 1u) {
    let i = firstTrailingBit(m);
    assign(cell_of(isCol, l, i), select(EMPTY, FILLED, ((nf >> i) & 1u) != 0u), why);
  }
  return true;
}

// PROPAGATED, or the conflict: NONE after a settle contradiction (its caller puts the explanation in `expl`),
// else the clause's address
fn propagate() -> u32 {
  loop {
    loop {
      if (qhead >= trailLen) { break; }
      let falseLit = lit_of(scratch[slotAt + S_TRAIL + qhead]) ^ 1u;
      qhead++;
      var link = falseLit;
      var cl = mem(link);
      loop {
        if (cl == NONE) { break; }
        let k = select(1u, 0u, mem(cl + 3u) == falseLit);
        let next = mem(cl + 1u + k);
        let other = mem(cl + 4u - k);
        if (lit_state(other) == 1u) {
          link = cl + 1u + k;
          cl = next;
          continue;
        }
        let len = mem(cl) & LENGTH_MASK;
        var moved = false;
        for (var j = 2u; j < len; j++) {
          let q = mem(cl + 3u + j);
          if (lit_state(q) != 2u) {
            set_mem(cl + 3u + k, q);
            set_mem(cl + 3u + j, falseLit);
            set_mem(link, next);
            set_mem(cl + 1u + k, mem(q));
            set_mem(q, cl);
            moved = true;
            break;
          }
        }
        if (!moved) {
          if (lit_state(other) == 2u) { return cl; }
          assign_lit(other, cl);
          link = cl + 1u + k;
        }
        cl = next;
      }
    }
    // the lowest dirty row, else the lowest dirty column: one settle in the code (see settle_line)
    if ((rowDirty | colDirty) == 0u) { return PROPAGATED; }
    let isCol = rowDirty == 0u;
    let l = firstTrailingBit(select(rowDirty, colDirty, isCol));
    if (isCol) { colDirty &= colDirty - 1u; } else { rowDirty &= rowDirty - 1u; }
    if (!settle_line(isCol, l)) { return NONE; }
  }
}

fn rescale() {
  for (var r = 0u; r < height; r++) {
    for (var col = 0u; col < width; col++) {
      let a = slotAt + S_ACT + r * 32u + col;
      scratch[a] = scratch[a] >> 10u;
    }
  }
  inc = max(1u, inc >> 10u);
}

fn take_lit(q: u32) {
  let v = q >> 1u;
  let bit = 1u << (v & 31u);
  if ((seen[v >> 5u] & bit) != 0u || scratch[slotAt + S_LEVEL + v] == 0u) { return; }
  seen[v >> 5u] |= bit;
  let a = slotAt + S_ACT + v;
  scratch[a] += inc;
  if (scratch[a] > 0x40000000u) { rescale(); }
  if (scratch[slotAt + S_LEVEL + v] == dl) {
    pathC++;
  } else {
    scratch[slotAt + S_LEARNT + learntLen] = q;
    learntLen++;
  }
}

fn take_explanation() {
  for (var j = 0u; j < explLen; j++) { take_lit(expl[j]); }
}

// a clause's literals but the one of cell `skip` (NONE: all)
fn take_clause(at: u32, skip: u32) {
  let len = mem(at) & LENGTH_MASK;
  for (var j = 0u; j < len; j++) {
    let q = mem(at + 3u + j);
    if ((q >> 1u) != skip) { take_lit(q); }
  }
}

// 1-UIP: the learned clause in the slot's learnt words, the asserting literal first, the backjump level's second;
// returns the backjump level. The conflict (a clause, or NONE: the line settle_line found contradicted) is the first
// reason taken: explain and take_clause each have one call site (SwiftShader inlines every call).
fn analyze(confl: u32) -> u32 {
  learntLen = 1u;
  pathC = 0u;
  var idx = trailLen - 1u;
  var pc = NONE;
  loop {
    // the reason to take: the conflict's, then each path cell's
    var why = confl;
    var goal = NONE;
    var tv = 0u;
    var isCol = failIsCol;
    var line = failLine;
    var pos = failPos;
    if (pc != NONE) {
      why = scratch[slotAt + S_REASON + pc];
      goal = pc;
      tv = value_of(pc);
      isCol = (why & COL_REASON) != 0u;
      line = (why >> 20u) & 31u;
      pos = why & 0xfffffu;
    }
    if (why == NONE || (why & LINE_REASON) != 0u) {
      explain(isCol, line, pos, goal, tv);
      take_explanation();
    } else {
      take_clause(why, goal);
    }
    loop {
      let c = scratch[slotAt + S_TRAIL + idx];
      if ((seen[c >> 5u] & (1u << (c & 31u))) != 0u) { break; }
      idx--;
    }
    pc = scratch[slotAt + S_TRAIL + idx];
    idx--;
    seen[pc >> 5u] &= ~(1u << (pc & 31u));
    pathC--;
    if (pathC == 0u) { break; }
  }
  scratch[slotAt + S_LEARNT] = lit_of(pc) ^ 1u;
  var bt = 0u;
  var at = 1u;
  for (var j = 1u; j < learntLen; j++) {
    let v = scratch[slotAt + S_LEARNT + j] >> 1u;
    seen[v >> 5u] &= ~(1u << (v & 31u));
    let lv = scratch[slotAt + S_LEVEL + v];
    if (lv > bt) {
      bt = lv;
      at = j;
    }
  }
  if (learntLen > 1u) {
    let t = scratch[slotAt + S_LEARNT + 1u];
    scratch[slotAt + S_LEARNT + 1u] = scratch[slotAt + S_LEARNT + at];
    scratch[slotAt + S_LEARNT + at] = t;
  }
  return bt;
}

// The learned clause's LBD: its literals' decision levels, counted before the backjump.
fn lbd_of_learnt() -> u32 {
  for (var x = 0u; x < 32u; x++) { levelSeen[x] = 0u; }
  var lbd = 0u;
  for (var j = 0u; j < learntLen; j++) {
    let lv = scratch[slotAt + S_LEVEL + (scratch[slotAt + S_LEARNT + j] >> 1u)];
    let bit = 1u << (lv & 31u);
    if ((levelSeen[lv >> 5u] & bit) == 0u) {
      levelSeen[lv >> 5u] |= bit;
      lbd++;
    }
  }
  return lbd;
}

fn cancel_until(lv: u32) {
  if (dl <= lv) { return; }
  let stop = scratch[slotAt + S_TRAIL_LIM + lv];
  for (var k = trailLen; k > stop; k--) {
    let c = scratch[slotAt + S_TRAIL + k - 1u];
    let r = c >> 5u;
    let col = c & 31u;
    let filled = (cur[ROW_F + r] >> col) & 1u;
    let pw = slotAt + S_PHASE + r;
    scratch[pw] = (scratch[pw] & ~(1u << col)) | (filled << col);
    cur[ROW_F + r] &= ~(1u << col);
    cur[ROW_E + r] &= ~(1u << col);
    cur[COL_F + col] &= ~(1u << r);
    cur[COL_E + col] &= ~(1u << r);
  }
  trailLen = stop;
  qhead = stop;
  dl = lv;
  rowDirty = 0u;
  colDirty = 0u;
}

// Writes a clause at `at` from `len` literals at scratch[src..] (may be the clause's own place) and links its
// first two literals; returns its address.
fn put_clause(at: u32, src: u32, len: u32) -> u32 {
  set_mem(at, len);
  for (var j = 0u; j < len; j++) { set_mem(at + 3u + j, scratch[src + j]); }
  let a = mem(at + 3u);
  let b = mem(at + 4u);
  set_mem(at + 1u, mem(a));
  set_mem(a, at);
  set_mem(at + 2u, mem(b));
  set_mem(b, at);
  return at;
}

// Backjumps to `bt` and asserts the learnt clause's first literal (a unit at level 0, else by a new clause at `at`).
fn assert_learnt(bt: u32, at: u32) {
  cancel_until(bt);
  let first = scratch[slotAt + S_LEARNT];
  if (learntLen == 1u) {
    assign_lit(first, FACT);
  } else {
    assign_lit(first, put_clause(at, slotAt + S_LEARNT, learntLen));
  }
}

// At level 0, re-links a kept clause on two literals that are not false (a true one: left out of the chains); with
// one such literal it asserts it; false: none (no solution left).
fn relink(at: u32) -> bool {
  let head = mem(at);
  let len = head & LENGTH_MASK;
  var free = 0u;
  for (var j = 0u; j < len; j++) {
    let q = mem(at + 3u + j);
    let st = lit_state(q);
    if (st == 1u) { return true; }
    if (st == 0u) {
      set_mem(at + 3u + j, mem(at + 3u + free));
      set_mem(at + 3u + free, q);
      free++;
    }
  }
  if (free == 0u) { return false; }
  if (free == 1u) {
    assign_lit(mem(at + 3u), FACT);
    return true;
  }
  put_clause(at, memAt + at + 3u, len);
  set_mem(at, head);
  return true;
}

// At level 0: keeps the short learned clauses (up to half the arena) and the blocking clause; false: no solution left.
fn clean_arena() -> bool {
  for (var q = 0u; q < 2u * MAX_CELLS; q++) { set_mem(q, NONE); }
  if (blockAt != NONE && !relink(blockAt)) { return false; }
  var write = ARENA;
  var at = ARENA;
  loop {
    if (at >= top) { break; }
    let head = mem(at);
    let len = head & LENGTH_MASK;
    let next = at + 3u + len;
    // short clauses (or of low LBD), while they fill at most half the arena (so a clean-up always frees room)
    let keep = len <= KEEP_LENGTH || (params.cleanupEvery != 0u && (head >> 16u) <= params.keepLbd);
    if (keep && write + 3u + len <= ARENA + (params.arenaWords >> 1u)) {
      if (write != at) {
        for (var j = 0u; j < 3u + len; j++) { set_mem(write + j, mem(at + j)); }
      }
      if (!relink(write)) { return false; }
      write += 3u + len;
    }
    at = next;
  }
  top = write;
  return true;
}

// the i-th (1-based) term of 1 1 2 1 1 2 4 ...
fn luby(i: u32) -> u32 {
  var size = 1u;
  var sq = 0u;
  loop {
    if (size >= i + 1u) { break; }
    sq++;
    size = 2u * size + 1u;
  }
  var x = i - 1u;
  loop {
    if (size - 1u == x) { break; }
    size = (size - 1u) >> 1u;
    sq--;
    x = x % size;
  }
  return 1u << sq;
}

fn add_solution() {
  let at = slotAt + S_SOLUTIONS + solutions * 32u;
  for (var r = 0u; r < height; r++) { scratch[at + r] = cur[ROW_F + r]; }
  solutions++;
}

fn done_status() -> u32 {
  return select(select(STATUS_MULTIPLE, STATUS_SOLVED, solutions == 1u), STATUS_CONTRADICTION, solutions == 0u);
}

// Root probing (the twin's probeRoot) as steps of one loop, so that its one assign-and-propagate is emitted once
// (SwiftShader runs a loop body's every block for all lockstep invocations: five inlined propagates in the body made
// it ~40x slower), and so that it can suspend between cells like the search. Its registers: the cell it is at (the
// twin's index, row * width + column), whether its sweep changed anything, and, between the two probes of a cell,
// the filled probe's rows in the slot (S_PROBE_F/E, then what both probes decided alike).
const PROBE_FILLED: u32 = 0u;   // probe cell probeAt filled
const PROBE_EMPTY: u32 = 1u;    // then empty
const PROBE_FAILED: u32 = 2u;   // one value failed: the other is a fact
const PROBE_AGREED: u32 = 3u;   // the facts both values decided alike, in cell order from agreedAt
const PROBE_LINE: u32 = 4u;     // first, line logic on the puzzle (a job's probeAt is ROOT_LINE until it has run)
const ROOT_LINE: u32 = 0xfffffffeu;
var<private> probeAt: u32;
var<private> probeChanged: u32;

// The agreed fact at or after cell index `start` that is still unknown (NONE: none), a row's word at a time.
fn next_agreed(start: u32) -> u32 {
  var r = start / width;
  var later = ~0u << (start - r * width);
  for (; r < height; r++) {
    let m = (scratch[slotAt + S_PROBE_F + r] | scratch[slotAt + S_PROBE_E + r]) & ~(cur[ROW_F + r] | cur[ROW_E + r]) & later;
    if (m != 0u) { return r * width + firstTrailingBit(m); }
    later = ~0u;
  }
  return NONE;
}

// Root probing from probeAt until its fixpoint (0), a contradiction (STATUS_CONTRADICTION), or `limit` probes in all
// (STATUS_SUSPENDED: at level 0, between cells, nothing to propagate).
fn probe_root(limit: u32) -> u32 {
  var step = select(PROBE_FILLED, PROBE_LINE, probeAt == ROOT_LINE);
  var agreedAt = 0u;
  var failedValue = 0u;
  loop {
    // the next cell and value, as a probe at level 1 or a fact at level 0
    var k = probeAt;
    var v = FILLED;
    if (step == PROBE_FILLED) {
      // the next unknown cell; a sweep that changed nothing ends root probing
      loop {
        if (k == cells) {
          if (probeChanged == 0u) { return 0u; }
          k = 0u;
          probeChanged = 0u;
        }
        let r = k / width;
        if ((((cur[ROW_F + r] | cur[ROW_E + r]) >> (k - r * width)) & 1u) == 0u) { break; }
        k++;
      }
      probeAt = k;
      if (rootProbes >= limit) { return STATUS_SUSPENDED; }
    } else if (step == PROBE_EMPTY) {
      v = EMPTY;
    } else if (step == PROBE_FAILED) {
      v = failedValue;
    } else if (step != PROBE_LINE) {
      k = next_agreed(agreedAt);
      if (k == NONE) {
        step = PROBE_FILLED;
        probeAt++;
        continue;
      }
      agreedAt = k + 1u;
      let r = k / width;
      v = select(EMPTY, FILLED, ((scratch[slotAt + S_PROBE_F + r] >> (k - r * width)) & 1u) != 0u);
    }
    let isProbe = step <= PROBE_EMPTY;
    if (isProbe) {
      rootProbes++;
      scratch[slotAt + S_TRAIL_LIM] = trailLen;
      dl = 1u;
    } else if (step != PROBE_LINE) {
      level = LEVEL_PROBE;
      probeChanged = 1u;
    }
    if (step != PROBE_LINE) {
      let r = k / width;
      assign(r * 32u + (k - r * width), v, select(FACT, DECISION, isProbe));
    }
    let holds = propagate() == PROPAGATED;
    if (step == PROBE_LINE) {
      if (!holds) { return STATUS_CONTRADICTION; }
      probeAt = 0u;
      probeChanged = 0u;
      step = PROBE_FILLED;
      continue;
    }
    if (!isProbe && !holds) { return STATUS_CONTRADICTION; }
    if (step == PROBE_FILLED && holds) {
      for (var x = 0u; x < height; x++) {
        scratch[slotAt + S_PROBE_F + x] = cur[ROW_F + x];
        scratch[slotAt + S_PROBE_E + x] = cur[ROW_E + x];
      }
    }
    if (step == PROBE_EMPTY && holds) {
      // what both values decide alike (level 0's cells too: next_agreed skips known cells)
      for (var x = 0u; x < height; x++) {
        scratch[slotAt + S_PROBE_F + x] &= cur[ROW_F + x];
        scratch[slotAt + S_PROBE_E + x] &= cur[ROW_E + x];
      }
    }
    if (isProbe) { cancel_until(0u); }
    if (step == PROBE_FILLED) {
      step = select(PROBE_FAILED, PROBE_EMPTY, holds);
      failedValue = EMPTY;
    } else if (step == PROBE_EMPTY) {
      step = select(PROBE_FAILED, PROBE_AGREED, holds);
      failedValue = FILLED;
      agreedAt = 0u;
    } else if (step == PROBE_FAILED) {
      step = PROBE_FILLED;
      probeAt++;
    }
  }
}

// The saved phases as the job's variant starts them.
fn reset_phases() {
  let phase = select(0u, 0xffffffffu, (variant & VARIANT_FILLED_FIRST) != 0u);
  for (var r = 0u; r < 32u; r++) { scratch[slotAt + S_PHASE + r] = phase; }
}

// At level 0 (cdcl.ts CDCL_REPHASE_INTERVAL): the saved phases by turns (the target's values, the variant's first
// phases, the target's again, the first ones' inverse), and the target forgotten.
fn rephase() {
  rephases++;
  nextRephase = conflicts + REPHASE_INTERVAL * (rephases + 1u);
  let turn = (rephases - 1u) & 3u;
  if (turn == 1u || turn == 3u) {
    let filledFirst = (variant & VARIANT_FILLED_FIRST) != 0u;
    let phase = select(0u, 0xffffffffu, filledFirst == (turn == 1u));
    for (var r = 0u; r < 32u; r++) { scratch[slotAt + S_PHASE + r] = phase; }
  } else {
    for (var r = 0u; r < height; r++) {
      let k = scratch[slotAt + S_TARGET_K + r];
      scratch[slotAt + S_PHASE + r] = (scratch[slotAt + S_PHASE + r] & ~k) | (scratch[slotAt + S_TARGET_F + r] & k);
    }
  }
  targetLen = 0u;
  for (var r = 0u; r < 32u; r++) { scratch[slotAt + S_TARGET_K + r] = 0u; }
}

// At level 0 (a restart): the peers' clauses not taken yet, as they were at the end of the last round, each skipped
// when true, asserted when one literal is left, else kept (its literals that are not false) in the arena while it
// has room; entries a peer may be overwriting this round are skipped. False: a clause with every literal false.
fn take_shared() -> bool {
  let peers = input[peersAt];
  let last = (params.round + 1u) & 1u;
  for (var x = 0u; x < peers; x++) {
    let peerAt = input[peersAt + 1u + 2u * x] * params.slotWords;
    let member = input[peersAt + 2u + 2u * x];
    if (member >= MAX_PEERS || params.round == 0u || scratch[peerAt + H_PUBLISHED_ROUND + last] != params.round - 1u) { continue; }
    let visible = scratch[peerAt + H_PUBLISHED + last];
    var k = scratch[slotAt + H_TAKEN + member];
    if (visible > SHARE_ENTRIES - SHARE_PER_ROUND) { k = max(k, visible - (SHARE_ENTRIES - SHARE_PER_ROUND)); }
    for (; k < visible; k++) {
      let e = peerAt + S_RING + (k % SHARE_ENTRIES) * SHARE_ENTRY_WORDS;
      let len = scratch[e];
      var free = 0u;
      var holds = false;
      var unit = 0u;
      for (var j = 0u; j < len; j++) {
        let q = scratch[e + 1u + j];
        let st = lit_state(q);
        if (st == 1u) { holds = true; }
        if (st == 0u) {
          free++;
          unit = q;
        }
      }
      if (holds) { continue; }
      if (free == 0u) { return false; }
      if (free == 1u) {
        assign_lit(unit, FACT);
      } else if (top + 3u + free <= ARENA + params.arenaWords - 2u * (cells + 3u)) {
        var w = 0u;
        for (var j = 0u; j < len; j++) {
          let q = scratch[e + 1u + j];
          if (lit_state(q) == 0u) {
            set_mem(top + 3u + w, q);
            w++;
          }
        }
        put_clause(top, memAt + top + 3u, free);
        top += 3u + free;
      }
    }
    scratch[slotAt + H_TAKEN + member] = k;
  }
  return true;
}

// The search until it ends, is capped or has spent its budget (STATUS_SUSPENDED: at a decision, nothing dirty).
fn search(entryConflicts: u32) -> u32 {
  loop {
    let confl = propagate();
    if (confl != PROPAGATED) {
      conflicts++;
      if (dl == 0u) { return done_status(); }
      // the levels below the conflict's hold together: a longer such trail than any before is the new target
      if ((variant & VARIANT_TARGET_PHASES) != 0u && scratch[slotAt + S_TRAIL_LIM + dl - 1u] > targetLen) {
        targetLen = scratch[slotAt + S_TRAIL_LIM + dl - 1u];
        for (var r = 0u; r < height; r++) {
          scratch[slotAt + S_TARGET_F + r] = 0u;
          scratch[slotAt + S_TARGET_K + r] = 0u;
        }
        for (var k = 0u; k < targetLen; k++) {
          let c = scratch[slotAt + S_TRAIL + k];
          let bit = 1u << (c & 31u);
          scratch[slotAt + S_TARGET_K + (c >> 5u)] |= bit;
          if (value_of(c) == FILLED) { scratch[slotAt + S_TARGET_F + (c >> 5u)] |= bit; }
        }
      }
      let bt = analyze(confl);
      // a short clause for the peers (none once a solution is blocked: later clauses rest on that)
      if (learntLen <= SHARE_LENGTH && solutions == 0u && sharedThisRound < SHARE_PER_ROUND) {
        let e = slotAt + S_RING + (sharedCount % SHARE_ENTRIES) * SHARE_ENTRY_WORDS;
        scratch[e] = learntLen;
        for (var j = 0u; j < learntLen; j++) { scratch[e + 1u + j] = scratch[slotAt + S_LEARNT + j]; }
        sharedCount++;
        sharedThisRound++;
      }
      let at = top;
      if (learntLen > 1u) {
        top += 3u + learntLen;
        learned++;
      }
      var lbd = 0u;
      if (params.cleanupEvery != 0u && learntLen > 1u) { lbd = lbd_of_learnt(); }
      assert_learnt(bt, at);
      // (at most 961 levels: it fits above the length)
      if (lbd != 0u) { set_mem(at, mem(at) | (lbd << 16u)); }
      inc += inc >> (DECAY_SHIFT_BASE + (variant & (VARIANT_TARGET_PHASES - 1u)));
      if (inc > 0x100000u) { rescale(); }
      if (conflicts >= params.conflictCap) { return STATUS_CAPPED; }
      untilRestart--;
      // room for one more clause of every cell is kept; a restart that found the arena without it cleans up
      let full = top > ARENA + params.arenaWords - 2u * (cells + 3u);
      if (untilRestart == 0u || full) {
        restartCount++;
        restarts++;
        untilRestart = RESTART_BASE * luby(restartCount + 1u);
        cancel_until(0u);
        if ((variant & VARIANT_TARGET_PHASES) != 0u && conflicts >= nextRephase) { rephase(); }
        if (!take_shared()) { return done_status(); }
        let due = params.cleanupEvery != 0u && conflicts >= nextCleanup;
        if (due) {
          cleanups++;
          nextCleanup = conflicts + params.cleanupEvery + params.cleanupGrowth * cleanups;
        }
        if ((full || due || top - ARENA > (3u * params.arenaWords) / 4u) && !clean_arena()) { return done_status(); }
      }
      continue;
    }
    if (trailLen == cells) {
      add_solution();
      if (solutions >= params.maxSolutions) { return select(STATUS_MULTIPLE, STATUS_SOLVED, params.maxSolutions == 1u); }
      if (dl == 0u) { return STATUS_SOLVED; }
      // not all of this solution's decisions again: the latest first, so it asserts after a backjump of one level
      learntLen = 0u;
      for (var lv = dl; lv >= 1u; lv--) {
        scratch[slotAt + S_LEARNT + learntLen] = lit_of(scratch[slotAt + S_TRAIL + scratch[slotAt + S_TRAIL_LIM + lv - 1u]]) ^ 1u;
        learntLen++;
      }
      if (learntLen > 1u) { blockAt = BLOCK; }
      assert_learnt(dl - 1u, BLOCK);
      continue;
    }
    if (conflicts - entryConflicts >= max(1u, params.budget >> share)) { return STATUS_SUSPENDED; }
    // decide: the unassigned cell of highest activity (the lowest index on a tie), its target phase, else its saved one
    var best = NONE;
    var bestA = 0u;
    let rowCells = (1u << width) - 1u;
    for (var r = 0u; r < height; r++) {
      // the row's unknown cells only, lowest first
      for (var m = rowCells & ~(cur[ROW_F + r] | cur[ROW_E + r]); m != 0u; m &= m - 1u) {
        let c = r * 32u + firstTrailingBit(m);
        let a = scratch[slotAt + S_ACT + c];
        if (best == NONE || a > bestA) {
          best = c;
          bestA = a;
        }
      }
    }
    decisions++;
    level = LEVEL_SEARCH;
    scratch[slotAt + S_TRAIL_LIM + dl] = trailLen;
    dl++;
    let onTarget = ((scratch[slotAt + S_TARGET_K + (best >> 5u)] >> (best & 31u)) & 1u) != 0u;
    let filled = (scratch[slotAt + select(S_PHASE, S_TARGET_F, onTarget) + (best >> 5u)] >> (best & 31u)) & 1u;
    assign(best, select(EMPTY, FILLED, filled == 1u), DECISION);
  }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn nono_cdcl() {
  loop {
    let job = next_job();
    if (job >= params.count) { break; }
    let rec = open_job(job);
    if (job_gone(job, rec)) { continue; }
    cells = width * height;
    memAt = slotAt + S_MEM;
    peersAt = rec + 4u + 2u * height;
    sharedThisRound = 0u;
    for (var x = 0u; x < 32u; x++) { seen[x] = 0u; }
    var status = 0u;
    if (input[rec + 3u] != 0u) {
      // a suspended search goes on from its slot (it stopped at a decision: nothing to propagate)
      conflicts = scratch[slotAt + 1u];
      decisions = scratch[slotAt + 2u];
      settles = scratch[slotAt + 3u];
      explainChecks = scratch[slotAt + 4u];
      learned = scratch[slotAt + 5u];
      restarts = scratch[slotAt + 6u];
      level = scratch[slotAt + 7u] & 3u;
      rootProbes = scratch[slotAt + 7u] >> 2u;
      solutions = scratch[slotAt + H_SOLUTIONS];
      trailLen = scratch[slotAt + H_TRAIL];
      dl = scratch[slotAt + H_LEVEL];
      inc = scratch[slotAt + H_INC];
      top = scratch[slotAt + H_TOP];
      blockAt = scratch[slotAt + H_BLOCK];
      restartCount = scratch[slotAt + H_RESTARTS];
      untilRestart = scratch[slotAt + H_UNTIL_RESTART];
      probeAt = scratch[slotAt + H_PROBE_AT];
      probeChanged = scratch[slotAt + H_PROBE_CHANGED];
      targetLen = scratch[slotAt + H_TARGET];
      rephases = scratch[slotAt + H_REPHASES];
      nextRephase = scratch[slotAt + H_NEXT_REPHASE];
      cleanups = scratch[slotAt + H_CLEANUPS];
      nextCleanup = scratch[slotAt + H_NEXT_CLEANUP];
      sharedCount = scratch[slotAt + H_SHARED];
      qhead = trailLen;
      rowDirty = 0u;
      colDirty = 0u;
      for (var x = 0u; x < 128u; x++) { cur[x] = scratch[slotAt + S_CELLS + x]; }
    } else {
      conflicts = 0u;
      decisions = 0u;
      settles = 0u;
      explainChecks = 0u;
      learned = 0u;
      restarts = 0u;
      level = LEVEL_LINE;
      rootProbes = 0u;
      solutions = 0u;
      trailLen = 0u;
      dl = 0u;
      qhead = 0u;
      inc = 256u;
      top = ARENA;
      blockAt = NONE;
      restartCount = 0u;
      untilRestart = RESTART_BASE * luby(1u);
      targetLen = 0u;
      rephases = 0u;
      nextRephase = REPHASE_INTERVAL;
      cleanups = 0u;
      nextCleanup = params.cleanupEvery;
      sharedCount = 0u;
      for (var x = 0u; x < 2u; x++) { scratch[slotAt + H_PUBLISHED_ROUND + x] = NONE; }
      for (var x = 0u; x < MAX_PEERS; x++) { scratch[slotAt + H_TAKEN + x] = 0u; }
      for (var r = 0u; r < 32u; r++) { scratch[slotAt + S_TARGET_K + r] = 0u; }
      for (var x = 0u; x < 128u; x++) { cur[x] = 0u; }
      for (var q = 0u; q < HEADS_WORDS; q++) { set_mem(q, NONE); }
      for (var r = 0u; r < height; r++) {
        for (var col = 0u; col < width; col++) { scratch[slotAt + S_ACT + r * 32u + col] = 0u; }
      }
      // the givens, then line logic on every line
      for (var r = 0u; r < height; r++) {
        let f = input[rec + 4u + r];
        let e = input[rec + 4u + height + r];
        for (var col = 0u; col < width; col++) {
          if (((f >> col) & 1u) != 0u) { assign(r * 32u + col, FILLED, FACT); }
          else if (((e >> col) & 1u) != 0u) { assign(r * 32u + col, EMPTY, FACT); }
        }
      }
      rowDirty = (1u << height) - 1u;
      colDirty = (1u << width) - 1u;
      // root probing starts from line logic's fixpoint (its first step: one propagate in the code, see probe_root)
      probeAt = select(NONE, ROOT_LINE, (variant & VARIANT_ROOT_PROBING) != 0u);
      reset_phases();
    }
    // the round's budget in conflicts, root probing's probes counted in it
    var spent = 0u;
    if (status == 0u && probeAt != NONE) {
      let entryProbes = rootProbes;
      status = probe_root(entryProbes + max(1u, params.budget >> share) * ROOT_PROBES_PER_CONFLICT);
      spent = (rootProbes - entryProbes) / ROOT_PROBES_PER_CONFLICT;
      if (status == 0u) {
        probeAt = NONE;
        // the search's phases start as its variant says (root probing's cancels wrote them)
        reset_phases();
      }
    }
    // (u32 arithmetic wraps: the search sees `spent` conflicts gone already)
    if (status == 0u) { status = search(conflicts - spent); }
    close_job(job, array<u32, 8>(status, conflicts, decisions, settles, explainChecks, learned, restarts, level | (rootProbes << 2u)), S_SOLUTIONS);
    // what the peers may take next round (an ended search's clauses too: they hold for the puzzle)
    scratch[slotAt + H_PUBLISHED + (params.round & 1u)] = sharedCount;
    scratch[slotAt + H_PUBLISHED_ROUND + (params.round & 1u)] = params.round;
    if (status == STATUS_SUSPENDED) {
      scratch[slotAt + H_SOLUTIONS] = solutions;
      scratch[slotAt + H_TRAIL] = trailLen;
      scratch[slotAt + H_LEVEL] = dl;
      scratch[slotAt + H_INC] = inc;
      scratch[slotAt + H_TOP] = top;
      scratch[slotAt + H_BLOCK] = blockAt;
      scratch[slotAt + H_RESTARTS] = restartCount;
      scratch[slotAt + H_UNTIL_RESTART] = untilRestart;
      scratch[slotAt + H_PROBE_AT] = probeAt;
      scratch[slotAt + H_PROBE_CHANGED] = probeChanged;
      scratch[slotAt + H_TARGET] = targetLen;
      scratch[slotAt + H_REPHASES] = rephases;
      scratch[slotAt + H_NEXT_REPHASE] = nextRephase;
      scratch[slotAt + H_CLEANUPS] = cleanups;
      scratch[slotAt + H_NEXT_CLEANUP] = nextCleanup;
      scratch[slotAt + H_SHARED] = sharedCount;
      for (var x = 0u; x < 128u; x++) { scratch[slotAt + S_CELLS + x] = cur[x]; }
    }
  }
}
