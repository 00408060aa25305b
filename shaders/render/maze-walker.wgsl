// The maze walker (thesis 3.1.2; src/puzzles/maze/pack.ts packWalker): 4 bits per cell, 8 cells per word, rows of
// ceil(width / 8) words. States: 0 wall, 1 path, 2 cross-road, 3 start, 4 walked, 5 walked cross-road, 6 fake,
// 7 exit. Walked cells are the walk (salient when zoomed out), fake cells the dead ends it backed out of.

fn cell_color(cell: vec2u, sub: vec2f) -> vec4f {
  let wordsPerRow = (view.gridSize.x + 7u) / 8u;
  let s = (state[view.stateOffset + cell.y * wordsPerRow + (cell.x >> 3u)] >> (4u * (cell.x & 7u))) & 15u;
  var c = vec4f(0.05, 0.055, 0.065, 1.0);                       // wall
  c = select(c, vec4f(0.92, 0.93, 0.95, 1.0), s == 1u);         // path
  c = select(c, vec4f(0.75, 0.8, 0.95, 1.0), s == 2u);          // cross-road
  c = select(c, vec4f(0.2, 0.9, 0.35, 3.0), s == 3u || s == 7u); // start, exit
  c = select(c, vec4f(1.0, 0.45, 0.1, 2.0), s == 4u);           // walked
  c = select(c, vec4f(1.0, 0.75, 0.2, 2.0), s == 5u);           // walked cross-road
  c = select(c, vec4f(0.25, 0.32, 0.45, 1.0), s == 6u);         // fake
  return c;
}
