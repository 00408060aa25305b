// Unit walks of grids with rectangular boxes (joined after lane.wgsl): arithmetic only.

const LOCKED_CANDIDATES: bool = true;

fn walk_first(w: vec4u) -> u32 {
  return w.x;
}

// The cell after x in a walk (j: its position in its run, updated; k: x's position in the unit).
fn walk_next(w: vec4u, x: u32, j: ptr<function, u32>, k: u32) -> u32 {
  *j += 1u;
  let wrap = *j == w.y;
  *j = select(*j, 0u, wrap);
  return select(x + 1u, x + w.z, wrap);
}
