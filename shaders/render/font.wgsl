// A 3x5 bitmap font for digits 0-9 and letters A-G (GLYPHS[v] is sudoku value v: 1-9 then A-G for 10..16), drawn by the fragment shader so
// that numbers stay sharp at any zoom. Glyph bit 14 - (row * 3 + col) is the pixel at row (0 = top), col (0 = left).
const GLYPHS = array<u32, 17>(0x7b6fu, 0x2c97u, 0x73e7u, 0x73cfu, 0x5bc9u, 0x79cfu, 0x79efu, 0x7292u, 0x7befu,
  0x7bcfu, 0x2bedu, 0x6baeu, 0x3923u, 0x6b6eu, 0x79a7u, 0x79a4u, 0x396bu);

// Is `p` (0..1 inside a box) on a stroke of glyph `symbol` (0..16)? The glyph fills the box's middle 3/5 x 5/7.
fn glyph_hit(symbol: u32, p: vec2f) -> bool {
  let q = (p - vec2f(0.2, 1.0 / 7.0)) / vec2f(0.6, 5.0 / 7.0);
  if (q.x < 0.0 || q.y < 0.0 || q.x >= 1.0 || q.y >= 1.0 || symbol > 16u) {
    return false;
  }
  let col = u32(q.x * 3.0);
  let row = u32(q.y * 5.0);
  return ((GLYPHS[symbol] >> (14u - (row * 3u + col))) & 1u) == 1u;
}
