// Unit walks of jigsaw grids (joined after lane.wgsl): regions read from their cell lists in `input`. Locked
// candidates (boxes against lines) do not apply; singles and the search stay complete.

const LOCKED_CANDIDATES: bool = false;

fn walk_first(w: vec4u) -> u32 {
  return select(w.x, input[min(w.w, arrayLength(&input) - 1u)], w.w != NO_LIST);
}

// The cell after x in a walk (j: its position in its run, updated; k: x's position in the unit).
fn walk_next(w: vec4u, x: u32, j: ptr<function, u32>, k: u32) -> u32 {
  *j += 1u;
  let wrap = *j == w.y;
  *j = select(*j, 0u, wrap);
  let listed = input[min(w.w + k + 1u, arrayLength(&input) - 1u)];
  return select(select(x + 1u, x + w.z, wrap), listed, w.w != NO_LIST);
}
