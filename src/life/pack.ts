// Life grids as the shader holds them: 1 bit per cell, 32 cells per u32, rows of ceil(width/32) words.
import type { LifeGrid } from './reference.ts';

export const wordsPerRow = (width: number) => Math.ceil(width / 32);

export function packLife(grid: LifeGrid): Uint32Array {
  const wpr = wordsPerRow(grid.width);
  const words = new Uint32Array(wpr * grid.height);
  for (let y = 0; y < grid.height; y++) {
    for (let x = 0; x < grid.width; x++) {
      if (grid.cells[y * grid.width + x]) words[y * wpr + (x >> 5)] |= 1 << (x & 31);
    }
  }
  return words;
}

export function unpackLife(words: Uint32Array, width: number, height: number): LifeGrid {
  const wpr = wordsPerRow(width);
  const cells = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) cells[y * width + x] = (words[y * wpr + (x >> 5)] >>> (x & 31)) & 1;
  }
  return { width, height, cells };
}
