// Life patterns in and out: RLE (`x = W, y = H, rule = B3/S23` then runs of b/o/$ ending in !) and plain text
// (`.cells`: `!` comment lines, `.` dead, `O` or `*` alive). Errors name line and column.
import type { LifeGrid } from './reference.ts';

/** the largest grid a pattern or `life --size` may make (a byte per cell on the host) */
export const MAX_LIFE_CELLS = 1 << 30;

export class PatternError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    message: string,
  ) {
    super(`${file}:${line}:${column}: ${message}`);
  }
}

export function parsePattern(text: string, file = '-'): LifeGrid {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const header = lines.findIndex((l) => /^\s*x\s*=/.test(l));
  return header >= 0 ? parseRle(lines, header, file) : parsePlain(lines, file);
}

function parsePlain(lines: string[], file: string): LifeGrid {
  const rows: { text: string; line: number }[] = [];
  lines.forEach((text, i) => {
    if (text.startsWith('!') || text.startsWith('#')) return;
    rows.push({ text: text.replace(/\s+$/, ''), line: i + 1 });
  });
  while (rows.length && rows[rows.length - 1].text === '') rows.pop();
  while (rows.length && rows[0].text === '') rows.shift();
  if (rows.length === 0) throw new PatternError(file, 1, 1, 'empty pattern: expected RLE (x = .., y = ..) or plain text rows of . and O');
  const width = Math.max(...rows.map((r) => r.text.length), 1);
  const height = rows.length;
  const cells = new Uint8Array(width * height);
  rows.forEach((r, y) => {
    for (let x = 0; x < r.text.length; x++) {
      const ch = r.text[x];
      if (ch === 'O' || ch === '*' || ch === 'o') cells[y * width + x] = 1;
      else if (ch !== '.' && ch !== ' ') throw new PatternError(file, r.line, x + 1, `unexpected '${ch}' in a plain-text pattern (use . and O)`);
    }
  });
  return { width, height, cells };
}

function parseRle(lines: string[], header: number, file: string): LifeGrid {
  const h = lines[header];
  const m = /^\s*x\s*=\s*(\d+)\s*,\s*y\s*=\s*(\d+)\s*(?:,\s*rule\s*=\s*(\S+))?\s*$/i.exec(h);
  if (!m) throw new PatternError(file, header + 1, 1, `bad RLE header '${h.trim()}': expected 'x = W, y = H[, rule = B3/S23]'`);
  const width = Number(m[1]);
  const height = Number(m[2]);
  if (m[3] && !/^(b3\/s23|23\/3)$/i.test(m[3])) {
    throw new PatternError(file, header + 1, h.indexOf(m[3]) + 1, `rule '${m[3]}' is not supported (only B3/S23)`);
  }
  if (width < 1 || height < 1 || width * height > MAX_LIFE_CELLS) throw new PatternError(file, header + 1, 1, `pattern size ${width}x${height} is out of range`);
  const cells = new Uint8Array(width * height);
  let x = 0;
  let y = 0;
  let count = '';
  for (let li = header + 1; li < lines.length; li++) {
    const text = lines[li];
    if (text.startsWith('#')) continue;
    for (let ci = 0; ci < text.length; ci++) {
      const ch = text[ci];
      const at = () => new PatternError(file, li + 1, ci + 1, '');
      if (ch >= '0' && ch <= '9') {
        count += ch;
        continue;
      }
      const n = count === '' ? 1 : Number(count);
      count = '';
      if (ch === 'b' || ch === '.') x += n;
      else if (ch === 'o' || ch === 'A') {
        if (x + n > width || y >= height) {
          const e = at();
          throw new PatternError(file, e.line, e.column, `cells past the declared ${width}x${height} size`);
        }
        for (let k = 0; k < n; k++) cells[y * width + x + k] = 1;
        x += n;
      } else if (ch === '$') {
        y += n;
        x = 0;
      } else if (ch === '!') return { width, height, cells };
      else if (ch !== ' ' && ch !== '\t') throw new PatternError(file, li + 1, ci + 1, `unexpected '${ch}' in RLE (use digits, b, o, $ and !)`);
    }
  }
  return { width, height, cells };
}

export function formatPlain(grid: LifeGrid): string {
  const out: string[] = [];
  for (let y = 0; y < grid.height; y++) {
    let row = '';
    for (let x = 0; x < grid.width; x++) row += grid.cells[y * grid.width + x] ? 'O' : '.';
    out.push(row);
  }
  return out.join('\n') + '\n';
}
