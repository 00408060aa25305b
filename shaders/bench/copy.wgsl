// The practical streaming limit for kernels on a device: read one u32, write one u32, nothing else.
// Benchmarks compare a rule's effective bytes/s with this (bench/_copy-kernel.ts).
override WORKGROUP_SIZE: u32 = 64u;

@group(0) @binding(0) var<storage, read> copySrc: array<u32>;
@group(0) @binding(1) var<storage, read_write> copyDst: array<u32>;
@group(0) @binding(2) var<uniform> copyWidth: u32;  // workgroups along x

@compute @workgroup_size(WORKGROUP_SIZE)
fn copy_words(@builtin(global_invocation_id) id: vec3u) {
  let i = id.x + id.y * copyWidth * WORKGROUP_SIZE;
  if (i < arrayLength(&copySrc)) {
    copyDst[i] = copySrc[i];
  }
}
