// State bindings of a rule that reads one generation and writes the next (the host swaps them per generation).
@group(1) @binding(0) var<storage, read> src: array<u32>;
@group(1) @binding(1) var<storage, read_write> dst: array<u32>;
