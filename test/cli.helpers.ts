// What the command-line tests share: running bin/cellsolve.js, and scratch directories removed after each test.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/** Runs the CLI as a user would (from the repository root), stdin from `input`. */
export const runCli = (args: string[], input?: string, timeoutMs = 120_000) =>
  spawnSync('node', ['bin/cellsolve.js', ...args], { encoding: 'utf8', input, timeout: timeoutMs });

/** Runs the CLI and sends it SIGINT (Ctrl-C) `afterReadyMs` after it says its pipelines are ready. */
export function runCliInterrupted(args: string[], input: string, afterReadyMs: number): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string; sentAt: number }> {
  const child = spawn('node', ['bin/cellsolve.js', ...args]);
  let stdout = '';
  let stderr = '';
  let sentAt = 0;
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => {
    stderr += d;
    if (/pipelines ready/.test(d)) setTimeout(() => ((sentAt = Date.now()), child.kill('SIGINT')), afterReadyMs);
  });
  child.stdin.end(input);
  return new Promise((done) => child.on('exit', (code, signal) => done({ code, signal, stdout, stderr, sentAt })));
}

/** A fresh directory under the system's temp dir, removed when the calling test ends (pass or fail). */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
