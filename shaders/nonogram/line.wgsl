// The nonogram line automaton (issue 6; thesis 3.2.2 gives every row and column its own 1-D automaton). A
// generation is a rows pass then a columns pass: in each pass every line whose cells changed since it was last
// settled settles again (settle.wgsl). A row writes only its own cells, which only columns read next, and the
// reverse; so a pass is the same whatever order its lines run in, all at once or one after another, and the CPU
// twin (LineSolver in src/puzzles/nonogram/reference.ts) reproduces it generation by generation.
//
// A grid of the engine is a block of `copies` copies of puzzles of one size (puzzles, their probing and branching
// copies): copy i's words start at stateOffset + i * words. A copy's layout (mirrored by pack.ts):
//   [0] status: bit 0 = contradiction      [1] generations that changed the copy
//   [2] the last dispatch counted in [1] (one-generation mode: the first line to change the copy counts it)
//   [3] where its puzzle's clue table starts in the aux of grid slot param2 (the batch's clue grid)
//   rowF[h * wr], rowE[h * wr]   filled / empty bits of each row (bit x of word x/32), wr = ceil(w / 32)
//   colF[w * wc], colE[w * wc]   the same cells by column, wc = ceil(h / 32)
//   rowDirty[wc], colDirty[wr]   lines changed since they last settled
// Both orientations are kept so that each line reads its own words; new bits are scattered to the crossing lines.
//
// Two ways to run it, the same generations either way (tests compare them):
//   nono_rows + nono_cols (one generation per dispatch pair): one invocation per line, all lines of all copies
//     in parallel; new bits reach the crossing lines by atomicOr.
//   nono_copies (multi-generation): one invocation works through param1 copies, running the passes line after
//     line, up to GENERATIONS generations or each copy's fixpoint, in place. No barriers: SwiftShader runs those
//     as coroutine switches.
// grid.param0 = copies, param1 = copies per invocation (multi-generation), param2 = the clue grid's slot.

override GENERATIONS: u32 = 64u;

const STATUS_CONTRADICTION: u32 = 1u;
// rule flag: some copy of the grid reached a contradiction (its lines stop; the grid goes on)
const FLAG_COPY_CONTRADICTION: u32 = 256u;

struct Layout {
  wr: u32,
  wc: u32,
  rowF: u32,
  rowE: u32,
  colF: u32,
  colE: u32,
  rowDirty: u32,
  colDirty: u32,
  words: u32,
}

fn layout_of(w: u32, h: u32) -> Layout {
  var l: Layout;
  l.wr = (w + 31u) / 32u;
  l.wc = (h + 31u) / 32u;
  l.rowF = 4u;
  l.rowE = l.rowF + h * l.wr;
  l.colF = l.rowE + h * l.wr;
  l.colE = l.colF + w * l.wc;
  l.rowDirty = l.colE + w * l.wc;
  l.colDirty = l.rowDirty + l.wc;
  l.words = l.colDirty + l.wr;
  return l;
}

// One orientation's view of a copy: its own words, the crossing lines' words.
struct Orient {
  ownF: u32,
  ownE: u32,
  ownWords: u32,    // words per own line
  otherF: u32,
  otherE: u32,
  otherWords: u32,  // words per crossing line
  ownDirty: u32,
  otherDirty: u32,
  len: u32,
  count: u32,       // lines of this orientation
  clueLine: u32,    // index of the first line of this orientation in the clue table (rows 0, columns h)
}

fn orient(l: Layout, g: Grid, rows: bool) -> Orient {
  if (rows) {
    return Orient(l.rowF, l.rowE, l.wr, l.colF, l.colE, l.wc, l.rowDirty, l.colDirty, g.width, g.height, 0u);
  }
  return Orient(l.colF, l.colE, l.wc, l.rowF, l.rowE, l.wr, l.colDirty, l.rowDirty, g.height, g.width, g.height);
}

// the clue table of the copy at state[c..]: word i (rows, then columns) = offset of line i's list from it
fn clue_base(g: Grid, c: u32) -> u32 {
  return grids[g.param2].auxOffset + atomicLoad(&state[c + 3u]);
}

// settle.wgsl reads clue lists through this
fn clue_word(i: u32) -> u32 {
  return aux[i];
}

// Sets bits in a state word. `concurrent`: other invocations may write the same word in this pass (one invocation
// per line), so it takes an atomicOr; otherwise this invocation owns the copy and a load and a store do.
fn or_word(i: u32, bits: u32, concurrent: bool) {
  if (concurrent) {
    atomicOr(&state[i], bits);
  } else {
    atomicStore(&state[i], atomicLoad(&state[i]) | bits);
  }
}

fn and_word(i: u32, bits: u32, concurrent: bool) {
  if (concurrent) {
    atomicAnd(&state[i], bits);
  } else {
    atomicStore(&state[i], atomicLoad(&state[i]) & bits);
  }
}

// Settles line `line` of the copy at state[c..] if it is dirty: returns FLAG_CHANGED, FLAG_COPY_CONTRADICTION
// or 0, and FLAG_PENDING when unknown cells remain on it.
fn settle_line(c: u32, o: Orient, line: u32, auxBase: u32, concurrent: bool) -> u32 {
  if ((atomicLoad(&state[c]) & STATUS_CONTRADICTION) != 0u) { return 0u; }
  if (LINE_WORDS == 1u) { return settle_line1(c, o, line, auxBase, concurrent); }
  var fil: Bits;
  var emp: Bits;
  let at = c + line * o.ownWords;
  for (var w = 0u; w < o.ownWords; w++) {
    fil[w] = atomicLoad(&state[at + o.ownF + w]);
    emp[w] = atomicLoad(&state[at + o.ownE + w]);
  }
  let cells = b_low(o.len);
  let dirtyAt = c + o.ownDirty + (line >> 5u);
  let bit = 1u << (line & 31u);
  if ((atomicLoad(&state[dirtyAt]) & bit) == 0u) {
    return select(0u, FLAG_PENDING, b_any(b_andnot(cells, b_or(fil, emp))));
  }
  and_word(dirtyAt, ~bit, concurrent);
  let s = settle(fil, emp, o.len, auxBase + aux[auxBase + o.clueLine + line]);
  if (!s.ok) {
    or_word(c, STATUS_CONTRADICTION, concurrent);
    return FLAG_COPY_CONTRADICTION;
  }
  var flags = select(0u, FLAG_PENDING, b_any(b_andnot(cells, b_or(s.fil, s.emp))));
  for (var w = 0u; w < o.ownWords; w++) {
    flags |= write_news(c, o, line, at + w, w, s.fil[w] & ~fil[w], s.emp[w] & ~emp[w], concurrent);
  }
  return flags;
}

// The same for one-word lines, on plain u32 (see settle1).
fn settle_line1(c: u32, o: Orient, line: u32, auxBase: u32, concurrent: bool) -> u32 {
  let at = c + line * o.ownWords;
  let fil = atomicLoad(&state[at + o.ownF]);
  let emp = atomicLoad(&state[at + o.ownE]);
  let cells = (1u << o.len) - 1u;
  let dirtyAt = c + o.ownDirty;
  let bit = 1u << line;
  if ((atomicLoad(&state[dirtyAt]) & bit) == 0u) {
    return select(0u, FLAG_PENDING, (fil | emp) != cells);
  }
  and_word(dirtyAt, ~bit, concurrent);
  let s = settle1(fil, emp, o.len, auxBase + aux[auxBase + o.clueLine + line]);
  if (!s.ok) {
    or_word(c, STATUS_CONTRADICTION, concurrent);
    return FLAG_COPY_CONTRADICTION;
  }
  let flags = select(0u, FLAG_PENDING, (s.fil | s.emp) != cells);
  return flags | write_news(c, o, line, at, 0u, s.fil & ~fil, s.emp & ~emp, concurrent);
}

// Writes the new filled (nf) and empty (ne) bits of word w of a line (at its index `at` in the row or column
// planes), and scatters each to its crossing line, marking that line dirty.
fn write_news(c: u32, o: Orient, line: u32, at: u32, w: u32, nf: u32, ne: u32, concurrent: bool) -> u32 {
  var m = nf | ne;
  if (m == 0u) { return 0u; }
  or_word(at + o.ownF, nf, false);  // a line's own words are only ever written by itself
  or_word(at + o.ownE, ne, false);
  // crossing line p = 32w + b gets this line's bit; its dirty bit sits at the same word and bit as the cell
  or_word(c + o.otherDirty + w, m, concurrent);
  let crossWord = line >> 5u;
  let bit = 1u << (line & 31u);
  loop {
    if (m == 0u) { break; }
    let b = firstTrailingBit(m);
    m &= m - 1u;
    let plane = select(o.otherE, o.otherF, ((nf >> b) & 1u) != 0u);
    or_word(c + plane + (w * 32u + b) * o.otherWords + crossWord, bit, concurrent);
  }
  return FLAG_CHANGED;
}

fn row_pending(c: u32, l: Layout, row: u32, width: u32) -> bool {
  if ((atomicLoad(&state[c]) & STATUS_CONTRADICTION) != 0u) { return false; }
  if (LINE_WORDS == 1u) {
    let known = atomicLoad(&state[c + l.rowF + row]) | atomicLoad(&state[c + l.rowE + row]);
    return known != (1u << width) - 1u;
  }
  var known: Bits;
  for (var w = 0u; w < l.wr; w++) {
    known[w] = atomicLoad(&state[c + l.rowF + row * l.wr + w]) | atomicLoad(&state[c + l.rowE + row * l.wr + w]);
  }
  return b_any(b_andnot(b_low(width), known));
}

// One pass of one generation, one invocation per line: item = copy * lines + line, lines = max(w, h).
fn line_pass(workgroupId: vec3u, localIndex: u32, rows: bool) {
  let w = work_item(workgroupId, localIndex);
  if (!w.valid) { return; }
  let g = w.grid;
  let item = w.item;
  let lines = max(g.width, g.height);
  let copy = item / lines;
  let line = item % lines;
  let l = layout_of(g.width, g.height);
  let o = orient(l, g, rows);
  if (line >= o.count) { return; }
  let c = g.stateOffset + copy * l.words;
  let flags = settle_line(c, o, line, clue_base(g, c), true);
  if ((flags & FLAG_CHANGED) != 0u) {
    // count this generation once for the copy, whichever of its lines changed first (both passes of a
    // generation share the dispatch number)
    let d = batch.dispatchBase + step.generation;
    if (atomicMax(&state[c + 2u], d) < d) {
      atomicAdd(&state[c + 1u], 1u);
    }
  }
  report_flags(w.tileIndex, localIndex, flags);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn nono_rows(@builtin(workgroup_id) workgroupId: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  line_pass(workgroupId, localIndex, true);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn nono_cols(@builtin(workgroup_id) workgroupId: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  line_pass(workgroupId, localIndex, false);
}

// Each invocation works through its share of the copies (copy i, i + lanes, ...), up to GENERATIONS generations
// each, stopping at a copy's fixpoint: the state after it is the state after as many single generations (a
// generation that changes nothing changes nothing after it either). The loop is flattened, one line settled per
// turn whatever copy, pass or generation an invocation is at, so that invocations running side by side in SIMD
// lanes keep settling together instead of waiting for the one whose copy propagates longest.
// FLAG_CHANGED here means "some copy is not at its fixpoint yet": copies that settled within the dispatch do not
// raise it, so the engine retires the grid after this dispatch instead of one more that would find nothing to do.
@compute @workgroup_size(WORKGROUP_SIZE)
fn nono_copies(@builtin(workgroup_id) workgroupId: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  let w = work_item(workgroupId, localIndex);
  if (!w.valid) { return; }
  let g = w.grid;
  let lanes = g.items;
  let lane = w.item;
  let l = layout_of(g.width, g.height);
  let rowWords = l.wc;  // dirty words of each orientation
  let colWords = l.wr;
  var flags = 0u;
  var copy = lane;
  var c = g.stateOffset + copy * l.words;
  var clues = clue_base(g, c);
  var phase = 0u;        // 0 rows, 1 columns
  var word = 0u;         // dirty word of the pass
  var mask = atomicLoad(&state[c + l.rowDirty]);
  var changed = 0u;      // this generation of this copy
  var generations = 0u;  // of this copy in this dispatch
  loop {
    if (copy >= g.param0) { break; }
    if (mask != 0u) {
      let o = orient(l, g, phase == 0u);
      let line = word * 32u + firstTrailingBit(mask);
      mask &= mask - 1u;
      changed |= settle_line(c, o, line, clues, false);
      continue;
    }
    // this dirty word is done: the next one, the next pass, the next generation or the next copy
    let words = select(colWords, rowWords, phase == 0u);
    if (word + 1u < words) {
      word++;
      mask = atomicLoad(&state[c + select(l.colDirty, l.rowDirty, phase == 0u) + word]);
      continue;
    }
    word = 0u;
    if (phase == 0u) {
      phase = 1u;
      mask = atomicLoad(&state[c + l.colDirty]);
      continue;
    }
    phase = 0u;
    flags |= changed & FLAG_COPY_CONTRADICTION;
    var next = (changed & FLAG_CHANGED) == 0u;  // a fixpoint
    if (!next) {
      generations++;
      if (generations == GENERATIONS) {
        flags |= FLAG_CHANGED;  // not settled yet: the next dispatch goes on
        next = true;
      }
    }
    changed = 0u;
    if (next) {
      if (generations != 0u) {
        atomicStore(&state[c + 1u], atomicLoad(&state[c + 1u]) + generations);
      }
      if ((flags & FLAG_PENDING) == 0u && copy_pending(c, l, g)) { flags |= FLAG_PENDING; }
      generations = 0u;
      copy += lanes;
      if (copy >= g.param0) { break; }
      c = g.stateOffset + copy * l.words;
      clues = clue_base(g, c);
    }
    mask = atomicLoad(&state[c + l.rowDirty]);
  }
  report_flags(w.tileIndex, localIndex, flags);
}

fn copy_pending(c: u32, l: Layout, g: Grid) -> bool {
  for (var row = 0u; row < g.height; row++) {
    if (row_pending(c, l, row, g.width)) { return true; }
  }
  return false;
}
