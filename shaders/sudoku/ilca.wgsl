// The paper's Irregular Learning Cellular Automaton (seed 002, Algorithms 1 and 3, eq. 5-10) with one run
// (puzzle x seed) per invocation: every time-step of a run, up to the cap, inside the invocation; when its run is
// resolved or capped, an invocation takes the next run of the dispatch (an atomic counter), so no lane waits for
// the longest run. CPU twin and the choices where the paper is vague: src/puzzles/sudoku/ilca.ts.
//
// Why this shape on SwiftShader (the CPU Vulkan driver), measured against the former one-grid-per-workgroup,
// one-time-step-per-dispatch kernel (README, "ILCA"): no dispatch, readback or host work per time-step, no
// workgroup barrier or workgroup memory, and every lane busy (81 cells of a 9x9 grid left 47 of 128 invocations of
// two workgroups idle). The degree (eq. 5) of a cell is |N| minus the peers holding its action, counted on digit
// planes (a bit per cell of the cells holding each action) as popcount(peer mask & plane): a few words per cell
// instead of reading 20 peers.
//
// One pipeline per grid shape: N_SIDE (n), PLANE_WORDS (ceil(n*n / 32)) and PEERS (|N|) are override constants.

struct Params {
  // runs in this dispatch, and the index of its first run in the job list
  count: u32,
  firstJob: u32,
  // time-step cap (the paper: 250)
  steps: u32,
  // selective probability reset every sr steps (0 = never)
  sr: u32,
  // 1: capped weights (log P never above 0)
  capped: u32,
  // word offsets in `input`
  peersAt: u32,
  infoAt: u32,
  jobsAt: u32,
}

// input: f32 log r(d) for d = 0..PEERS then log p(d) (DEAD where p(d) <= 0), from word 0;
//   at peersAt, per cell PLANE_WORDS words: its peers' bits; at infoAt, per cell: row | column << 8 | region << 16;
//   per puzzle, per cell two words: its fixed value (a given, or a cell the elimination automaton solved) or 0,
//   then the mask of its live candidates; at jobsAt, per run: the word offset of its puzzle, its seed.
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<u32>;
// log P of every run of the dispatch: n floats per cell, cells in order
@group(0) @binding(2) var<storage, read_write> weights: array<f32>;
// per run, 1 + n*n words: steps | resolved << 31, then every cell's action
@group(0) @binding(3) var<storage, read_write> results: array<u32>;
// word 0: the next run to take
@group(0) @binding(4) var<storage, read_write> work: array<atomic<u32>>;

override WORKGROUP_SIZE: u32 = 4u;
override N_SIDE: u32 = 9u;
override PLANE_WORDS: u32 = 3u;
override PEERS: u32 = 20u;

const DEAD: f32 = -1e30;
const DEAD_BELOW: f32 = -1e29;
const GIVEN: u32 = 0x80000000u;
const RESOLVED: u32 = 0x80000000u;
// n <= 32
const MAX_CELLS: u32 = 1024u;
const MAX_PLANE_WORDS: u32 = 2048u;

// per cell: action | degree << 8 | GIVEN. The degree is the one of step t while the update loop writes the
// actions of step t + 1 over it (a later cell's reward reads its peers' degrees of step t).
var<private> cell: array<u32, MAX_CELLS>;
// two sets of digit planes (actions of step t, and of step t + 1 being written): plane a of a set at a * PLANE_WORDS
var<private> planes: array<u32, MAX_PLANE_WORDS>;
// Algorithm 3: unit sums (rows, columns, regions)
var<private> sums: array<u32, 96>;

fn hash32(v: u32) -> u32 {
  var x = v;
  x ^= x >> 16u;
  x *= 0x7feb352du;
  x ^= x >> 15u;
  x *= 0x846ca68bu;
  x ^= x >> 16u;
  return x;
}

fn tie_hash(seed: u32, x: u32, step: u32) -> u32 {
  return hash32(seed + hash32(x * 0x10001u + step * 0x9e3779b9u));
}

fn set_plane(planeSet: u32, action: u32, x: u32) {
  let w = planeSet + (action - 1u) * PLANE_WORDS + (x >> 5u);
  planes[w] |= 1u << (x & 31u);
}

// Definition 3: the most probable action; the current one when it is among them, else a tie broken by the hash
fn choose(at: u32, current: u32, h: u32) -> u32 {
  var best = weights[at];
  var count = 1u;
  for (var v = 1u; v < N_SIDE; v++) {
    let p = weights[at + v];
    if (p > best) {
      best = p;
      count = 1u;
    } else if (p == best) {
      count++;
    }
  }
  if (current != 0u && weights[at + current - 1u] == best) {
    return current;
  }
  var k = h % count;
  for (var v = 0u; v < N_SIDE; v++) {
    if (weights[at + v] == best) {
      if (k == 0u) {
        return v + 1u;
      }
      k--;
    }
  }
  return 1u;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn ilca_runs() {
  let cells = N_SIDE * N_SIDE;
  let setWords = N_SIDE * PLANE_WORDS;
  let sn = N_SIDE * (N_SIDE + 1u) / 2u;
  let stride = 1u + cells;
  var busy = false;
  var job = 0u;
  var seed = 0u;
  var base = 0u;
  // time-steps done, and the plane set of the current actions (0 or setWords)
  var t = 0u;
  var cur = 0u;
  loop {
    if (!busy) {
      job = atomicAdd(&work[0], 1u);
      if (job >= params.count) {
        break;
      }
      let j = params.jobsAt + 2u * (params.firstJob + job);
      let puzzleAt = input[j];
      seed = input[j + 1u];
      base = job * cells * N_SIDE;
      cur = 0u;
      t = 0u;
      busy = true;
      for (var w = 0u; w < setWords; w++) {
        planes[w] = 0u;
      }
      // the initial vector: a fixed cell weight 1 on its value, others weight 1 on each live candidate (log 0),
      // 0 (DEAD) on the rest; the initial action is a fixed value, or a live candidate drawn by the hash
      for (var x = 0u; x < cells; x++) {
        let fixed = input[puzzleAt + 2u * x];
        let at = base + x * N_SIDE;
        var action = fixed;
        if (fixed != 0u) {
          for (var v = 0u; v < N_SIDE; v++) {
            weights[at + v] = select(DEAD, 0.0, v + 1u == fixed);
          }
        } else {
          let mask = input[puzzleAt + 2u * x + 1u];
          for (var v = 0u; v < N_SIDE; v++) {
            weights[at + v] = select(DEAD, 0.0, (mask & (1u << v)) != 0u);
          }
          let live = countOneBits(mask);
          var k = tie_hash(seed, x, 0u) % select(N_SIDE, live, live != 0u);
          action = 1u;
          for (var v = 0u; v < N_SIDE; v++) {
            if (live == 0u || (mask & (1u << v)) != 0u) {
              if (k == 0u) {
                action = v + 1u;
                break;
              }
              k--;
            }
          }
        }
        cell[x] = action | select(0u, GIVEN, fixed != 0u);
        set_plane(0u, action, x);
      }
    }
    let out = job * stride;
    if (t >= params.steps) {
      results[out] = params.steps;
      for (var x = 0u; x < cells; x++) {
        results[out + 1u + x] = cell[x] & 0xffu;
      }
      busy = false;
      continue;
    }
    let step = t + 1u;
    // degrees (eq. 5) of step t: peers whose action differs
    var unfinished = 0u;
    for (var x = 0u; x < cells; x++) {
      let s = cell[x];
      let plane = cur + ((s & 0xffu) - 1u) * PLANE_WORDS;
      let peers = params.peersAt + x * PLANE_WORDS;
      var same = 0u;
      for (var w = 0u; w < PLANE_WORDS; w++) {
        same += countOneBits(input[peers + w] & planes[plane + w]);
      }
      let d = PEERS - same;
      cell[x] = (s & 0x800000ffu) | (d << 8u);
      unfinished += select(1u, 0u, same == 0u);
    }
    // Algorithm 1, lines 16-18: every cell's degree is |N|
    if (unfinished == 0u) {
      results[out] = step | RESOLVED;
      for (var x = 0u; x < cells; x++) {
        results[out + 1u + x] = cell[x] & 0xffu;
      }
      busy = false;
      continue;
    }
    let next = setWords - cur;
    for (var w = 0u; w < setWords; w++) {
      planes[next + w] = 0u;
    }
    // Algorithm 3 replaces Algorithm 1 at steps sr, 2sr, ...
    let reset = params.sr > 0u && step % params.sr == 0u;
    if (reset) {
      for (var u = 0u; u < 3u * N_SIDE; u++) {
        sums[u] = 0u;
      }
      for (var x = 0u; x < cells; x++) {
        let info = input[params.infoAt + x];
        let a = cell[x] & 0xffu;
        sums[info & 0xffu] += a;
        sums[N_SIDE + ((info >> 8u) & 0xffu)] += a;
        sums[2u * N_SIDE + (info >> 16u)] += a;
      }
    }
    for (var x = 0u; x < cells; x++) {
      let s = cell[x];
      let c = s & 0xffu;
      var action = c;
      if ((s & GIVEN) == 0u) {
        let at = base + x * N_SIDE;
        // the current action is the most probable one (it was chosen so): it stays so unless its weight drops
        // or the vector is reset
        var rescan = false;
        if (reset) {
          // Algorithm 3: a row, column or region off n(n+1)/2 (eq. 10) -> the initial vector again
          let info = input[params.infoAt + x];
          if (sums[info & 0xffu] != sn || sums[N_SIDE + ((info >> 8u) & 0xffu)] != sn || sums[2u * N_SIDE + (info >> 16u)] != sn) {
            for (var v = 0u; v < N_SIDE; v++) {
              weights[at + v] = select(DEAD, 0.0, weights[at + v] > DEAD_BELOW);
            }
            rescan = true;
          }
        } else {
          // Algorithm 1: reward when every peer differs, or when this cell's degree beats every same-action peer's
          let d = (s >> 8u) & 0xffu;
          var reward = d == PEERS;
          if (!reward) {
            var maxSame = 0u;
            let plane = cur + (c - 1u) * PLANE_WORDS;
            let peers = params.peersAt + x * PLANE_WORDS;
            for (var w = 0u; w < PLANE_WORDS; w++) {
              var m = input[peers + w] & planes[plane + w];
              while (m != 0u) {
                maxSame = max(maxSame, (cell[w * 32u + firstTrailingBit(m)] >> 8u) & 0xffu);
                m &= m - 1u;
              }
            }
            reward = d > maxSame;
          }
          let f = bitcast<f32>(input[select(PEERS + 1u + d, d, reward)]);
          let was = weights[at + c - 1u];
          var now = select(was + f, min(was + f, 0.0), params.capped != 0u);
          if (was <= DEAD_BELOW) {
            now = DEAD;
          } else if (f <= DEAD_BELOW) {
            // eq. 9 below 0 kills the action, except a cell's last live one (it stays at 100%)
            var live = 0u;
            for (var v = 0u; v < N_SIDE; v++) {
              live += select(0u, 1u, weights[at + v] > DEAD_BELOW);
            }
            now = select(DEAD, was, live == 1u);
          }
          weights[at + c - 1u] = now;
          rescan = now < was;
        }
        if (rescan) {
          action = choose(at, c, tie_hash(seed, x, step));
        }
        cell[x] = (s & 0xff00u) | action;
      }
      set_plane(next, action, x);
    }
    cur = next;
    t = step;
  }
}
