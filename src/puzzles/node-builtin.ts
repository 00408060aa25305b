// Node's built-in modules for the kinds' Node-only paths (a file named by an option, worker threads), without a static
// `import 'node:...'`: the kinds load in the viewer's page too, where this gives undefined and vite bundles nothing.
export function nodeBuiltin<T>(name: string): T | undefined {
  return (globalThis as { process?: { getBuiltinModule?: (m: string) => unknown } }).process?.getBuiltinModule?.(name) as T | undefined;
}
