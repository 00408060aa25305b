// The job side shared by the nonogram round kernels (lane.wgsl, cdcl.wgsl; host: src/puzzles/nonogram/rounds.ts):
// a job's record in `input`, its slot of scratch, its results.
//
// input: one word per job, the offset of its record: [width | height << 8 | variant << 16 | share << 24, clue table offset, slot, resume (0 or
// 1), rows' filled bits (height words), rows' empty bits (height words)]; a clue table is packClues' (pack.ts).
// results: RESULT_WORDS per job: RESULT_HEADER words (the status, then the kernel's seven counters), then two
// solutions as rows' filled bits (MAX_LINES words each); a suspended job has its status and nothing else.
// The host queues the next round before it reads the last (rounds.ts): a resumed job whose search ended in the round
// before comes back STATUS_GONE (word SLOT_ENDED of its slot says so), with nothing else.
const MAX_LINES: u32 = 32u;
const STATUS_GONE: u32 = 7u;
// suspended at a branch its slot's stack has no room for: it goes on once the host has made every slot deeper
const STATUS_DEEPER: u32 = 8u;

// Does a job with this status go on in a later round, its search kept in its slot?
fn goes_on(status: u32) -> bool {
  return status == STATUS_SUSPENDED || status == STATUS_DEEPER;
}
const SLOT_ENDED: u32 = 0u;
const RESULT_HEADER: u32 = 8u;
const RESULT_WORDS: u32 = 72u;  // RESULT_HEADER + 2 * MAX_LINES

var<private> width: u32;
var<private> height: u32;
var<private> clues: u32;
var<private> slotAt: u32;
// which of the kernel's searches the job runs (lane.wgsl: the branch score; cdcl.wgsl: the activity decay and first
// phase; rounds.ts runs more than one on hard puzzles)
var<private> variant: u32;
// the job's budget this round is the kernel's >> share (a puzzle's searches split its share of the round)
var<private> share: u32;

// Reads the job's record into width, height, clues and slotAt; returns the record's offset.
fn open_job(job: u32) -> u32 {
  let rec = input[job];
  width = input[rec] & 0xffu;
  height = (input[rec] >> 8u) & 0xffu;
  variant = (input[rec] >> 16u) & 0xffu;
  share = input[rec] >> 24u;
  clues = input[rec + 1u];
  slotAt = input[rec + 2u] * params.slotWords;
  if (input[rec + 3u] == 0u) { scratch[slotAt + SLOT_ENDED] = 0u; }
  return rec;
}

// A resumed job whose search has ended: its results say STATUS_GONE, and the kernel skips it.
fn job_gone(job: u32, rec: u32) -> bool {
  if (input[rec + 3u] == 0u || scratch[slotAt + SLOT_ENDED] == 0u) { return false; }
  results[job * RESULT_WORDS] = STATUS_GONE;
  return true;
}

// The job's results: its status and counters (counters[0] is the status, counters[1] its work so far), and the two
// solutions kept at `solutionsAt` in its slot. A suspended job's counters also go to its slot's words 1-7, for its
// next dispatch; its results carry them too, so the host counts every search's work, not only the answering one's.
fn close_job(job: u32, counters: array<u32, 8>, solutionsAt: u32) {
  let resultAt = job * RESULT_WORDS;
  results[resultAt] = counters[0];
  for (var x = 1u; x < RESULT_HEADER; x++) { results[resultAt + x] = counters[x]; }
  if (goes_on(counters[0])) {
    for (var x = 1u; x < RESULT_HEADER; x++) { scratch[slotAt + x] = counters[x]; }
    return;
  }
  scratch[slotAt + SLOT_ENDED] = 1u;
  for (var x = 0u; x < 2u * MAX_LINES; x++) { results[resultAt + RESULT_HEADER + x] = scratch[slotAt + solutionsAt + x]; }
}
