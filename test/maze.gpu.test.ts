// GPU maze rules against their CPU twins (src/puzzles/maze/reference.ts), and the maze kind end to end.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseMazes, type Maze } from '../src/puzzles/maze/codec.ts';
import { generateMaze } from '../src/puzzles/maze/generate.ts';
import { mazeKind } from '../src/puzzles/maze/index.ts';
import { bfsPath, deadendFill, walkerRun, walkerRunFast, wavefrontLabels } from '../src/puzzles/maze/reference.ts';
import { runDeadend, runWalker, runWavefront } from '../src/puzzles/maze/solver.ts';
import { skipGpu, withDevice } from './gpu.ts';

const mikepound = '../shared/data/maze/mikepound/';

// odd, even, non-multiple-of-32, tiny and wide/tall sizes; some with loops, one without any path
function mixed(): Maze[] {
  const out: Maze[] = [
    generateMaze({ width: 3, height: 3, seed: 1 }),
    generateMaze({ width: 31, height: 33, seed: 2 }),
    generateMaze({ width: 33, height: 31, seed: 3, loops: 4 }),
    generateMaze({ width: 64, height: 64, seed: 4 }),
    generateMaze({ width: 100, height: 7, seed: 5, loops: 3 }),
    generateMaze({ width: 5, height: 200, seed: 6, algorithm: 'kruskal' }),
    generateMaze({ width: 97, height: 131, seed: 7, loops: 40 }),
  ];
  const cut = generateMaze({ width: 41, height: 41, seed: 8 });
  cut.open[cut.end - cut.width] = 0; // wall off the exit: no path
  out.push(cut);
  // one cell wide or tall: a step down is +1 in index, as a step right is
  for (const text of ['S\n.\n.\nE\n', 'E\n.\nS\n', 'S..E\n', 'S\nE\n']) out.push(parseMazes(new TextEncoder().encode(text))[0].maze!);
  return out;
}

function firstDiff(a: Uint8Array, b: Uint8Array): number {
  return a.findIndex((v, i) => v !== b[i]);
}

describe.skipIf(skipGpu)('maze rules on the GPU match the CPU twins', () => {
  it('dead-end filling, one synchronous generation per dispatch: same states and generation counts', async () => {
    await withDevice(async (ctx) => {
      const mazes = mixed();
      const res = await runDeadend(ctx, mazes, { mode: 'one-gen' });
      mazes.forEach((m, i) => {
        const ref = deadendFill(m);
        expect(firstDiff(res[i].state, ref.state), `${m.width}x${m.height}`).toBe(-1);
        expect(res[i].outcome.generations).toBe(ref.generations);
        expect(res[i].outcome.status).toBe('fixpoint');
      });
    });
  });

  it('dead-end filling in place (multi-gen, chain following): same final state, in few dispatches', async () => {
    await withDevice(async (ctx) => {
      const mazes = [...mixed(), generateMaze({ width: 301, height: 299, seed: 9 }), generateMaze({ width: 300, height: 300, seed: 10, loops: 200 })];
      const res = await runDeadend(ctx, mazes, { mode: 'multi-gen' });
      mazes.forEach((m, i) => {
        expect(firstDiff(res[i].state, deadendFill(m).state), `${m.width}x${m.height}`).toBe(-1);
        expect(res[i].outcome.generations).toBeLessThanOrEqual(4);
      });
    });
  });

  it('dead-end filling of 400 small mazes of mixed sizes sharing atlas grids (both small-maze kernels) equals the CPU', async () => {
    await withDevice(async (ctx) => {
      const mazes = Array.from({ length: 400 }, (_, i) =>
        generateMaze({ width: 5 + (i % 7) * 9, height: 3 + (i % 5) * 11, seed: 100 + i, loops: i % 3 === 0 ? 2 : 0 }));
      const res = await runDeadend(ctx, mazes, { mode: 'multi-gen' });
      mazes.forEach((m, i) => expect(firstDiff(res[i].state, deadendFill(m).state), `maze ${i}`).toBe(-1));
      // the 31-wide or narrower ones (at most 64 rows) go to the one-invocation-per-maze kernel, the others to chains
      expect(res.every((r) => (r.atlasMazes ?? 0) > 1)).toBe(true);
    });
  });

  it('wavefront: labels (distance mod 3) equal a BFS; one-gen stops at the end, multi-gen within K', async () => {
    await withDevice(async (ctx) => {
      const mazes = mixed();
      for (const mode of ['one-gen', 'multi-gen'] as const) {
        const res = await runWavefront(ctx, mazes, { mode });
        mazes.forEach((m, i) => {
          const full = wavefrontLabels(m, m.open, false);
          const stop = wavefrontLabels(m);
          const dEnd = full.dist[m.end];
          const got = res[i].state;
          for (let k = 0; k < got.length; k++) {
            const d = full.dist[k];
            // cells up to the end's distance are exact; past it, a multi-gen dispatch may have gone on
            if (d >= 0 && (d <= dEnd || dEnd < 0)) expect(got[k], `${mode} ${m.width}x${m.height} cell ${k}`).toBe(full.labels[k]);
            else if (mode === 'one-gen' || d < 0) expect(got[k]).toBe(d < 0 ? 0 : 0);
            else expect([0, full.labels[k]]).toContain(got[k]);
          }
          if (mode === 'one-gen') expect(res[i].outcome.generations).toBe(stop.generations);
        });
      }
    });
  });

  it('walker (thesis 3.1.2): same states and generation counts', async () => {
    await withDevice(async (ctx) => {
      const mazes = [...mixed(), generateMaze({ width: 201, height: 151, seed: 11, algorithm: 'kruskal' })];
      const res = await runWalker(ctx, mazes);
      mazes.forEach((m, i) => {
        const ref = walkerRun(m);
        expect(firstDiff(res[i].state, ref.state), `${m.width}x${m.height}`).toBe(-1);
        expect(res[i].outcome.generations).toBe(ref.generations);
      });
    });
  });
});

describe.skipIf(skipGpu)('the walker at 1001x1001 (issue 3: must match the CPU reference up to this size)', () => {
  it('a 1001x1001 Kruskal maze: same final state and generation count as the CPU twin', { timeout: 600_000 }, async () => {
    await withDevice(async (ctx) => {
      const m = generateMaze({ width: 1001, height: 1001, seed: 5, algorithm: 'kruskal' });
      const [r] = await runWalker(ctx, [m]);
      const ref = walkerRunFast(m);
      expect(r.outcome.generations).toBe(ref.generations);
      expect(firstDiff(r.state, ref.state)).toBe(-1);
    });
  });
});

describe.skipIf(skipGpu)('the maze kind', () => {
  it('every method solves perfect mazes with the BFS path; auto and wavefront solve loops; no path is a contradiction', async () => {
    await withDevice(async (ctx) => {
      const mazes = mixed();
      for (const method of mazeKind.methods) {
        const res = await mazeKind.solve(ctx, mazes, { method, options: {} });
        mazes.forEach((m, i) => {
          const bfs = bfsPath(m);
          const r = res[i];
          if (!bfs) expect(r.status, `${method} ${i}`).toBe('contradiction');
          else if (r.status === 'solved') {
            expect(mazeKind.verify(m, r.solution!)).toBe(true);
            expect(r.extra!.pathLength).toBe(r.solution!.length + 1);
            if (method === 'auto' || method === 'wavefront') expect(r.extra!.pathLength).toBe(bfs.length);
          } else {
            // only loops can stop dead-end filling and the walker
            expect(['deadend', 'walker'], `${method} ${i}`).toContain(method);
            expect(r.status).toBe('unsolved');
          }
          expect(r.extra!.dispatches).toBeGreaterThan(0);
        });
      }
    });
  });

  it.skipIf(!existsSync(mikepound))('mikepound tiny, small, normal, logo, braid200, combo400 with auto', async () => {
    await withDevice(async (ctx) => {
      const mazes = ['tiny', 'small', 'normal', 'logo', 'braid200', 'combo400'].map((f) => parseMazes(readFileSync(`${mikepound}${f}.png`), f)[0].maze!);
      const res = await mazeKind.solve(ctx, mazes, { method: 'auto', options: {} });
      res.forEach((r, i) => {
        expect(r.status).toBe('solved');
        expect(mazeKind.verify(mazes[i], r.solution!)).toBe(true);
        expect(r.extra!.pathLength).toBe(bfsPath(mazes[i])!.length);
      });
      const normal = await mazeKind.solve(ctx, [mazes[2]], { method: 'deadend', options: {} });
      expect(normal[0].status).toBe('solved');
    });
  });
});
