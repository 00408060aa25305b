// Conway's Game of Life (B3/S23), 1 bit per cell, 32 cells per u32 (bit i of word c = cell x = 32c + i),
// rows of ceil(width / 32) words. grid.param0: 1 = toroidal borders, 0 = dead borders; grid.param1: rows per
// work item in one-generation dispatch. Padding bits past the
// width are always 0. CPU twin: src/life/reference.ts.

// Adds one neighbour plane into the 3-bit per-cell counter (s0, s1, s2): a half-adder chain. A count of 8 wraps
// to 0, which is harmless: only counts 2 and 3 matter.
fn add_plane(s: ptr<function, vec3u>, x: u32) {
  let c0 = (*s).x & x;
  (*s).x ^= x;
  let c1 = (*s).y & c0;
  (*s).y ^= c0;
  (*s).z ^= c1;
}

// B3/S23 from the eight neighbour planes of the words above (n*), beside (w, e) and below (s*).
fn life_word(center: u32, nw: u32, n: u32, ne: u32, w: u32, e: u32, sw: u32, s: u32, se: u32) -> u32 {
  var count = vec3u(0u);
  add_plane(&count, nw);
  add_plane(&count, n);
  add_plane(&count, ne);
  add_plane(&count, w);
  add_plane(&count, e);
  add_plane(&count, sw);
  add_plane(&count, s);
  add_plane(&count, se);
  // alive next: count == 3, or count == 2 and alive now (count bits s2 s1 s0 = 011 or 010)
  return count.y & ~count.z & (count.x | center);
}

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
  let t = tile_index(workgroupId);
  if (t >= batch.tileCount) {
    return;
  }
  let tile = tiles[t];
  let g = grids[tile.grid];
  let item = tile.firstItem + localIndex;
  if (item >= g.items) {
    return;
  }
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
  report_flags(t, localIndex, select(0u, FLAG_CHANGED, changed != 0u));
}

// ---- Multi-generation dispatch ------------------------------------------------------------------------------
// A workgroup loads a tile of TILE_WORDS x (TILE_ROWS - 2 * GENERATIONS) words plus a halo of one word left and
// right (32 cells, enough for up to 32 generations) and GENERATIONS rows above and below, advances it
// GENERATIONS generations in workgroup memory, and writes back the interior. Each generation the band of valid
// cells shrinks by one cell on every side, so after GENERATIONS steps the interior is exact: the same result as
// GENERATIONS one-generation dispatches. Dead borders: cells outside the grid are forced to 0 every step.
// Toroidal grids need a width that is a multiple of 32 here (the host checks), so wrapped words line up.

override GENERATIONS: u32 = 8u;
const TILE_WORDS: u32 = 8u;         // interior words per tile row
const TILE_COLS: u32 = 10u;         // TILE_WORDS + one halo word on each side
const TILE_ROWS: u32 = 64u;         // interior rows + 2 * GENERATIONS
const TILE_SIZE: u32 = 640u;        // TILE_COLS * TILE_ROWS

var<workgroup> tileCells: array<u32, 1280>;  // two generations of the tile, ping-pong in workgroup memory
var<workgroup> tileChanged: atomic<u32>;

fn interior_rows() -> u32 {
  return TILE_ROWS - 2u * GENERATIONS;
}

// The tile's word at (r, k) maps to grid row r0 - GENERATIONS + r and word c0 - 1 + k; outside the grid it is
// a dead cell (or wraps, on a torus). Returns (row, col, inside).
fn tile_origin(g: Grid, tileInGrid: u32, wordsPerRow: u32) -> vec2i {
  let tilesPerRow = (wordsPerRow + TILE_WORDS - 1u) / TILE_WORDS;
  let tr = tileInGrid / tilesPerRow;
  let tc = tileInGrid % tilesPerRow;
  return vec2i(i32(tr * interior_rows()), i32(tc * TILE_WORDS));
}

fn cell_mask(g: Grid, wordsPerRow: u32, row: i32, col: i32) -> u32 {
  if (g.param0 == 1u) {
    return 0xffffffffu;
  }
  if (row < 0 || row >= i32(g.height) || col < 0 || col >= i32(wordsPerRow)) {
    return 0u;
  }
  return padding_mask(g.width, u32(col), wordsPerRow);
}

fn tile_word(base: u32, r: i32, k: i32) -> u32 {
  if (r < 0 || r >= i32(TILE_ROWS) || k < 0 || k >= i32(TILE_COLS)) {
    return 0u;
  }
  return tileCells[base + u32(r) * TILE_COLS + u32(k)];
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn life_multi(@builtin(workgroup_id) workgroupId: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  let t = tile_index(workgroupId);
  if (t >= batch.tileCount) {
    return;
  }
  let tile = tiles[t];
  let g = grids[tile.grid];
  let wordsPerRow = (g.width + 31u) / 32u;
  let origin = tile_origin(g, tile.firstItem / WORKGROUP_SIZE, wordsPerRow);
  let r0 = origin.x - i32(GENERATIONS);
  let c0 = origin.y - 1;

  for (var i = localIndex; i < TILE_SIZE; i += WORKGROUP_SIZE) {
    let r = i32(i / TILE_COLS);
    let k = i32(i % TILE_COLS);
    tileCells[i] = src_word(g, wordsPerRow, r0 + r, c0 + k) & cell_mask(g, wordsPerRow, r0 + r, c0 + k);
  }
  workgroupBarrier();

  let interiorRows = i32(interior_rows());
  for (var gen = 0u; gen < GENERATIONS; gen++) {
    let cur = (gen & 1u) * TILE_SIZE;
    let nxt = TILE_SIZE - cur;
    for (var i = localIndex; i < TILE_SIZE; i += WORKGROUP_SIZE) {
      let r = i32(i / TILE_COLS);
      let k = i32(i % TILE_COLS);
      let center = tile_word(cur, r, k);
      var planes: array<u32, 6>;  // west/east planes of the rows above and below
      var n = 0u;
      var s = 0u;
      for (var d = 0; d < 2; d++) {
        let rr = r + select(-1, 1, d == 1);
        let c = tile_word(cur, rr, k);
        planes[d * 3] = (c << 1u) | (tile_word(cur, rr, k - 1) >> 31u);
        planes[d * 3 + 1] = (c >> 1u) | (tile_word(cur, rr, k + 1) << 31u);
        planes[d * 3 + 2] = c;
      }
      let west = (center << 1u) | (tile_word(cur, r, k - 1) >> 31u);
      let east = (center >> 1u) | (tile_word(cur, r, k + 1) << 31u);
      let next = life_word(center, planes[0], planes[2], planes[1], west, east, planes[3], planes[5], planes[4])
        & cell_mask(g, wordsPerRow, r0 + r, c0 + k);
      tileCells[nxt + i] = next;
      let interior = r >= i32(GENERATIONS) && r < i32(GENERATIONS) + interiorRows && k >= 1 && k <= i32(TILE_WORDS);
      if (interior && next != center && r0 + r < i32(g.height) && c0 + k < i32(wordsPerRow)) {
        atomicOr(&tileChanged, 1u);
      }
    }
    workgroupBarrier();
  }

  let last = (GENERATIONS & 1u) * TILE_SIZE;
  for (var i = localIndex; i < TILE_WORDS * u32(interiorRows); i += WORKGROUP_SIZE) {
    let r = i / TILE_WORDS;
    let k = i % TILE_WORDS;
    let row = origin.x + i32(r);
    let col = origin.y + i32(k);
    if (row < i32(g.height) && col < i32(wordsPerRow)) {
      dst[g.stateOffset + u32(row) * wordsPerRow + u32(col)] = tileCells[last + (r + GENERATIONS) * TILE_COLS + k + 1u];
    }
  }
  let changed = atomicLoad(&tileChanged);
  report_flags(t, localIndex, select(0u, FLAG_CHANGED, changed != 0u));
}
