// The evidence figures, drawn with Observable Plot and shared by the skill, candidate and overview
// pages: parent vs candidate success rates on paired seeds (with Wilson intervals and the raw
// counts), and a shadow replay's triggers on targeted failures against false alarms on successes.
import * as Plot from '@observablehq/plot';
import { pValue, wilson } from './format';

export interface PairedSet {
  /** e.g. "held-out", "confirmation", a gate's name. */
  readonly set: string;
  readonly parent_successes: number;
  readonly candidate_successes: number;
  readonly episodes: number;
  readonly p_value?: number | null;
}

const SIDE_COLORS = { domain: ['parent', 'candidate'], range: ['#9aa5b1', '#2f6fb0'] };

/** Grouped bars: per set, the parent's and the candidate's success rate, "k/n" on each bar. */
export function pairedSuccessPlot(sets: readonly PairedSet[], width: number): Element | null {
  const rows = sets.flatMap((s) =>
    (['parent', 'candidate'] as const).map((side) => {
      const k = side === 'parent' ? s.parent_successes : s.candidate_successes;
      const ci = wilson(k, s.episodes);
      const label = s.p_value !== undefined && s.p_value !== null ? `${s.set} (p=${pValue(s.p_value)})` : s.set;
      return { set: label, side, k, n: s.episodes, rate: s.episodes > 0 ? k / s.episodes : 0, low: ci.low, high: ci.high };
    }),
  );
  if (rows.length === 0) return null;
  return Plot.plot({
    width,
    height: 260,
    marginTop: 28,
    fx: { label: null, padding: 0.2, domain: [...new Set(rows.map((r) => r.set))] },
    x: { axis: null, domain: SIDE_COLORS.domain, padding: 0.1 },
    // percent: values are rates in [0, 1], shown (and given a domain) in percent
    y: { domain: [0, 100], percent: true, label: 'successes (%)', grid: true },
    color: { ...SIDE_COLORS, legend: true },
    marks: [
      Plot.barY(rows, { fx: 'set', x: 'side', y: 'rate', fill: 'side', title: (d: (typeof rows)[number]) => `${d.side}: ${d.k}/${d.n}` }),
      Plot.ruleX(rows, { fx: 'set', x: 'side', y1: 'low', y2: 'high', stroke: '#1f2933', strokeWidth: 1.5 }),
      Plot.text(rows, { fx: 'set', x: 'side', y: 'high', text: (d: (typeof rows)[number]) => `${d.k}/${d.n}`, dy: -8, fontSize: 11 }),
      Plot.ruleY([0]),
    ],
  });
}

export interface ShadowCounts {
  readonly triggers: number;
  readonly targeted_failures: number;
  readonly false_alarms: number;
  readonly successes: number;
}

/** Horizontal bars: triggers out of targeted failures, false alarms out of successes. */
export function shadowPlot(shadow: ShadowCounts, width: number): Element {
  const rows = [
    { measure: 'triggers on targeted failures', count: shadow.triggers, of: shadow.targeted_failures, kind: 'trigger' },
    { measure: 'false alarms on successes', count: shadow.false_alarms, of: shadow.successes, kind: 'false alarm' },
  ];
  const max = Math.max(1, ...rows.map((r) => r.of), ...rows.map((r) => r.count));
  return Plot.plot({
    width,
    height: 130,
    marginLeft: 190,
    marginRight: 80,
    x: { domain: [0, max], label: 'episodes', grid: true, ticks: Math.min(max, 10), tickFormat: 'd' },
    y: { label: null },
    color: { domain: ['trigger', 'false alarm'], range: ['#2f855a', '#c05621'] },
    marks: [
      Plot.barX(rows, { y: 'measure', x: 'of', fill: '#e4e7eb' }),
      Plot.barX(rows, { y: 'measure', x: 'count', fill: 'kind', title: (d: (typeof rows)[number]) => `${d.count} of ${d.of}` }),
      Plot.text(rows, { y: 'measure', x: 'of', text: (d: (typeof rows)[number]) => `${d.count} of ${d.of}`, textAnchor: 'start', dx: 6 }),
      Plot.ruleX([0]),
    ],
  });
}

/** A shadow report in any of its spellings (report.json says `targeted`). */
export function shadowCounts(
  s: { triggers: number; targeted_failures?: number; targeted?: number; false_alarms: number; successes: number } | null | undefined,
): ShadowCounts | null {
  if (!s) return null;
  return {
    triggers: s.triggers,
    targeted_failures: s.targeted_failures ?? s.targeted ?? 0,
    false_alarms: s.false_alarms,
    successes: s.successes,
  };
}
