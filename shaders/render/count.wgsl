// The plot's counter: sums `count_item(i)` over a grid's items straight from the engine's state buffer (for rules
// that do not report the number themselves), so the live plot needs only a 4-byte readback, never the state.
// The kind's file, joined after this one, defines `fn count_item(i: u32) -> u32` (e.g. open cells in word i).

struct CountParams {
  stateOffset: u32,
  items: u32,
  width: u32,
  height: u32,
}

@group(0) @binding(0) var<uniform> counting: CountParams;
@group(0) @binding(1) var<storage, read> state: array<u32>;
@group(0) @binding(2) var<storage, read_write> total: array<atomic<u32>, 1>;

const COUNT_WORKGROUP: u32 = 256u;
// workgroups dispatched (host twin: COUNT_WORKGROUPS in src/web/counter.ts); each strides over the items
override COUNT_WORKGROUPS: u32 = 64u;

var<workgroup> workgroupSum: atomic<u32>;

@compute @workgroup_size(COUNT_WORKGROUP)
fn count_main(@builtin(global_invocation_id) id: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  var sum = 0u;
  for (var i = id.x; i < counting.items; i += COUNT_WORKGROUP * COUNT_WORKGROUPS) {
    sum += count_item(i);
  }
  if (sum != 0u) {
    atomicAdd(&workgroupSum, sum);
  }
  workgroupBarrier();
  if (localIndex == 0u) {
    let s = atomicLoad(&workgroupSum);
    if (s != 0u) {
      atomicAdd(&total[0], s);
    }
  }
}
