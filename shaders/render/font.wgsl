// A 3x5 bitmap font, drawn by the fragment shader so digits stay sharp at any zoom. The glyph table comes with the
// kind's drawing data (src/web/font.ts FONT_3X5): a storage read costs one instruction, where a switch or a
// dynamically indexed const array costs every case on software rasterisers. Bit 14 - (row * 3 + col) of a glyph is
// its pixel at row (0 = top), col (0 = left).

// Is `p` (0..1 inside a box) on a stroke of `glyph`? The glyph fills the box's middle 3/5 x 5/7.
fn glyph_hit(glyph: u32, p: vec2f) -> bool {
  let q = (p - vec2f(0.2, 1.0 / 7.0)) / vec2f(0.6, 5.0 / 7.0);
  let inside = q.x >= 0.0 && q.y >= 0.0 && q.x < 1.0 && q.y < 1.0;
  let col = u32(clamp(q.x * 3.0, 0.0, 2.0));
  let row = u32(clamp(q.y * 5.0, 0.0, 4.0));
  return inside && ((glyph >> (14u - (row * 3u + col))) & 1u) == 1u;
}
