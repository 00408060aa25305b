// What a viewer registration (kinds.ts) gives the page, and the helpers registrations share: reading and verifying
// through the command line's registered kinds (src/puzzles/registry.ts).
import type { GridOutcome } from '../engine/batch.ts';
import type { GridInput, Rule } from '../engine/rule.ts';
import type { PuzzleRecord } from '../puzzles/types.ts';
import type { CountSpec } from './counter.ts';

export interface Judgement {
  status: 'solved' | 'multiple' | 'stuck' | 'contradiction' | 'no path' | 'still' | 'unsolved' | 'error';
  detail: string;
  /**
   * generations as the rule's own state counts them, when the engine's count differs (multi-generation
   * dispatches that stop early at a fixpoint count whole dispatches in the engine)
   */
  generations?: number;
  /** new drawing data (e.g. the path found, for a palette that cannot see it in the state) */
  renderAux?: Uint32Array;
}

/** One puzzle (or pattern) ready to run: the engine's rule and grid, plus what the drawing needs. */
export interface LoadedPuzzle {
  kind: ViewerKind;
  title: string;
  /** puzzles in the input it came from: with more than one, the viewer offers the others */
  puzzlesInInput?: number;
  /** cells drawn */
  width: number;
  height: number;
  rule: Rule;
  input: GridInput;
  /** palette files when they differ by method (else the kind's) */
  shaders?: string[];
  /** kind-specific u32 x 4 for the palette shader (view.params) */
  renderParams?: number[];
  /** static drawing data (walls, clues) for the palette shader's `aux` */
  renderAux?: Uint32Array;
  /** what the plotted counter means; with no `count`, the engine's rule counter (report_count) is plotted */
  counterLabel?: string;
  /** a count pass of the viewer's own over the state (shaders/render/count.wgsl), for rules that report none */
  count?: Omit<CountSpec, 'width' | 'height'>;
  /**
   * When the automaton stalls: the command line's complete method for this kind, run through the registry on the
   * GPU (probing and branching in its own batch), and the grid input that shows its solution in this rule's state
   * layout, so the same palette draws the finished puzzle.
   */
  complete?: { kind: string; method: string; puzzle: unknown; input(solution: string): GridInput };
  /** back to generation 0: undo what judge() changed in the drawing */
  reset?(): void;
  /** names a finished grid from its final state (kinds verify solutions with their CPU verifier here) */
  judge(outcome: GridOutcome, state: Uint32Array): Judgement;
  /** room (in cells) to keep left of and above the grid when fitting it to the canvas (nonogram clues) */
  fitMargin?: { left: number; top: number };
  /** text drawn over the grid (nonogram clues); cellToCss maps cell coordinates to CSS pixels of the canvas */
  overlay?(g: CanvasRenderingContext2D, cellToCss: (x: number, y: number) => [number, number], cssPerCell: number): void;
}

export interface Sample {
  /** shown in the menu */
  label: string;
  /** file name under samples/web/ */
  file: string;
}

export interface ViewerKind {
  name: string;
  /** palette file(s) under shaders/, joined after render/common.wgsl */
  shaders: string[];
  methods: string[];
  defaultMethod: string;
  samples: Sample[];
  /** does this input look like this kind's (extension or content)? used when the kind is 'auto' */
  detect(fileName: string, bytes: Uint8Array): boolean;
  /** reads puzzle `index` (default 0) of one input; throws an Error whose message names line and column, as the
   * command line does */
  load(bytes: Uint8Array, fileName: string, method: string, index?: number): LoadedPuzzle;
  /** a random start (Life soup, generated puzzle), when the kind can make one */
  random?(width: number, height: number, seed: number, method: string): LoadedPuzzle;
}

export const textOf = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

// The command line's own kinds (src/puzzles/registry.ts), loaded once at start-up, apart from the viewer's code: a
// kind whose command-line side cannot load in a browser then costs only itself (the viewer falls back to the
// kind's codec), never the whole page.
let registry: typeof import('../puzzles/registry.ts') | null = null;

export async function loadRegistry(): Promise<void> {
  try {
    registry = await import('../puzzles/registry.ts');
  } catch (e) {
    console.warn(`cellsolve viewer: the kind registry did not load in this browser (${(e as Error).message}); using the kinds' codecs directly`);
  }
}

/** the kinds the command line has registered, as loaded in this page */
export function registeredKindNames(): string[] {
  return registry?.kinds.map((k) => k.name) ?? [];
}

/**
 * Reads an input as `cellsolve solve KIND` does (the registered kind's parse: same format detection, same errors),
 * or with `codec` when the kind is not registered (yet).
 */
export function parseAsCli<P>(kind: string, bytes: Uint8Array, file: string, codec: () => PuzzleRecord<P>[]): PuzzleRecord<P>[] {
  const registered = registry?.findKind(kind);
  return registered ? (registered.parse(bytes, file, {}) as PuzzleRecord<P>[]) : codec();
}

/** The registered kind, when the registry loaded and has it. */
export function registeredKind(name: string) {
  return registry?.findKind(name);
}

/** The registered kind's CPU verifier, else `own`. */
export function verifyAsCli<P>(kind: string, puzzle: P, solution: string, own: (p: P, s: string) => boolean): boolean {
  const registered = registry?.findKind(kind);
  return registered ? registered.verify(puzzle, solution) : own(puzzle, solution);
}

/** The first record of an input as a puzzle, or its error (line and column) thrown. */
/** Puzzle `index` of an input's records, its title saying which of how many. */
export function nthPuzzle<P>(records: PuzzleRecord<P>[], fileName: string, what: string, index = 0): { puzzle: P; title: string; count: number } {
  if (records.length === 0) throw new Error(`${fileName}: no ${what} in this input`);
  const r = records[index];
  if (!r) throw new Error(`${fileName}: no ${what} ${index + 1} (the input holds ${records.length})`);
  if (r.error || r.puzzle === undefined) throw new Error(r.error ?? `${fileName}: unreadable ${what}`);
  return { puzzle: r.puzzle, title: records.length > 1 ? `${fileName} (${index + 1} of ${records.length})` : fileName, count: records.length };
}
