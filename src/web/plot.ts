// The live plot beside the grid: the rule's counter (unknown or fake-path cells left) per generation, drawn with a
// 2D canvas from the few points the status readbacks give; redrawn at most once per animation frame.

export class CounterPlot {
  private readonly g: CanvasRenderingContext2D;

  constructor(private readonly canvas: HTMLCanvasElement) {
    this.g = canvas.getContext('2d')!;
  }

  draw(points: { generation: number; value: number }[], label: string): void {
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(this.canvas.clientWidth * dpr));
    const h = Math.max(1, Math.round(this.canvas.clientHeight * dpr));
    if (this.canvas.width !== w || this.canvas.height !== h) {
      this.canvas.width = w;
      this.canvas.height = h;
    }
    const g = this.g;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    const cw = w / dpr;
    const ch = h / dpr;
    g.fillStyle = '#15171b';
    g.fillRect(0, 0, cw, ch);
    g.fillStyle = '#9aa3ad';
    g.font = '11px system-ui, sans-serif';
    g.fillText(label || 'no counter for this kind', 6, 13);
    if (points.length === 0) return;
    const pad = { left: 44, right: 8, top: 20, bottom: 18 };
    const maxGen = Math.max(1, points[points.length - 1].generation);
    const maxValue = Math.max(1, ...points.map((p) => p.value));
    const x = (gen: number) => pad.left + (gen / maxGen) * (cw - pad.left - pad.right);
    const y = (v: number) => ch - pad.bottom - (v / maxValue) * (ch - pad.top - pad.bottom);
    g.strokeStyle = '#3a3f47';
    g.beginPath();
    g.moveTo(pad.left, pad.top);
    g.lineTo(pad.left, ch - pad.bottom);
    g.lineTo(cw - pad.right, ch - pad.bottom);
    g.stroke();
    g.fillStyle = '#9aa3ad';
    g.fillText(compact(maxValue), 4, pad.top + 8);
    g.fillText('0', pad.left - 12, ch - pad.bottom);
    g.fillText(`gen ${compact(maxGen)}`, cw - pad.right - 60, ch - 4);
    g.strokeStyle = '#f0b429';
    g.lineWidth = 1.5;
    g.beginPath();
    points.forEach((p, i) => (i === 0 ? g.moveTo(x(p.generation), y(p.value)) : g.lineTo(x(p.generation), y(p.value))));
    g.stroke();
    // the latest value as a dot, so a lone first point (generation 0) shows too
    const last = points[points.length - 1];
    g.fillStyle = '#f0b429';
    g.beginPath();
    g.arc(x(last.generation), y(last.value), 2.5, 0, 2 * Math.PI);
    g.fill();
  }
}

function compact(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toPrecision(3)}M` : n >= 1e4 ? `${(n / 1e3).toPrecision(3)}k` : String(n);
}
