// Sudoku generation (`cellsolve gen sudoku --size 9 --clues 25`): a random complete grid from the CPU solver with
// shuffled candidate order, then clues removed in random order while the solution stays unique (blog 001: "I
// considered each of the remaining values and questioned whether hiding the cell would result in the puzzle having
// multiple solutions"). Graded by the rules the elimination automaton needed (its CPU twin, same generations).
import { attemptsFor, rng } from '../random.ts';
import { caRun, defaultBox, gridString, RULE_HIDDEN, RULE_LOCKED, RULE_NAKED, solveCpu, type SudokuPuzzle } from './reference.ts';

export function emptyPuzzle(n: number, boxW?: number, boxH?: number, diagonal = false): SudokuPuzzle {
  const box = boxW && boxH ? { boxW, boxH } : defaultBox(n);
  if (!box) throw new Error(`a ${n}x${n} sudoku has no box shape; give --box`);
  return { n, ...box, diagonal, givens: new Uint8Array(n * n) };
}

/** A uniformly shuffled search's first complete grid. */
export function randomSolution(shape: SudokuPuzzle, random: () => number): Uint8Array {
  const r = solveCpu({ ...shape, givens: new Uint8Array(shape.n * shape.n) }, 1, (k) => Math.floor(random() * k));
  if (!r.solutions.length) throw new Error('no complete grid for this shape');
  return r.solutions[0];
}

export type Grade = 'naked-singles' | 'hidden-singles' | 'locked-candidates' | 'guessing';

/** The easiest rule set under which the automaton alone solves the puzzle, and the generations it took. */
export function grade(p: SudokuPuzzle): { grade: Grade; generations: number } {
  const sets: [Grade, number][] = [
    ['naked-singles', RULE_NAKED],
    ['hidden-singles', RULE_NAKED | RULE_HIDDEN],
    ['locked-candidates', RULE_NAKED | RULE_HIDDEN | RULE_LOCKED],
  ];
  for (const [name, rules] of sets) {
    const r = caRun(p, rules);
    if (r.status === 'solved') return { grade: name, generations: r.generations };
  }
  return { grade: 'guessing', generations: caRun(p).generations };
}

export interface Generated {
  puzzle: SudokuPuzzle;
  solution: Uint8Array;
  clues: number;
  grade: Grade;
  generations: number;
  attempts: number;
}

/**
 * Search nodes a uniqueness check may take; past them the clue stays. Checks blow up as clues go: on 25x25 one took
 * 0.5 s at 303 clues and 32 s at 299, so an uncapped removal ran for minutes. A kept clue keeps the puzzle proven
 * unique (it is the puzzle of the last check that passed). With 200, `gen sudoku --size 25` takes 3 s (277 clues;
 * 500: 6 s, 279; 2,000: 19 s, 282), 16x16 0.6 s, and `--clues 22` on 9x9 gives the same puzzles as no cap.
 */
const CHECK_NODES = 200;

/**
 * A puzzle with exactly `clues` givens (or as few as the attempts reach) and a unique solution. Removal is
 * random; when a grid gets stuck above the target, a new grid is tried (up to `maxAttempts`: 200 for 9x9, 63 for
 * 16x16), and the fewest reached is kept.
 */
export function generate(shape: SudokuPuzzle, clues: number, seed: number, maxAttempts = attemptsFor(shape.n * shape.n, 81, 3)): Generated {
  const random = rng(seed);
  const cells = shape.n * shape.n;
  let best: Generated | null = null;
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const solution = randomSolution(shape, random);
    const givens = solution.slice();
    let count = cells;
    const order = Array.from({ length: cells }, (_, i) => i);
    for (let i = cells - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const cell of order) {
      if (count <= clues) break;
      const v = givens[cell];
      givens[cell] = 0;
      const check = solveCpu({ ...shape, givens }, 2, undefined, CHECK_NODES);
      if (check.capped || check.solutions.length !== 1) givens[cell] = v;
      else count--;
    }
    if (!best || count < best.clues) {
      const puzzle = { ...shape, givens: givens.slice(), io: undefined };
      const g = grade(puzzle);
      best = { puzzle, solution, clues: count, grade: g.grade, generations: g.generations, attempts: attempt };
    }
    if (count <= clues) break;
  }
  return best!;
}

/** `gen` output: a comment with seed, clues and grade, then the puzzle line (a valid input file). */
export function formatGenerated(g: Generated, seed: number): string {
  const p = g.puzzle;
  // a box shape other than the default is not in a line of symbols: the comment says how to read it back
  const d = defaultBox(p.n);
  const box = d && d.boxW === p.boxW && d.boxH === p.boxH ? '' : `, boxes ${p.boxW}x${p.boxH} (solve with --box ${p.boxW}x${p.boxH})`;
  return `# seed ${seed}, ${p.n}x${p.n}${box}, ${g.clues} clues, unique, grade: ${g.grade} (automaton generations: ${g.generations})\n${gridString(p.givens, '.')}`;
}

/** Random puzzles for tests: a complete grid with a fraction of cells kept, optionally with wrong clues. */
export function randomPuzzle(shape: SudokuPuzzle, keep: number, random: () => number, corrupt = 0): SudokuPuzzle {
  const solution = randomSolution(shape, random);
  const givens = Uint8Array.from(solution, (v) => (random() < keep ? v : 0));
  for (let k = 0; k < corrupt; k++) givens[Math.floor(random() * givens.length)] = 1 + Math.floor(random() * shape.n);
  return { ...shape, givens };
}
