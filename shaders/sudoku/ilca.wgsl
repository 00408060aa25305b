// The paper's Irregular Learning Cellular Automaton (seed 002, Algorithms 1 and 3, eq. 5-10), one time-step per
// generation, synchronous (ping-pong). CPU twin and the choices where the paper is vague:
// src/puzzles/sudoku/ilca.ts. Rectangular boxes only.
// State per cell: n f32 log-probabilities, then action | step << 8 | given << 31.
// aux: f32 log r(d) for d = 0..|N|, then log p(d) (DEAD where p(d) <= 0).
// param0: shape (n | boxW << 8 | boxH << 16), param1: sr | capped << 16 (log P never above 0), param2: seed,
// param3: |N| (peers per cell).
// Finalized cells (degree == |N|) raise nothing; others raise FLAG_CHANGED | FLAG_PENDING, so a grid whose
// every cell is finalized is `done` (Algorithm 1, line 16).

const DEAD: f32 = -1e30;
const DEAD_BELOW: f32 = -1e29;
const GIVEN: u32 = 0x80000000u;

var<private> base: u32;
var<private> n: u32;
var<private> boxW: u32;
var<private> boxH: u32;

fn act(i: u32) -> u32 {
  return src[base + i * (n + 1u) + n] & 0xffu;
}

// Degree (eq. 5): peers (row, column, box) whose action differs.
fn degree(x: u32) -> u32 {
  let r = x / n;
  let c = x % n;
  let a = act(x);
  var d = 0u;
  for (var k = 0u; k < n; k++) {
    if (k != c && act(r * n + k) != a) {
      d++;
    }
    if (k != r && act(k * n + c) != a) {
      d++;
    }
  }
  let r0 = (r / boxH) * boxH;
  let c0 = (c / boxW) * boxW;
  for (var i = r0; i < r0 + boxH; i++) {
    for (var j = c0; j < c0 + boxW; j++) {
      if (i != r && j != c && act(i * n + j) != a) {
        d++;
      }
    }
  }
  return d;
}

// The largest degree among peers that chose the same action as x (-1 when none did).
fn max_same_degree(x: u32, a: u32) -> i32 {
  let r = x / n;
  let c = x % n;
  var best = -1;
  for (var k = 0u; k < n; k++) {
    if (k != c && act(r * n + k) == a) {
      best = max(best, i32(degree(r * n + k)));
    }
    if (k != r && act(k * n + c) == a) {
      best = max(best, i32(degree(k * n + c)));
    }
  }
  let r0 = (r / boxH) * boxH;
  let c0 = (c / boxW) * boxW;
  for (var i = r0; i < r0 + boxH; i++) {
    for (var j = c0; j < c0 + boxW; j++) {
      if (i != r && j != c && act(i * n + j) == a) {
        best = max(best, i32(degree(i * n + j)));
      }
    }
  }
  return best;
}

fn hash32(v: u32) -> u32 {
  var x = v;
  x ^= x >> 16u;
  x *= 0x7feb352du;
  x ^= x >> 15u;
  x *= 0x846ca68bu;
  x ^= x >> 16u;
  return x;
}

fn tie_hash(seed: u32, cell: u32, step: u32) -> u32 {
  return hash32(seed + hash32(cell * 0x10001u + step * 0x9e3779b9u));
}

fn write_cell(at: u32, p: array<f32, 32>, word: u32) {
  for (var v = 0u; v < n; v++) {
    dst[at + v] = bitcast<u32>(p[v]);
  }
  dst[at + n] = word;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn ilca_step(@builtin(workgroup_id) workgroupId: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  let t = tile_index(workgroupId);
  if (t >= batch.tileCount) {
    return;
  }
  let tile = tiles[t];
  let g = grids[tile.grid];
  base = g.stateOffset;
  n = g.param0 & 0xffu;
  boxW = (g.param0 >> 8u) & 0xffu;
  boxH = (g.param0 >> 16u) & 0xffu;
  let sr = g.param1 & 0xffffu;
  let capped = (g.param1 & 0x10000u) != 0u;
  let seed = g.param2;
  let N = g.param3;
  let cells = n * n;
  let W = n + 1u;
  let sn = n * (n + 1u) / 2u;
  var flags = 0u;
  for (var x = tile.firstItem + localIndex; x < cells && tile.firstItem + localIndex < g.items; x += g.items) {
    let at = base + x * W;
    var p: array<f32, 32>;
    for (var v = 0u; v < n; v++) {
      p[v] = bitcast<f32>(src[at + v]);
    }
    let word = src[at + n];
    let c = word & 0xffu;
    let d = degree(x);
    if (d != N) {
      flags |= FLAG_CHANGED | FLAG_PENDING;
    }
    if ((word & GIVEN) != 0u) {
      write_cell(at, p, word);
      continue;
    }
    let step = ((word >> 8u) & 0x7fffffu) + 1u;
    if (sr > 0u && step % sr == 0u) {
      // Algorithm 3: row, column or box not summing to n(n+1)/2 -> the initial vector: live P back to 1, dead 0
      let r = x / n;
      let col = x % n;
      var rowSum = 0u;
      var colSum = 0u;
      var boxSum = 0u;
      for (var k = 0u; k < n; k++) {
        rowSum += act(r * n + k);
        colSum += act(k * n + col);
      }
      let r0 = (r / boxH) * boxH;
      let c0 = (col / boxW) * boxW;
      for (var i = r0; i < r0 + boxH; i++) {
        for (var j = c0; j < c0 + boxW; j++) {
          boxSum += act(i * n + j);
        }
      }
      if (rowSum != sn || colSum != sn || boxSum != sn) {
        for (var v = 0u; v < n; v++) {
          p[v] = select(DEAD, 0.0, p[v] > DEAD_BELOW);
        }
      }
    } else {
      // Algorithm 1: reward when every peer differs, or when this cell's degree beats every same-action peer's
      let reward = d == N || i32(d) > max_same_degree(x, c);
      let f = bitcast<f32>(aux[g.auxOffset + select(N + 1u + d, d, reward)]);
      let cur = p[c - 1u];
      var live = 0u;
      for (var v = 0u; v < n; v++) {
        live += select(0u, 1u, p[v] > DEAD_BELOW);
      }
      var next = select(cur + f, min(cur + f, 0.0), capped); // capped: probabilities saturate at 1 (log 0)
      if (f <= DEAD_BELOW) {
        next = select(DEAD, cur, live == 1u); // a lone live action stays at 100%
      }
      p[c - 1u] = select(next, DEAD, cur <= DEAD_BELOW);
    }
    // Definition 3: the new action is the most probable one; the current one if it is among them, else a tie
    // broken by the hash
    var best = p[0];
    var count = 1u;
    for (var v = 1u; v < n; v++) {
      if (p[v] > best) {
        best = p[v];
        count = 1u;
      } else if (p[v] == best) {
        count++;
      }
    }
    var k = tie_hash(seed, x, step) % count;
    var chosen = 1u;
    if (p[c - 1u] == best) {
      count = 0u; // keep the current action when it is among the best
      chosen = c;
    }
    for (var v = 0u; v < n && count > 0u; v++) {
      if (p[v] == best) {
        if (k == 0u) {
          chosen = v + 1u;
          break;
        }
        k--;
      }
    }
    write_cell(at, p, chosen | (step << 8u));
  }
  report_flags(t, localIndex, flags);
}
