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
  // 1: settle the deferred rewards at the end of a run (the weights are read back)
  settle: u32,
  // word offsets in `input`
  peersAt: u32,
  infoAt: u32,
  jobsAt: u32,
  _pad0: u32,
  _pad1: u32,
  _pad2: u32,
}

// input: f32 log r(d) for d = 0..PEERS then log p(d) (DEAD where p(d) <= 0), from word 0;
//   at peersAt, per cell PLANE_WORDS words: its peers' bits; at infoAt, per cell: row | column << 8 | region << 16;
//   per puzzle, per cell two words: its fixed value (a given, or a cell the elimination automaton solved) or 0,
//   then the mask of its live candidates; at jobsAt, per run: the word offset of its puzzle, its seed.
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<u32>;
// log P of every run of the dispatch: n floats per cell, cells in order
@group(0) @binding(2) var<storage, read_write> weights: array<f32>;
// per run, 1 + n*n words: steps | ended << 30 | resolved << 31, then every cell's action
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
const ENDED: u32 = 0x40000000u;
// n <= 32
const MAX_CELLS: u32 = 1024u;

// per cell: action | same << 8 | since << 16 | GIVEN, where `same` counts the peers holding the same action (degree
// = |N| - same) and `since` is below
var<private> cell: array<u32, MAX_CELLS>;
// digit planes: the bits of the cells holding action a at (a - 1) * PLANE_WORDS
var<private> planes: array<u32, MAX_CELLS>;
// the bits of the cells not finalized (same > 0), the only ones Algorithm 1 has to visit (see `since`)
var<private> conflict: array<u32, 32>;
// A finalized cell (degree |N|) is rewarded with r(|N|) every step and keeps its action, so its rewards are
// deferred: `since` is the first step whose reward it has not received; they are added (the same f32 additions in
// the same order) when it next has to be visited: a conflict, a reset step, the end of the run. 15 bits: the host
// keeps the step cap below MAX_STEPS.
const SINCE: u32 = 0x7fff0000u;
// the bits of the cells that are not fixed (Algorithm 1 visits no given)
var<private> free: array<u32, 32>;
// the new actions of a time-step (cell | action << 16), applied once every cell has decided (synchronous updates)
var<private> changes: array<u32, MAX_CELLS>;
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

fn peer_word(x: u32, w: u32) -> u32 {
  return input[params.peersAt + x * PLANE_WORDS + w];
}

fn cell_bit(x: u32) -> u32 {
  return 1u << (x & 31u);
}

// Definition 3: the most probable action; the current one (its weight `currentWeight`) when it is among them, else
// a tie broken by the hash
fn choose(at: u32, current: u32, currentWeight: f32, h: u32) -> u32 {
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
  if (currentWeight == best) {
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

// The deferred rewards r(|N|) (log `f`) of steps since .. step - 1 (s: the cell's word) on the weight of x's action at `at` (a
// finalized cell's action stays the most probable: rewards never lower it; the host checks f >= 0). Returns it.
fn settle(at: u32, s: u32, step: u32, f: f32) -> f32 {
  let owed = step - ((s & SINCE) >> 16u);
  var w = weights[at];
  if (owed == 0u || w <= DEAD_BELOW || !(f > 0.0)) {
    return w;
  }
  if (params.capped != 0u) {
    for (var i = 0u; i < owed && w < 0.0; i++) {
      w = min(w + f, 0.0);
    }
  } else {
    for (var i = 0u; i < owed; i++) {
      w += f;
    }
  }
  weights[at] = w;
  return w;
}

// Cell y takes action b: the same-action counts of its peers and its own, the planes and the conflict bits.
fn change(y: u32, b: u32) {
  let s = cell[y];
  let a = s & 0xffu;
  for (var w = 0u; w < PLANE_WORDS; w++) {
    var m = peer_word(y, w) & planes[(a - 1u) * PLANE_WORDS + w];
    while (m != 0u) {
      let k = w * 32u + firstTrailingBit(m);
      m &= m - 1u;
      let sk = cell[k] - 0x100u;
      cell[k] = sk;
      if ((sk & 0xff00u) == 0u) {
        conflict[k >> 5u] &= ~cell_bit(k);
      }
    }
  }
  planes[(a - 1u) * PLANE_WORDS + (y >> 5u)] &= ~cell_bit(y);
  planes[(b - 1u) * PLANE_WORDS + (y >> 5u)] |= cell_bit(y);
  var same = 0u;
  for (var w = 0u; w < PLANE_WORDS; w++) {
    var m = peer_word(y, w) & planes[(b - 1u) * PLANE_WORDS + w];
    same += countOneBits(m);
    while (m != 0u) {
      let k = w * 32u + firstTrailingBit(m);
      m &= m - 1u;
      let sk = cell[k] + 0x100u;
      cell[k] = sk;
      if ((sk & 0xff00u) == 0x100u) {
        conflict[k >> 5u] |= cell_bit(k);
      }
    }
  }
  cell[y] = (s & (GIVEN | SINCE)) | b | (same << 8u);
  if (same == 0u) {
    conflict[y >> 5u] &= ~cell_bit(y);
  } else {
    conflict[y >> 5u] |= cell_bit(y);
  }
}

// A run ends (resolved at `step`, or capped): its result, and its weights settled to the last step done.
fn finish(job: u32, base: u32, word: u32, settleTo: u32) {
  let out = job * (1u + N_SIDE * N_SIDE);
  results[out] = word;
  for (var x = 0u; x < N_SIDE * N_SIDE; x++) {
    let s = cell[x];
    results[out + 1u + x] = s & 0xffu;
    if (params.settle != 0u && (s & GIVEN) == 0u) {
      settle(base + x * N_SIDE + (s & 0xffu) - 1u, s, settleTo, bitcast<f32>(input[PEERS]));
    }
  }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn ilca_runs() {
  let cells = N_SIDE * N_SIDE;
  let sn = N_SIDE * (N_SIDE + 1u) / 2u;
  // log r(|N|): a finalized cell's reward
  let rewardAll = bitcast<f32>(input[PEERS]);
  var busy = false;
  var job = 0u;
  var seed = 0u;
  var base = 0u;
  // time-steps done
  var t = 0u;
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
      t = 0u;
      busy = true;
      for (var w = 0u; w < N_SIDE * PLANE_WORDS; w++) {
        planes[w] = 0u;
      }
      for (var w = 0u; w < PLANE_WORDS; w++) {
        conflict[w] = 0u;
        free[w] = 0u;
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
        cell[x] = action | (1u << 16u) | select(0u, GIVEN, fixed != 0u);
        if (fixed == 0u) {
          free[x >> 5u] |= cell_bit(x);
        }
        planes[(action - 1u) * PLANE_WORDS + (x >> 5u)] |= cell_bit(x);
      }
      for (var x = 0u; x < cells; x++) {
        let plane = ((cell[x] & 0xffu) - 1u) * PLANE_WORDS;
        var same = 0u;
        for (var w = 0u; w < PLANE_WORDS; w++) {
          same += countOneBits(peer_word(x, w) & planes[plane + w]);
        }
        cell[x] |= same << 8u;
        if (same != 0u) {
          conflict[x >> 5u] |= cell_bit(x);
        }
      }
    }
    if (t >= params.steps) {
      finish(job, base, params.steps | ENDED, t + 1u);
      busy = false;
      continue;
    }
    let step = t + 1u;
    // Algorithm 1, lines 16-18: every cell's degree (eq. 5) is |N|
    var open = 0u;
    for (var w = 0u; w < PLANE_WORDS; w++) {
      open |= conflict[w];
    }
    if (open == 0u) {
      finish(job, base, step | RESOLVED | ENDED, step);
      busy = false;
      continue;
    }
    var changed = 0u;
    if (params.sr > 0u && step % params.sr == 0u) {
      // Algorithm 3 replaces Algorithm 1 at steps sr, 2sr, ...: a cell of a row, column or region off n(n+1)/2
      // (eq. 10) goes back to the initial vector (live P back to 1, dead 0); every cell is visited
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
      for (var x = 0u; x < cells; x++) {
        let s = cell[x];
        if ((s & GIVEN) != 0u) {
          continue;
        }
        let c = s & 0xffu;
        let at = base + x * N_SIDE;
        let was = settle(at + c - 1u, s, step, rewardAll);
        cell[x] = (s & ~SINCE) | ((step + 1u) << 16u);
        let info = input[params.infoAt + x];
        if (sums[info & 0xffu] != sn || sums[N_SIDE + ((info >> 8u) & 0xffu)] != sn || sums[2u * N_SIDE + (info >> 16u)] != sn) {
          for (var v = 0u; v < N_SIDE; v++) {
            weights[at + v] = select(DEAD, 0.0, weights[at + v] > DEAD_BELOW);
          }
          let action = choose(at, c, select(DEAD, 0.0, was > DEAD_BELOW), tie_hash(seed, x, step));
          if (action != c) {
            changes[changed] = x | (action << 16u);
            changed++;
          }
        }
      }
    } else {
      // Algorithm 1 on the cells not finalized: reward when this cell's degree beats every same-action peer's
      // (fewer same-action peers than each of them has), else penalty
      // one pass over the words of the conflict bits, givens left out (lanes step through their own cells
      // together: SwiftShader runs the four lanes of a group in lock-step)
      var w = 0u;
      var todo = conflict[0] & free[0];
      loop {
        while (todo == 0u && w + 1u < PLANE_WORDS) {
          w++;
          todo = conflict[w] & free[w];
        }
        if (todo == 0u) {
          break;
        }
        let x = w * 32u + firstTrailingBit(todo);
        todo &= todo - 1u;
        let s = cell[x];
        let c = s & 0xffu;
        let same = (s >> 8u) & 0xffu;
        let at = base + x * N_SIDE;
        let was = settle(at + c - 1u, s, step, rewardAll);
        cell[x] = (s & ~SINCE) | ((step + 1u) << 16u);
        var fewest = 0xffu;
        for (var w2 = 0u; w2 < PLANE_WORDS; w2++) {
          var m = peer_word(x, w2) & planes[(c - 1u) * PLANE_WORDS + w2];
          while (m != 0u) {
            fewest = min(fewest, (cell[w2 * 32u + firstTrailingBit(m)] >> 8u) & 0xffu);
            m &= m - 1u;
          }
        }
        let d = PEERS - same;
        let f = bitcast<f32>(input[select(PEERS + 1u + d, d, same < fewest)]);
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
        // the current action was the most probable one: it stays so unless its weight dropped
        if (now < was) {
          let action = choose(at, c, now, tie_hash(seed, x, step));
          if (action != c) {
            changes[changed] = x | (action << 16u);
            changed++;
          }
        }
      }
    }
    for (var i = 0u; i < changed; i++) {
      change(changes[i] & 0xffffu, changes[i] >> 16u);
    }
    t = step;
  }
}
