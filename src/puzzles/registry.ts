// Every puzzle kind, registered by one line each. Front ends find kinds only here.
import type { PuzzleKind } from './types.ts';
import { mazeKind } from './maze/index.ts';
import { sudoku } from './sudoku/index.ts';
import { binary } from './binary/index.ts';
import { nonogram } from './nonogram/index.ts';

export const kinds: PuzzleKind<any>[] = [sudoku, mazeKind, binary, nonogram];

export function findKind(name: string): PuzzleKind<any> | undefined {
  return kinds.find((k) => k.name === name);
}
