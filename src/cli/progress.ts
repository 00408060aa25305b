// A progress bar on stderr, only when stderr is a terminal (CLI.md: nothing extra when piped).
export function progressBar(label: string) {
  const active = Boolean(process.stderr.isTTY);
  let last = 0;
  return {
    active,
    update(done: number, total: number) {
      if (!active) return;
      const now = Date.now();
      if (now - last < 100 && done < total) return;
      last = now;
      const width = 30;
      const filled = Math.round((done / Math.max(total, 1)) * width);
      process.stderr.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
    },
    done() {
      if (active) process.stderr.write('\r\x1b[K');
    },
  };
}
