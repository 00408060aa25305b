// The viewer's drawing pass, shared by every kind: a full-screen triangle whose fragment shader maps each pixel to
// a cell through the view matrix (src/web/view.ts) and asks the kind's file, joined after this one, for the cell's
// colour with `fn cell_color(cell: vec2u, sub: vec2f) -> vec4f`. `state` is the engine's own packed state buffer
// (Batch.stateView), read in place: nothing is copied to the CPU to draw it.
//
// cell_color returns rgb plus a salience in .a: 1 for ordinary cells, more for cells that must stay visible when
// zoomed out (a solution path one cell wide among thousands per pixel). Zoomed out, the pixel shows the most salient
// of its samples, or their average when none stands out.

struct View {
  pixelToCell0: vec4f,   // columns of the 3x3 pixel -> cell matrix (xyz used)
  pixelToCell1: vec4f,
  pixelToCell2: vec4f,
  gridSize: vec2u,       // width, height in cells
  stateOffset: u32,      // first word of this grid in `state`
  auxOffset: u32,        // first word of this grid's drawing data in `aux`
  params: vec4u,         // kind-specific
  pixelsPerCell: f32,
  samplesPerAxis: u32,   // zoomed out: samples per pixel along each axis (1 while the view moves, to keep up)
  pad1: f32,
  pad2: f32,
}

@group(0) @binding(0) var<uniform> view: View;
@group(0) @binding(1) var<storage, read> state: array<u32>;
@group(0) @binding(2) var<storage, read> aux: array<u32>;

const BACKGROUND: vec4f = vec4f(0.11, 0.12, 0.14, 1.0);

@vertex
fn vs_fullscreen(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  var corners = array<vec2f, 3>(vec2f(-1.0, -1.0), vec2f(3.0, -1.0), vec2f(-1.0, 3.0));
  return vec4f(corners[i], 0.0, 1.0);
}

fn pixel_to_cell(p: vec2f) -> vec2f {
  let m = mat3x3f(view.pixelToCell0.xyz, view.pixelToCell1.xyz, view.pixelToCell2.xyz);
  return (m * vec3f(p, 1.0)).xy;
}

fn sample_cell(c: vec2f) -> vec4f {
  let size = vec2f(view.gridSize);
  let inside = all(c >= vec2f(0.0)) && all(c < size);
  // clamped so that outside pixels still read a valid cell; their colour is then discarded by the select
  let cell = vec2u(clamp(floor(c), vec2f(0.0), size - 1.0));
  return select(BACKGROUND, cell_color(cell, fract(c)), inside);
}

// A bit of a packed word array: bit i of word w (the engine's layouts are all little-endian within a word).
fn state_bit(word: u32, bit: u32) -> u32 {
  return (state[view.stateOffset + word] >> bit) & 1u;
}

// One sample per pixel: zoomed in, or zoomed out while the view moves. A separate entry point from the
// multi-sample one: software rasterisers (SwiftShader) run every instruction of a shader for every pixel, taken
// branch or not, so each pipeline carries only the code its pixels need.
@fragment
fn fs_cells(@builtin(position) position: vec4f) -> @location(0) vec4f {
  return vec4f(sample_cell(pixel_to_cell(position.xy)).rgb, 1.0);
}

// Zoomed out at rest: several cells per pixel, n x n samples spread over the pixel's footprint.
@fragment
fn fs_cells_multi(@builtin(position) position: vec4f) -> @location(0) vec4f {
  let n = view.samplesPerAxis;
  var sum = vec3f(0.0);
  var best = vec4f(0.0);
  for (var j = 0u; j < n; j++) {
    for (var i = 0u; i < n; i++) {
      let offset = (vec2f(f32(i), f32(j)) + 0.5) / f32(n) - 0.5;
      let c = sample_cell(pixel_to_cell(position.xy + offset));
      sum += c.rgb;
      if (c.a > best.a) {
        best = c;
      }
    }
  }
  if (best.a > 1.0) {
    return vec4f(best.rgb, 1.0);
  }
  return vec4f(sum / f32(n * n), 1.0);
}
