// Conway's Game of Life (B3/S23), 1 bit per cell, 32 cells per u32 (bit i of word c = cell x = 32c + i),
// rows of ceil(width / 32) words. grid.param0: 1 = toroidal borders, 0 = dead borders; grid.param1: rows per
// work item in one-generation dispatch. Padding bits past the
// width are always 0. CPU twin: src/life/reference.ts.

fn padding_mask(width: u32, col: u32, wordsPerRow: u32) -> u32 {
  let rest = width & 31u;
  if (col == wordsPerRow - 1u && rest != 0u) {
    return (1u << rest) - 1u;
  }
  return 0xffffffffu;
}

fn src_word(g: Grid, wordsPerRow: u32, row: i32, col: i32) -> u32 {
  var y = row;
  var c = col;
  let h = i32(g.height);
  let wc = i32(wordsPerRow);
  if (g.param0 == 1u) {
    y = (y + h) % h;
    c = (c + wc) % wc;
  } else if (y < 0 || y >= h || c < 0 || c >= wc) {
    return 0u;
  }
  return src[g.stateOffset + u32(y) * wordsPerRow + u32(c)];
}

// A row's three planes (west neighbours, centre, east neighbours) summed column-wise: the full-adder sum of all
// three (ones bit `s3`, twos bit `c3`) for the rows above and below, and the half-adder sum of west and east
// (`s2`, `c2`) for the row itself, whose centre is the cell, not a neighbour.
struct RowSums {
  center: u32,
  s3: u32,
  c3: u32,
  s2: u32,
  c2: u32,
}

fn row_sums(w: u32, c: u32, e: u32) -> RowSums {
  let we = w ^ e;
  return RowSums(c, we ^ c, (w & e) | (c & we), we, w & e);
}

// B3/S23 from the row sums above, at and below: neighbours = ones + 2 * (four twos bits). Alive next when
// exactly one twos bit is set (neighbours 2 or 3) and either the ones bit (3) or the cell itself (2 and alive).
fn life_from_sums(up: RowSums, mid: RowSums, down: RowSums) -> u32 {
  let x = up.s3 ^ mid.s2;
  let ones = x ^ down.s3;
  let carry = (up.s3 & mid.s2) | (down.s3 & x);
  let a = up.c3 ^ mid.c2;
  let b = down.c3 ^ carry;
  let pairs = (up.c3 & mid.c2) | (down.c3 & carry) | (a & b);
  return (a ^ b) & ~pairs & (ones | mid.center);
}

// Loads row y of column `col` with its west and east neighbour words and sums it. Dead borders: rows outside
// are empty. Torus: rows wrap; the west bit of cell 0 and the east bit of cell width-1 come from the other edge,
// which is bit (width-1) & 31 of the last word when the width is not a multiple of 32 (westShift/eastShift).
struct Columns {
  col: u32,
  west: u32,
  east: u32,
  hasWest: bool,
  hasEast: bool,
  westShift: u32,
  eastShift: u32,
}

fn columns_of(g: Grid, wordsPerRow: u32, col: u32) -> Columns {
  let torus = g.param0 == 1u;
  let edgeBit = (g.width - 1u) & 31u;
  let first = col == 0u;
  let last = col + 1u == wordsPerRow;
  return Columns(
    col,
    select(col - 1u, wordsPerRow - 1u, first),
    select(col + 1u, 0u, last),
    torus || !first,
    torus || !last,
    select(31u, edgeBit, first && torus),
    select(31u, edgeBit, last && torus),
  );
}

fn load_row_sums(g: Grid, wordsPerRow: u32, k: Columns, row: i32) -> RowSums {
  var y = row;
  let h = i32(g.height);
  if (y < 0 || y >= h) {
    if (g.param0 != 1u) {
      return RowSums(0u, 0u, 0u, 0u, 0u);
    }
    y = (y + h) % h;
  }
  let base = g.stateOffset + u32(y) * wordsPerRow;
  let c = src[base + k.col];
  let l = select(0u, src[base + k.west], k.hasWest);
  let r = select(0u, src[base + k.east], k.hasEast);
  return row_sums((c << 1u) | ((l >> k.westShift) & 1u), c, (c >> 1u) | ((r & 1u) << k.eastShift));
}

// One invocation computes a strip of grid.param1 rows of one word column, sliding a three-row window down it:
// each row is loaded (3 words) and summed once and serves three output rows. The host picks the strip height so
// a grid still fills whole workgroups.
@compute @workgroup_size(WORKGROUP_SIZE)
fn life_step(@builtin(workgroup_id) workgroupId: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  let w = work_item(workgroupId, localIndex);
  if (!w.valid) { return; }
  let g = w.grid;
  let item = w.item;
  let wordsPerRow = (g.width + 31u) / 32u;
  let col = item % wordsPerRow;
  let y0 = (item / wordsPerRow) * g.param1;
  let y1 = min(y0 + g.param1, g.height);
  let mask = padding_mask(g.width, col, wordsPerRow);
  let k = columns_of(g, wordsPerRow, col);
  var up = load_row_sums(g, wordsPerRow, k, i32(y0) - 1);
  var mid = load_row_sums(g, wordsPerRow, k, i32(y0));
  var changed = 0u;
  for (var y = y0; y < y1; y++) {
    let down = load_row_sums(g, wordsPerRow, k, i32(y) + 1);
    let next = life_from_sums(up, mid, down) & mask;
    dst[g.stateOffset + y * wordsPerRow + col] = next;
    changed |= next ^ mid.center;
    up = mid;
    mid = down;
  }
  report_flags(w.tileIndex, localIndex, select(0u, FLAG_CHANGED, changed != 0u));
}

// ---- Multi-generation dispatch ------------------------------------------------------------------------------
// One invocation advances a block of the grid GENERATIONS generations in its own (private) memory, with no
// workgroup barrier: on SwiftShader a barrier costs more than the generation it separates.
// - A grid of at most BLOCK_CAPACITY words is one block, the whole grid (grid.param2 = 1): its borders are
//   exact, nothing is recomputed, so small grids (the dispatch-bound case) take GENERATIONS per dispatch for free.
// - A larger grid is cut into blocks of BLOCK_WORDS x BLOCK_ROWS words, each loaded with a halo of one word
//   (32 cells) left and right and GENERATIONS rows above and below. Each generation the band of valid cells
//   shrinks by one cell on every side, so after GENERATIONS steps the block's interior is exact: the same result
//   as GENERATIONS one-generation dispatches. Dead borders: cells outside the grid are forced to 0 every step.
//   Toroidal grids need a width that is a multiple of 32 here (the host checks), so wrapped words line up.

override GENERATIONS: u32 = 8u;
const BLOCK_CAPACITY: u32 = 512u;   // words of one generation in private memory
const BLOCK_WORDS: u32 = 4u;
const BLOCK_ROWS: u32 = 32u;

fn cell_mask(g: Grid, wordsPerRow: u32, row: i32, col: i32) -> u32 {
  let inside = row >= 0 && row < i32(g.height) && col >= 0 && col < i32(wordsPerRow);
  if (g.param0 == 1u) {
    // a torus block's wrapped halo words are whole words (width a multiple of 32); inside, padding stays 0
    return select(0xffffffffu, padding_mask(g.width, u32(col), wordsPerRow), inside);
  }
  if (!inside) {
    return 0u;
  }
  return padding_mask(g.width, u32(col), wordsPerRow);
}

// Row r of column k.col from a block held in private memory (`base` selects the generation's half).
// Rows outside the block are empty, or wrap when the block is a whole toroidal grid.
fn block_row_sums(cells: ptr<function, array<u32, 1024>>, base: u32, cols: u32, rows: i32, wrap: bool, k: Columns, row: i32) -> RowSums {
  var r = row;
  if (r < 0 || r >= rows) {
    if (!wrap) {
      return RowSums(0u, 0u, 0u, 0u, 0u);
    }
    r = (r + rows) % rows;
  }
  let at = base + u32(r) * cols;
  let c = (*cells)[at + k.col];
  let l = select(0u, (*cells)[at + k.west], k.hasWest);
  let e = select(0u, (*cells)[at + k.east], k.hasEast);
  return row_sums((c << 1u) | ((l >> k.westShift) & 1u), c, (c >> 1u) | ((e & 1u) << k.eastShift));
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn life_multi(@builtin(workgroup_id) workgroupId: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  let w = work_item(workgroupId, localIndex);
  if (!w.valid) { return; }
  let g = w.grid;
  let item = w.item;
  let wordsPerRow = (g.width + 31u) / 32u;
  let whole = g.param2 == 1u;
  // the block: origin (r0, c0) in grid words, size cols x rows
  var r0 = 0;
  var c0 = 0;
  var cols = wordsPerRow;
  var rows = g.height;
  if (!whole) {
    let blocksPerRow = (wordsPerRow + BLOCK_WORDS - 1u) / BLOCK_WORDS;
    r0 = i32((item / blocksPerRow) * BLOCK_ROWS) - i32(GENERATIONS);
    c0 = i32((item % blocksPerRow) * BLOCK_WORDS) - 1;
    cols = BLOCK_WORDS + 2u;
    rows = BLOCK_ROWS + 2u * GENERATIONS;
  }
  var cells: array<u32, 1024>;
  for (var r = 0u; r < rows; r++) {
    for (var k = 0u; k < cols; k++) {
      let row = r0 + i32(r);
      let col = c0 + i32(k);
      cells[r * cols + k] = src_word(g, wordsPerRow, row, col) & cell_mask(g, wordsPerRow, row, col);
    }
  }

  let size = cols * rows;
  var changed = 0u;
  for (var gen = 0u; gen < GENERATIONS; gen++) {
    let cur = (gen & 1u) * BLOCK_CAPACITY;
    let nxt = BLOCK_CAPACITY - cur;
    for (var k = 0u; k < cols; k++) {
      // a whole grid wraps (torus) like the one-generation kernel; a block's edges see nothing past them
      var kc = columns_of(g, cols, k);
      if (!whole) {
        kc = Columns(k, select(k - 1u, 0u, k == 0u), select(k + 1u, k, k + 1u == cols), k > 0u, k + 1u < cols, 31u, 31u);
      }
      let interiorCol = whole || (k >= 1u && k <= BLOCK_WORDS);
      var up = block_row_sums(&cells, cur, cols, i32(rows), whole && g.param0 == 1u, kc, -1);
      var mid = block_row_sums(&cells, cur, cols, i32(rows), whole && g.param0 == 1u, kc, 0);
      for (var r = 0u; r < rows; r++) {
        let down = block_row_sums(&cells, cur, cols, i32(rows), whole && g.param0 == 1u, kc, i32(r) + 1);
        let next = life_from_sums(up, mid, down) & cell_mask(g, wordsPerRow, r0 + i32(r), c0 + i32(k));
        cells[nxt + r * cols + k] = next;
        if (interiorCol && (whole || (r >= GENERATIONS && r < GENERATIONS + BLOCK_ROWS))) {
          changed |= next ^ mid.center;
        }
        up = mid;
        mid = down;
      }
    }
  }

  let last = (GENERATIONS & 1u) * BLOCK_CAPACITY;
  let firstRow = select(GENERATIONS, 0u, whole);
  let firstCol = select(1u, 0u, whole);
  let outRows = select(BLOCK_ROWS, rows, whole);
  let outCols = select(BLOCK_WORDS, cols, whole);
  for (var r = firstRow; r < firstRow + outRows; r++) {
    for (var k = firstCol; k < firstCol + outCols; k++) {
      let row = r0 + i32(r);
      let col = c0 + i32(k);
      if (row < i32(g.height) && col < i32(wordsPerRow)) {
        dst[g.stateOffset + u32(row) * wordsPerRow + u32(col)] = cells[last + r * cols + k];
      }
    }
  }
  report_flags(w.tileIndex, localIndex, select(0u, FLAG_CHANGED, changed != 0u));
}
