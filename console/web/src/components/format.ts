// Number and text formatting shared by the pages, and the Wilson interval the gate tables show
// next to each success count (the report stores counts; the interval is derived here).

export function pct(x: number | null | undefined, digits = 0): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '—' : `${(x * 100).toFixed(digits)}%`;
}

export function num(x: number | null | undefined, digits = 2): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(digits);
}

/** A fitted threshold at three significant digits: 0.026 and 2e-7 both stay readable (toFixed would print 0.0000). */
export function threshold(x: number | null | undefined): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '—' : String(Number(x.toPrecision(3)));
}

/** A p-value at a precision that still tells 0.049 from 0.051, and tiny ones in exponent form. */
export function pValue(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return '—';
  return p < 0.001 ? p.toExponential(1) : p.toPrecision(2);
}

export function signed(x: number | null | undefined, digits = 2): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  return `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(digits)}`;
}

/** A difference of two rates in percentage points, e.g. "+12.5". Null (NaN in JSON) stays a dash. */
export function points(x: number | null | undefined, digits = 1): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '—' : signed(x * 100, digits);
}

export function shortSha(sha: string | null | undefined, n = 12): string {
  return sha ? sha.slice(0, n) : '—';
}

export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

/** Wilson score 95% interval of k successes in n. */
export function wilson(k: number, n: number, z = 1.96): { low: number; high: number } {
  if (n <= 0) return { low: 0, high: 1 };
  const p = k / n;
  const denom = 1 + (z * z) / n;
  const centre = p + (z * z) / (2 * n);
  const half = z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return { low: Math.max(0, (centre - half) / denom), high: Math.min(1, (centre + half) / denom) };
}

/** "7/20 (35%, 18–57%)": a count with its rate and Wilson interval. */
export function successes(k: number, n: number): string {
  if (n <= 0) return `${k}/${n}`;
  const ci = wilson(k, n);
  return `${k}/${n} (${pct(k / n)}, ${pct(ci.low)}–${pct(ci.high)})`;
}
