// The paper's Irregular Learning Cellular Automaton (ILCA, seed 002: Chatzinikolaou et al. 2024), on the GPU
// (shaders/sudoku/ilca.wgsl) with this CPU twin, bit for bit.
//
// Each cell holds a learning automaton: an action probability vector P over 1..n; its state is the action with
// the highest probability (Definition 3, eq. 6). Each time-step (Algorithm 1), with d the cell's degree (eq. 5:
// peers whose action differs) and |N| its peer count (20 for 9x9):
//   d == |N|                                   -> reward:  P(c) *= r(d) = 1 + d/|N| * lr      (eq. 8)
//   d > max(d_k of peers k with the same action) -> reward
//   otherwise                                  -> penalty: P(c) *= p(d) = 1 - (1 - d/|N|) * lp (eq. 9)
// and the puzzle is solved when every cell has d == |N|. Every sr steps the selective probability reset
// (Algorithm 3) replaces Algorithm 1: a cell whose row, column or box does not sum to n(n+1)/2 (eq. 10) gets
// P = 1 where P > 0, else 0. Givens keep P = 100% on their value; at the start their peers lose that value
// (0%), all other candidates are equally likely.
//
// Where the paper is vague, we chose (and say so in the report):
//  - P is a probability per action, never above 1 (rewards saturate: "a constant probability of 100%"), and not
//    normalised (eq. 7 multiplies one entry; normalising would not change the argmax). Unbounded rewards entrench
//    a wrong early choice for good (we measured 0% on Basic puzzles that way). We hold log P in f32; factors come
//    from a host table, so GPU and CPU add the same floats.
//  - Algorithm 3 writes "P(c) = 1 if P(c) > 0, else 0" for the chosen action c; setting the chosen action to the
//    maximum would entrench it rather than reset it, so we read it per action: every live probability goes back
//    to 1 (uniform over the cell's live candidates), dead ones stay 0 — a selective reset of the cell.
//  - eq. 9 goes negative for lp > 1 (lp = 3.5 with d < 15): the factor is clamped at 0, and a probability of 0
//    is dead (only Algorithm 3 could bring it back, and it does not).
//  - ties in the argmax (all candidates at the start, and after penalties) are broken uniformly at random from a
//    hash of (seed, run, cell, step): the only randomness in the algorithm, and why 10 runs of a puzzle differ.
//    A cell whose current action is among the best keeps it (rewards saturate at 1, so a solved grid would
//    otherwise wander off its solution on a tie).
//  - base Algorithm 1 is eq. 8-9 with lr = lp = 1; "lp/lr = 20" uses lp = 1, lr = 0.05 (the paper ran its ratio
//    sweeps "at slow speeds" without naming lp); the combination "lp/lr = 15, sr = 50/65" likewise uses lp = 1.
//  - Algorithm 3 runs instead of Algorithm 1 at steps sr, 2sr, ... ("with the exception that every sr time-steps,
//    Algorithm 3 is activated").
import type { GridInput, Rule } from '../../engine/rule.ts';
import { Batch } from '../../engine/batch.ts';
import type { GpuContext } from '../../gpu/context.ts';
import { WORKGROUP_SIZE } from '../../engine/constants.ts';
import { shapeParam } from './pack.ts';
import { caRun, bitValue, popcount, type SudokuPuzzle } from './reference.ts';

export interface IlcaParams {
  lr: number;
  lp: number;
  /** selective probability reset every sr steps (0 = never) */
  sr: number;
  /** time-step cap (the paper: 250) */
  steps: number;
  /** improvement: start from the elimination automaton's fixpoint (its solved cells become givens) */
  eliminate?: boolean;
}

export const ILCA_PRESETS: Record<string, IlcaParams> = {
  base: { lr: 1, lp: 1, sr: 0, steps: 250 },
  'lp/lr=20': { lr: 0.05, lp: 1, sr: 0, steps: 250 },
  'lp=3.5': { lr: 0.175, lp: 3.5, sr: 0, steps: 250 },
  'sr=40': { lr: 1, lp: 1, sr: 40, steps: 250 },
  'lp/lr=15,sr=50': { lr: 1 / 15, lp: 1, sr: 50, steps: 250 },
  'lp/lr=15,sr=65': { lr: 1 / 15, lp: 1, sr: 65, steps: 250 },
  // ours: the same learning automaton started from the elimination automaton's candidates
  'improved': { lr: 1 / 15, lp: 1, sr: 65, steps: 250, eliminate: true },
};

/** log of a dead (zero) probability: far below anything rewards and penalties reach in f32 */
export const DEAD = -1e30;
const DEAD_BELOW = -1e29;
const GIVEN = 0x80000000;

export function peerCount(p: SudokuPuzzle): number {
  return 2 * (p.n - 1) + (p.boxW - 1) * (p.boxH - 1);
}

/** log r(d) for d = 0..|N|, then log p(d) (DEAD where p(d) <= 0), as f32 */
export function factorTable(p: SudokuPuzzle, params: IlcaParams): Float32Array {
  const N = peerCount(p);
  const t = new Float32Array(2 * (N + 1));
  for (let d = 0; d <= N; d++) {
    t[d] = Math.log(1 + (d / N) * params.lr);
    const pen = 1 - (1 - d / N) * params.lp;
    t[N + 1 + d] = pen > 0 ? Math.log(pen) : DEAD;
  }
  return t;
}

/** lowbias32 (C. Wellons): the tie-break hash, identical in WGSL */
export function hash32(x: number): number {
  x >>>= 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b) >>> 0;
  x ^= x >>> 16;
  return x >>> 0;
}

export function tieHash(seed: number, cell: number, step: number): number {
  return hash32((seed + hash32((Math.imul(cell, 0x10001) + Math.imul(step, 0x9e3779b9)) >>> 0)) >>> 0);
}

/** argmax of log P: the current action when it is among the best, else a tie broken by the hash (1-based) */
export function chooseAction(logP: Float32Array, at: number, n: number, h: number, current = 0): number {
  let best = -Infinity;
  let count = 0;
  for (let v = 0; v < n; v++) {
    const x = logP[at + v];
    if (x > best) {
      best = x;
      count = 1;
    } else if (x === best) count++;
  }
  if (current && logP[at + current - 1] === best) return current;
  let k = h % count;
  for (let v = 0; v < n; v++) {
    if (logP[at + v] === best) {
      if (k === 0) return v + 1;
      k--;
    }
  }
  return 1;
}

/** State per cell: n floats (log P) then one word: action | step << 8 | given << 31. */
export interface IlcaState {
  words: Uint32Array;
  floats: Float32Array;
}

export function cellWords(p: SudokuPuzzle): number {
  return p.n + 1;
}

export function ilcaInitial(p: SudokuPuzzle, seed: number, params: IlcaParams): IlcaState {
  const n = p.n;
  const W = cellWords(p);
  const cells = n * n;
  const buf = new ArrayBuffer(cells * W * 4);
  const words = new Uint32Array(buf);
  const floats = new Float32Array(buf);
  let fixed = p.givens;
  let cand: Uint32Array | null = null;
  if (params.eliminate) {
    const r = caRun(p);
    cand = r.masks;
    fixed = Uint8Array.from(r.masks, (m) => (popcount(m) === 1 ? bitValue(m) : 0));
  }
  const rows = (i: number) => Math.floor(i / n);
  for (let i = 0; i < cells; i++) {
    const at = i * W;
    if (fixed[i]) {
      for (let v = 0; v < n; v++) floats[at + v] = v + 1 === fixed[i] ? 0 : DEAD;
      words[at + n] = (fixed[i] | GIVEN) >>> 0;
      continue;
    }
    // candidates: values no given peer holds (or the automaton's candidates, improved)
    let mask = cand ? cand[i] : (1 << n) - 1;
    if (!cand) {
      const r = rows(i);
      const c = i % n;
      for (let j = 0; j < cells; j++) {
        if (!p.givens[j] || j === i) continue;
        const rj = rows(j);
        const cj = j % n;
        const same = rj === r || cj === c || (Math.floor(rj / p.boxH) === Math.floor(r / p.boxH) && Math.floor(cj / p.boxW) === Math.floor(c / p.boxW));
        if (same) mask &= ~(1 << (p.givens[j] - 1));
      }
    }
    const k = popcount(mask >>> 0);
    const share = k ? Math.fround(Math.log(1 / k)) : DEAD;
    for (let v = 0; v < n; v++) floats[at + v] = mask & (1 << v) ? share : DEAD;
    words[at + n] = chooseAction(floats, at, n, tieHash(seed, i, 0));
  }
  return { words, floats };
}

/** Peers of cell x: row, column, then the box cells off both (each once). */
function forPeers(p: SudokuPuzzle, x: number, f: (cell: number) => void): void {
  const n = p.n;
  const r = Math.floor(x / n);
  const c = x % n;
  for (let k = 0; k < n; k++) if (k !== c) f(r * n + k);
  for (let k = 0; k < n; k++) if (k !== r) f(k * n + c);
  const r0 = Math.floor(r / p.boxH) * p.boxH;
  const c0 = Math.floor(c / p.boxW) * p.boxW;
  for (let i = r0; i < r0 + p.boxH; i++) {
    if (i === r) continue;
    for (let j = c0; j < c0 + p.boxW; j++) if (j !== c) f(i * n + j);
  }
}

/** One time-step for all cells (CPU twin of ilca_step). Returns the next state and the cells not finalized. */
export function ilcaStep(p: SudokuPuzzle, s: IlcaState, table: Float32Array, seed: number, sr: number): { next: IlcaState; unfinished: number } {
  const n = p.n;
  const W = n + 1;
  const cells = n * n;
  const N = peerCount(p);
  const buf = new ArrayBuffer(cells * W * 4);
  const words = new Uint32Array(buf);
  const floats = new Float32Array(buf);
  words.set(s.words);
  const act = (i: number) => s.words[i * W + n] & 0xff;
  const degree = (i: number) => {
    const a = act(i);
    let d = 0;
    forPeers(p, i, (k) => (d += act(k) !== a ? 1 : 0));
    return d;
  };
  const SN = (n * (n + 1)) / 2;
  let unfinished = 0;
  for (let x = 0; x < cells; x++) {
    const at = x * W;
    const word = s.words[at + n];
    const c = word & 0xff;
    const step = (word >>> 8) & 0x7fffff;
    const d = degree(x);
    if (d !== N) unfinished++;
    if (word & GIVEN) continue;
    const t = step + 1;
    if (sr > 0 && t % sr === 0) {
      // Algorithm 3: selective probability reset
      const r = Math.floor(x / n);
      const col = x % n;
      let rowSum = 0;
      let colSum = 0;
      let boxSum = 0;
      for (let k = 0; k < n; k++) {
        rowSum += act(r * n + k);
        colSum += act(k * n + col);
      }
      const r0 = Math.floor(r / p.boxH) * p.boxH;
      const c0 = Math.floor(col / p.boxW) * p.boxW;
      for (let i = r0; i < r0 + p.boxH; i++) for (let j = c0; j < c0 + p.boxW; j++) boxSum += act(i * n + j);
      if (rowSum !== SN || colSum !== SN || boxSum !== SN) for (let v = 0; v < n; v++) floats[at + v] = floats[at + v] > DEAD_BELOW ? 0 : DEAD;
    } else {
      // Algorithm 1
      let reward = d === N;
      if (!reward) {
        let maxD = -1;
        forPeers(p, x, (k) => {
          if (act(k) === c) maxD = Math.max(maxD, degree(k));
        });
        reward = d > maxD;
      }
      const f = table[reward ? d : N + 1 + d];
      const cur = floats[at + c - 1];
      floats[at + c - 1] = f <= DEAD_BELOW || cur <= DEAD_BELOW ? DEAD : Math.min(0, Math.fround(cur + f));
    }
    words[at + n] = (chooseAction(floats, at, n, tieHash(seed, x, t), c) | (t << 8)) >>> 0;
  }
  return { next: { words, floats }, unfinished };
}

export function ilcaValues(p: SudokuPuzzle, s: IlcaState | Uint32Array): Uint8Array {
  const words = s instanceof Uint32Array ? s : s.words;
  const W = p.n + 1;
  return Uint8Array.from({ length: p.n * p.n }, (_, i) => words[i * W + p.n] & 0xff);
}

/** CPU run: steps until every cell is finalized (solved) or the cap. Steps count the initial choice as step 1. */
export function ilcaRunCpu(p: SudokuPuzzle, seed: number, params: IlcaParams): { solved: boolean; steps: number; values: Uint8Array } {
  const table = factorTable(p, params);
  let s = ilcaInitial(p, seed, params);
  for (let step = 1; step <= params.steps; step++) {
    const r = ilcaStep(p, s, table, seed, params.sr);
    if (r.unfinished === 0) return { solved: true, steps: step, values: ilcaValues(p, s) };
    s = r.next;
  }
  return { solved: false, steps: params.steps, values: ilcaValues(p, s) };
}

// ---- GPU ---------------------------------------------------------------------------------------------------------
export const ilcaRule: Rule = {
  name: 'sudoku-ilca',
  files: ['sudoku/ilca.wgsl'],
  entryPoints: ['ilca_step'],
  stateAccess: 'ping-pong',
  tracksCompletion: true,
};

export function ilcaInput(p: SudokuPuzzle, seed: number, params: IlcaParams): GridInput {
  if (p.regions || p.diagonal) throw new Error('the ILCA runs on rectangular-box sudoku only');
  const s = ilcaInitial(p, seed, params);
  return {
    width: p.n,
    height: p.n,
    items: Math.min(p.n * p.n, WORKGROUP_SIZE),
    state: s.words,
    aux: new Uint32Array(factorTable(p, params).buffer),
    params: [shapeParam(p), params.sr, seed >>> 0, peerCount(p)],
    maxGenerations: params.steps,
  };
}

export interface IlcaResult {
  solved: boolean;
  /** time-steps to the solution (the initial choice is step 1), or the cap */
  steps: number;
  values: Uint8Array;
  ms: number;
}

/** Runs every (puzzle, seed) pair as its own grid in one batch (or as many as the device needs). */
export async function runIlca(ctx: GpuContext, jobs: { puzzle: SudokuPuzzle; seed: number }[], params: IlcaParams, progress?: (done: number, total: number) => void): Promise<IlcaResult[]> {
  const results: IlcaResult[] = new Array(jobs.length);
  let next = 0;
  let done = 0;
  while (next < jobs.length) {
    const batch = await Batch.create(ctx, ilcaRule);
    try {
      const ids = new Map<number, number>();
      const t0 = performance.now();
      while (next < jobs.length) {
        const input = ilcaInput(jobs[next].puzzle, jobs[next].seed, params);
        if (!batch.canAdd(input)) break;
        ids.set(batch.add(input), next++);
      }
      const ended = new Map<number, number>();
      const outcomes = await batch.run({
        maxGenerations: params.steps,
        onChunk: (finished) => {
          for (const o of finished) ended.set(o.id, performance.now());
          done += finished.length;
          progress?.(done, jobs.length);
        },
      });
      const order = outcomes.map((o) => o.id);
      const states = await batch.readStates(order);
      outcomes.forEach((o, k) => {
        const j = ids.get(o.id)!;
        const solved = o.status === 'done';
        results[j] = {
          solved,
          steps: solved ? o.generations + 1 : params.steps,
          values: ilcaValues(jobs[j].puzzle, states[k]),
          ms: (ended.get(o.id) ?? performance.now()) - t0,
        };
      });
    } finally {
      batch.destroy();
    }
  }
  return results;
}
