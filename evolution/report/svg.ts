// Inline SVG bar charts for the HTML report: no scripts, no external files, so the report opens
// anywhere and can be archived as one file.

export interface Bar {
  readonly value: number;
  readonly series: number;
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
}

const COLORS = ['#4c72b0', '#dd8452', '#55a868', '#c44e52', '#8172b3'];

export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function barChart(spec: BarChartSpec): string {
  const perGroup = Math.max(1, ...spec.groups.map((g) => g.bars.length));
  const barW = 22;
  const groupW = perGroup * barW + 24;
  const left = 48;
  const top = 34;
  const h = 160;
  const width = Math.max(320, left + spec.groups.length * groupW + 20);
  const height = top + h + 60;
  const fmt = spec.format ?? ((v: number) => String(Math.round(v * 100) / 100));
  const y = (v: number) => top + h - (spec.yMax > 0 ? (Math.min(v, spec.yMax) / spec.yMax) * h : 0);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img" aria-label="${escapeXml(spec.title)}">`,
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
      parts.push(`<rect x="${x}" y="${yy.toFixed(1)}" width="${barW - 4}" height="${(top + h - yy).toFixed(1)}" fill="${COLORS[b.series % COLORS.length]}"/>`);
      parts.push(`<text x="${x + (barW - 4) / 2}" y="${(yy - 3).toFixed(1)}" font-size="9" text-anchor="middle">${escapeXml(fmt(b.value))}</text>`);
    });
    parts.push(`<text x="${x0 + (g.bars.length * barW) / 2}" y="${top + h + 14}" font-size="10" text-anchor="middle">${escapeXml(g.label)}</text>`);
  });
  spec.series.forEach((name, i) => {
    const x = left + i * 150;
    parts.push(`<rect x="${x}" y="${top + h + 30}" width="10" height="10" fill="${COLORS[i % COLORS.length]}"/>`);
    parts.push(`<text x="${x + 14}" y="${top + h + 39}" font-size="10">${escapeXml(name)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('');
}
