// What the command-line tests share: running bin/cellsolve.js, and scratch directories removed after each test.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/** Runs the CLI as a user would (from the repository root), stdin from `input`. */
export const runCli = (args: string[], input?: string, timeoutMs = 120_000) =>
  spawnSync('node', ['bin/cellsolve.js', ...args], { encoding: 'utf8', input, timeout: timeoutMs });

/** A fresh directory under the system's temp dir, removed when the calling test ends (pass or fail). */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
