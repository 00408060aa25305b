// First-fit allocator of u32 word ranges inside one growable buffer (state or aux of a batch).

export class RangeAllocator {
  /** free ranges, sorted by start, never adjacent */
  private free: { start: number; size: number }[] = [];
  /** words handed out so far at the top end (the high-water mark) */
  top = 0;

  alloc(size: number): number {
    if (size === 0) return 0;
    for (let i = 0; i < this.free.length; i++) {
      const r = this.free[i];
      if (r.size >= size) {
        const start = r.start;
        r.start += size;
        r.size -= size;
        if (r.size === 0) this.free.splice(i, 1);
        return start;
      }
    }
    const start = this.top;
    this.top += size;
    return start;
  }

  release(start: number, size: number): void {
    if (size === 0) return;
    let i = 0;
    while (i < this.free.length && this.free[i].start < start) i++;
    this.free.splice(i, 0, { start, size });
    // merge with neighbours so space is reused for larger grids
    if (i + 1 < this.free.length && this.free[i].start + this.free[i].size === this.free[i + 1].start) {
      this.free[i].size += this.free[i + 1].size;
      this.free.splice(i + 1, 1);
    }
    if (i > 0 && this.free[i - 1].start + this.free[i - 1].size === this.free[i].start) {
      this.free[i - 1].size += this.free[i].size;
      this.free.splice(i, 1);
      i--;
    }
    const last = this.free[this.free.length - 1];
    if (last && last.start + last.size === this.top) {
      this.top = last.start;
      this.free.pop();
    }
  }

  /** could `size` words be had without growing past `capacity`? */
  fits(size: number, capacity: number): boolean {
    if (this.top + size <= capacity) return true;
    return this.free.some((r) => r.size >= size);
  }
}
