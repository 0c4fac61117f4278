// Inline SVG bar charts for the HTML report: no scripts, no external files, so the report opens
// anywhere and can be archived as one file.

export interface Bar {
  readonly value: number;
  readonly series: number;
  /** An interval around the value, drawn as a whisker. */
  readonly low?: number;
  readonly high?: number;
}

export interface BarGroup {
  readonly label: string;
  readonly bars: readonly Bar[];
}

export interface BarChartSpec {
  readonly title: string;
  readonly groups: readonly BarGroup[];
  /** Legend, one name per series (index = Bar.series). */
  readonly series: readonly string[];
  readonly yMax: number;
  readonly yLabel: string;
  /** Format of the value printed above each bar. */
  readonly format?: (v: number) => string;
  /**
   * `page` (default): scaled to the width of the page. `natural`: drawn at its own size, for charts
   * too wide to read scaled down (the page puts them in a scrolling box).
   */
  readonly fit?: 'page' | 'natural';
}

const COLORS = ['#4c72b0', '#dd8452', '#55a868', '#c44e52', '#8172b3'];

export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Approximate width (px) of a label at `size`: enough to lay out legends without measuring. */
const textWidth = (text: string, size: number) => text.length * size * 0.6;

/**
 * One bar chart. It scales to the width of the page (a viewBox, width 100%), never narrower than
 * its content, and its legend wraps onto as many rows as its names need, so none is clipped.
 */
export function barChart(spec: BarChartSpec): string {
  const perGroup = Math.max(1, ...spec.groups.map((g) => g.bars.length));
  const barW = 26;
  const groupW = Math.max(perGroup * barW + 24, ...spec.groups.map((g) => textWidth(g.label, 10) + 12));
  const left = 52;
  const top = 34;
  const h = 180;
  const width = Math.max(720, left + spec.groups.length * groupW + 20, textWidth(spec.title, 13) + left);
  const legend = legendRows(spec.series, width - left - 10);
  const height = top + h + 30 + legend.length * 16 + 8;
  const fmt = spec.format ?? ((v: number) => String(Math.round(v * 100) / 100));
  const y = (v: number) => top + h - (spec.yMax > 0 ? (Math.min(v, spec.yMax) / spec.yMax) * h : 0);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${Math.ceil(width)} ${height}" ${size(spec.fit ?? 'page', Math.ceil(width), height)} role="img" aria-label="${escapeXml(spec.title)}">`,
    `<text x="${left}" y="18" font-size="13" font-weight="bold">${escapeXml(spec.title)}</text>`,
    `<line x1="${left}" y1="${top + h}" x2="${width - 10}" y2="${top + h}" stroke="#333"/>`,
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${top + h}" stroke="#333"/>`,
    `<text x="${left - 6}" y="${top + 4}" font-size="10" text-anchor="end">${escapeXml(fmt(spec.yMax))}</text>`,
    `<text x="${left - 6}" y="${top + h}" font-size="10" text-anchor="end">0</text>`,
    `<text x="12" y="${top + h / 2}" font-size="10" transform="rotate(-90 12 ${top + h / 2})" text-anchor="middle">${escapeXml(spec.yLabel)}</text>`,
  ];
  spec.groups.forEach((g, gi) => {
    const x0 = left + 12 + gi * groupW;
    g.bars.forEach((b, bi) => {
      const x = x0 + bi * barW;
      const yy = y(b.value);
      parts.push(
        `<rect x="${x}" y="${yy.toFixed(1)}" width="${barW - 4}" height="${(top + h - yy).toFixed(1)}" fill="${COLORS[b.series % COLORS.length]}"/>`,
      );
      const labelY = b.high === undefined ? yy : Math.min(yy, y(b.high));
      if (b.low !== undefined && b.high !== undefined) parts.push(whisker(x + (barW - 4) / 2, y(b.low), y(b.high)));
      parts.push(
        `<text x="${x + (barW - 4) / 2}" y="${(labelY - 3).toFixed(1)}" font-size="9" text-anchor="middle">${escapeXml(fmt(b.value))}</text>`,
      );
    });
    parts.push(
      `<text x="${x0 + (g.bars.length * barW) / 2}" y="${top + h + 14}" font-size="10" text-anchor="middle">${escapeXml(g.label)}</text>`,
    );
  });
  legend.forEach((row, r) => {
    for (const { name, index, x } of row) {
      const yy = top + h + 30 + r * 16;
      parts.push(`<rect x="${left + x}" y="${yy}" width="10" height="10" fill="${COLORS[index % COLORS.length]}"/>`);
      parts.push(`<text x="${left + x + 14}" y="${yy + 9}" font-size="10">${escapeXml(name)}</text>`);
    }
  });
  parts.push('</svg>');
  return parts.join('');
}

function size(fit: 'page' | 'natural', width: number, height: number): string {
  return fit === 'natural' ? `width="${width}" height="${height}"` : `width="100%" style="max-width:${Math.ceil(width * 1.4)}px"`;
}

/** A vertical interval with short caps, from y1 to y2 (pixels). */
function whisker(x: number, y1: number, y2: number): string {
  const cap = (yy: number) => `<line x1="${x - 4}" y1="${yy.toFixed(1)}" x2="${x + 4}" y2="${yy.toFixed(1)}" stroke="#222"/>`;
  return `<line x1="${x}" y1="${y1.toFixed(1)}" x2="${x}" y2="${y2.toFixed(1)}" stroke="#222"/>${cap(y1)}${cap(y2)}`;
}

/** Legend entries placed left to right, wrapping to a new row where the next would not fit. */
function legendRows(series: readonly string[], width: number): { name: string; index: number; x: number }[][] {
  const rows: { name: string; index: number; x: number }[][] = [[]];
  let x = 0;
  series.forEach((name, index) => {
    const w = 14 + textWidth(name, 10) + 18;
    if (x > 0 && x + w > width) {
      rows.push([]);
      x = 0;
    }
    rows[rows.length - 1]!.push({ name, index, x });
    x += w;
  });
  return rows;
}
