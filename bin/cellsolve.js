#!/usr/bin/env node
// Runs the TypeScript sources directly (tsx), so the CLI works from a fresh clone and from `npm pack` with no build.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
