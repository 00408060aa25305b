// The engine's side of a lanes kernel (src/engine/lanes.ts): one job per invocation, taken from an atomic counter.
// Joined in front of the kernel's own file(s); the kernel declares `params` (binding 0, its own Params struct with
// `count`, the jobs of the chunk, first) and its entry point.

override WORKGROUP_SIZE: u32 = 4u;

// the kernel's jobs and where each one's results go (layouts are the kernel's)
@group(0) @binding(1) var<storage, read> input: array<u32>;
@group(0) @binding(2) var<storage, read_write> results: array<u32>;
// per invocation: the search stack
@group(0) @binding(3) var<storage, read_write> scratch: array<u32>;
// word 0: the next job of the chunk
@group(0) @binding(4) var<storage, read_write> work: array<atomic<u32>>;

// a search's outcome, the first word of its results (LANE_STATUS in lanes.ts)
const STATUS_SOLVED: u32 = 1u;
const STATUS_MULTIPLE: u32 = 2u;
const STATUS_CONTRADICTION: u32 = 3u;
const STATUS_DEPTH: u32 = 4u;      // past the stack: the host hands it to another solver
const STATUS_CAPPED: u32 = 5u;     // past the node cap: likewise
const STATUS_SUSPENDED: u32 = 6u;  // its share of the dispatch spent: its state waits in scratch for a later one

// the next job for this invocation; `params.count` or more: none left
fn next_job() -> u32 {
  return atomicAdd(&work[0], 1u);
}
