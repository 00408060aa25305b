// The 3x5 bitmap font of shaders/render/font.wgsl: glyph v is digit v for 0-9, then A-G for 10-16 (sudoku symbols
// up to 16x16). Rows top to bottom, 3 bits each, most significant first.
const rows: string[] = [
  '111101101101111', '010110010010111', '111001111100111', '111001111001111', '101101111001001',
  '111100111001111', '111100111101111', '111001010010010', '111101111101111', '111101111001111',
  '010101111101101', '110101110101110', '011100100100011', '110101101101110', '111100110100111',
  '111100110100100', '011100101101011',
];

export const FONT_3X5 = Uint32Array.from(rows, (r) => parseInt(r, 2));
