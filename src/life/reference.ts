// CPU twin of shaders/life/life.wgsl: the plain rule, one cell at a time (the test oracle, and the CPU side of
// the benchmark's GPU/CPU ratio).

export interface LifeGrid {
  width: number;
  height: number;
  /** row-major, 1 = alive */
  cells: Uint8Array;
}

export function lifeStep(grid: LifeGrid, torus: boolean): LifeGrid {
  const { width: w, height: h, cells } = grid;
  const next = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let n = 0;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          if (dx === 0 && dy === 0) continue;
          let yy = y + dy;
          let xx = x + dx;
          if (torus) {
            yy = (yy + h) % h;
            xx = (xx + w) % w;
          } else if (yy < 0 || yy >= h || xx < 0 || xx >= w) continue;
          n += cells[yy * w + xx];
        }
      }
      const alive = cells[y * w + x] === 1;
      next[y * w + x] = n === 3 || (alive && n === 2) ? 1 : 0;
    }
  }
  return { width: w, height: h, cells: next };
}

export function lifeRun(grid: LifeGrid, generations: number, torus: boolean): LifeGrid {
  let g = grid;
  for (let i = 0; i < generations; i++) g = lifeStep(g, torus);
  return g;
}

export function randomLife(width: number, height: number, seed: number, density = 0.35): LifeGrid {
  const cells = new Uint8Array(width * height);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < cells.length; i++) {
    // xorshift32: fast, seeded, good enough for test patterns
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    cells[i] = s / 4294967296 < density ? 1 : 0;
  }
  return { width, height, cells };
}
