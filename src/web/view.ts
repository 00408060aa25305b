// The view transform: which cell each canvas pixel shows. Held as a centre (in cells) and a scale (device pixels
// per cell); gl-matrix builds the cell->pixel matrix and its inverse, which the fragment shader applies to every
// pixel, so drawing stays exact (no texture, no resampling) at any zoom.
import { mat3, vec2 } from 'gl-matrix';

export class ViewTransform {
  /** centre of the canvas, in cell coordinates */
  centerX = 0;
  centerY = 0;
  /** device pixels per cell */
  pixelsPerCell = 1;
  /** canvas size in device pixels */
  canvasWidth = 1;
  canvasHeight = 1;

  private readonly cellToPixelMatrix = mat3.create();
  private readonly pixelToCellMatrix = mat3.create();

  static readonly MIN_PIXELS_PER_CELL = 1 / 64;
  static readonly MAX_PIXELS_PER_CELL = 256;

  resize(width: number, height: number): void {
    this.canvasWidth = Math.max(1, width);
    this.canvasHeight = Math.max(1, height);
  }

  /** Shows a whole width x height grid with a small margin, plus `extra` cells left of and above it (clues). */
  fit(width: number, height: number, extra: { left: number; top: number } = { left: 0, top: 0 }, margin = 0.04): void {
    const w = width + extra.left;
    const h = height + extra.top;
    this.centerX = w / 2 - extra.left;
    this.centerY = h / 2 - extra.top;
    const scale = Math.min(this.canvasWidth / w, this.canvasHeight / h) * (1 - 2 * margin);
    this.pixelsPerCell = clamp(scale, ViewTransform.MIN_PIXELS_PER_CELL, ViewTransform.MAX_PIXELS_PER_CELL);
  }

  /** Moves the picture by a drag of (dx, dy) device pixels. */
  pan(dx: number, dy: number): void {
    this.centerX -= dx / this.pixelsPerCell;
    this.centerY -= dy / this.pixelsPerCell;
  }

  /** Zooms by `factor` keeping the cell under device pixel (px, py) where it is. */
  zoomAt(px: number, py: number, factor: number): void {
    const before = this.pixelToCell(px, py);
    this.pixelsPerCell = clamp(this.pixelsPerCell * factor, ViewTransform.MIN_PIXELS_PER_CELL, ViewTransform.MAX_PIXELS_PER_CELL);
    const after = this.pixelToCell(px, py);
    this.centerX += before[0] - after[0];
    this.centerY += before[1] - after[1];
  }

  /** cell -> device pixel: translate to the canvas centre, scale, translate the view centre to the origin */
  cellToPixel(): mat3 {
    const m = this.cellToPixelMatrix;
    mat3.fromTranslation(m, [this.canvasWidth / 2, this.canvasHeight / 2]);
    mat3.scale(m, m, [this.pixelsPerCell, this.pixelsPerCell]);
    mat3.translate(m, m, [-this.centerX, -this.centerY]);
    return m;
  }

  pixelToCellMatrixNow(): mat3 {
    return mat3.invert(this.pixelToCellMatrix, this.cellToPixel())!;
  }

  pixelToCell(px: number, py: number): vec2 {
    return vec2.transformMat3(vec2.create(), [px, py], this.pixelToCellMatrixNow());
  }

  cellToPixelPoint(cx: number, cy: number): vec2 {
    return vec2.transformMat3(vec2.create(), [cx, cy], this.cellToPixel());
  }
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}
