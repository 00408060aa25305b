// Sudoku grid shape from the grid header (src/puzzles/sudoku/pack.ts): units are rows, columns, regions (boxes,
// or jigsaw blocks read from aux) and, for X-sudoku, the two diagonals. Shared by ca.wgsl and ilca.wgsl.

const VARIANT_DIAGONAL: u32 = 1u;
const VARIANT_JIGSAW: u32 = 2u;

struct Shape {
  n: u32,
  boxW: u32,
  boxH: u32,
  variant: u32,
  auxOffset: u32,
  full: u32,
}

// param0 = n | boxW << 8 | boxH << 16 | variant << 24
fn shape_of(g: Grid) -> Shape {
  let n = g.param0 & 0xffu;
  let full = select((1u << n) - 1u, 0xffffffffu, n >= 32u);
  return Shape(n, (g.param0 >> 8u) & 0xffu, (g.param0 >> 16u) & 0xffu, g.param0 >> 24u, g.auxOffset, full);
}

fn is_jigsaw(s: Shape) -> bool {
  return (s.variant & VARIANT_JIGSAW) != 0u;
}

fn region_of(s: Shape, x: u32) -> u32 {
  if (is_jigsaw(s)) {
    return aux[s.auxOffset + x];
  }
  let r = x / s.n;
  let c = x % s.n;
  return (r / s.boxH) * (s.n / s.boxW) + c / s.boxW;
}

// The k-th cell of region R (jigsaw: aux holds each region's cells after the region map).
fn region_cell(s: Shape, R: u32, k: u32) -> u32 {
  if (is_jigsaw(s)) {
    return aux[s.auxOffset + s.n * s.n + R * s.n + k];
  }
  let perRow = s.n / s.boxW;
  let r = (R / perRow) * s.boxH + k / s.boxW;
  let c = (R % perRow) * s.boxW + k % s.boxW;
  return r * s.n + c;
}

// Unit kinds: 0 row, 1 column, 2 region, 3 diagonal (u = 0 main, 1 anti).
fn unit_cell(s: Shape, kind: u32, u: u32, k: u32) -> u32 {
  switch kind {
    case 0u: { return u * s.n + k; }
    case 1u: { return k * s.n + u; }
    case 2u: { return region_cell(s, u, k); }
    default: { return k * s.n + select(k, s.n - 1u - k, u == 1u); }
  }
}

// The units of cell x as (kind, index) pairs; returns how many (3, or up to 5 with diagonals).
fn units_of(s: Shape, x: u32, kinds: ptr<function, array<vec2u, 5>>) -> u32 {
  let r = x / s.n;
  let c = x % s.n;
  (*kinds)[0] = vec2u(0u, r);
  (*kinds)[1] = vec2u(1u, c);
  (*kinds)[2] = vec2u(2u, region_of(s, x));
  var count = 3u;
  if ((s.variant & VARIANT_DIAGONAL) != 0u) {
    if (r == c) {
      (*kinds)[count] = vec2u(3u, 0u);
      count++;
    }
    if (r + c == s.n - 1u) {
      (*kinds)[count] = vec2u(3u, 1u);
      count++;
    }
  }
  return count;
}
