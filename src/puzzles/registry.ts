// Every puzzle kind, registered by one line each. Front ends find kinds only here.
import type { PuzzleKind } from './types.ts';

export const kinds: PuzzleKind<any>[] = [];

export function findKind(name: string): PuzzleKind<any> | undefined {
  return kinds.find((k) => k.name === name);
}
