// Benchmark output shared by every bench: a human table on stdout, and with --json one object per case
// (CLI.md "Benchmark output"), also collected in bench-results/NAME.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import type { GpuContext } from '../src/gpu/context.ts';

export interface BenchArgs {
  json: boolean;
  quick: boolean;
  options: Record<string, string | boolean>;
}

export type BenchCase = Record<string, unknown> & { case: string };

export class BenchReport {
  private readonly cases: Record<string, unknown>[] = [];
  constructor(
    readonly bench: string,
    private readonly ctx: GpuContext,
    private readonly args: BenchArgs,
  ) {
    const a = ctx.adapter;
    process.stdout.write(`# bench ${bench} on ${a.description || a.device}${a.fallback ? ' (SwiftShader, CPU)' : ''}\n`);
  }

  /** Records a case; prints `label: value` pairs in the given order. */
  add(c: BenchCase, human: [string, string][]): void {
    const row = { bench: this.bench, adapter: this.ctx.adapter.description || this.ctx.adapter.device, ...c };
    this.cases.push(row);
    process.stdout.write(`${c.case.padEnd(26)} ${human.map(([k, v]) => `${k} ${v}`).join('  ')}\n`);
    if (this.args.json) process.stdout.write(JSON.stringify(row) + '\n');
  }

  save(): void {
    mkdirSync('bench-results', { recursive: true });
    writeFileSync(`bench-results/${this.bench}.json`, JSON.stringify(this.cases, null, 2) + '\n');
  }
}

export const fmt = (x: number, digits = 3) => (x >= 1e9 ? `${(x / 1e9).toPrecision(digits)}G` : x >= 1e6 ? `${(x / 1e6).toPrecision(digits)}M` : x >= 1e3 ? `${(x / 1e3).toPrecision(digits)}k` : x.toPrecision(digits));
