// The overview's figures: per perturbation, the three governance arms per task (grouped bars with
// their intervals), synergy per task and macro with its paired-bootstrap interval, the final system
// beside the default, and campaigns' held-out parent → candidate success rates as arrows.
import * as Plot from '@observablehq/plot';
import type { ArmFigures, PairFigures } from '../../../contract';
import { pct, points } from './format';

const ARMS = [
  { key: 'policy', label: 'policy alone', color: '#9aa5b1' },
  { key: 'critic', label: 'critic alone', color: '#d69e2e' },
  { key: 'both', label: 'both', color: '#2f6fb0' },
] as const;

/** Room for the longest of these labels at Plot's 10px font. */
export function labelMargin(labels: readonly string[], min = 80): number {
  return Math.min(320, Math.max(min, 12 + 6 * Math.max(0, ...labels.map((l) => l.length))));
}

/** Per task (rows, in the run's order) the three arms as horizontal bars with their intervals. */
export function armsPlot(tasks: Readonly<Record<string, ArmFigures>>, width: number): Element | null {
  const order = Object.keys(tasks);
  const rows = Object.entries(tasks).flatMap(([task, f]) => ARMS.map((a) => ({ task, arm: a.label, ...f[a.key] })));
  if (rows.length === 0) return null;
  type Row = (typeof rows)[number];
  return Plot.plot({
    width,
    height: 70 + order.length * 40,
    marginLeft: labelMargin(order),
    fy: { label: null, domain: order, padding: 0.2, axis: 'left' },
    y: { axis: null, domain: ARMS.map((a) => a.label), padding: 0.08 },
    // percent: values are rates in [0, 1]; the domain is given in percent
    x: { domain: [0, 100], percent: true, label: 'success (%)', grid: true, axis: 'top' },
    color: { domain: ARMS.map((a) => a.label), range: ARMS.map((a) => a.color), legend: true },
    marks: [
      Plot.barX(rows, {
        fy: 'task',
        y: 'arm',
        x: 'value',
        fill: 'arm',
        title: (d: Row) => `${d.task}, ${d.arm}: ${pct(d.value)} (${pct(d.low)}–${pct(d.high)})`,
      }),
      Plot.ruleY(rows, { fy: 'task', y: 'arm', x1: 'low', x2: 'high', stroke: '#1f2933', strokeOpacity: 0.6 }),
      Plot.ruleX([0]),
    ],
  });
}

const FINAL_SERIES = [
  { label: 'policy alone', color: '#9aa5b1' },
  { label: 'default: both', color: '#7b8794' },
  { label: 'final: critic alone', color: '#d69e2e' },
  { label: 'final: both', color: '#2f6fb0' },
] as const;

/**
 * Per perturbation (rows), the final system beside the default at the same seeds: the policy alone,
 * the default's both arm, and the final system's critic alone and both, with their intervals.
 */
export function finalPlot(
  reference: Readonly<Record<string, ArmFigures>> | null,
  final: Readonly<Record<string, ArmFigures>>,
  width: number,
): Element | null {
  const order = Object.keys(final);
  const rows = order.flatMap((p) => {
    const f = final[p]!;
    const d = reference?.[p];
    return [
      { p, series: FINAL_SERIES[0].label, ...f.policy },
      ...(d ? [{ p, series: FINAL_SERIES[1].label, ...d.both }] : []),
      { p, series: FINAL_SERIES[2].label, ...f.critic },
      { p, series: FINAL_SERIES[3].label, ...f.both },
    ];
  });
  if (rows.length === 0) return null;
  type Row = (typeof rows)[number];
  const series = FINAL_SERIES.filter((s) => reference !== null || s.label !== 'default: both');
  return Plot.plot({
    width,
    height: 70 + order.length * 52,
    marginLeft: labelMargin(order),
    fy: { label: null, domain: order, padding: 0.2, axis: 'left' },
    y: { axis: null, domain: series.map((s) => s.label), padding: 0.08 },
    x: { domain: [0, 100], percent: true, label: 'macro success (%)', grid: true, axis: 'top' },
    color: { domain: series.map((s) => s.label), range: series.map((s) => s.color), legend: true },
    marks: [
      Plot.barX(rows, {
        fy: 'p',
        y: 'series',
        x: 'value',
        fill: 'series',
        title: (d: Row) => `${d.p}, ${d.series}: ${pct(d.value)} (${pct(d.low)}–${pct(d.high)})`,
      }),
      Plot.ruleY(rows, { fy: 'p', y: 'series', x1: 'low', x2: 'high', stroke: '#1f2933', strokeOpacity: 0.6 }),
      Plot.ruleX([0]),
    ],
  });
}

export function synergyPlot(tasks: Readonly<Record<string, ArmFigures>>, macro: ArmFigures, width: number): Element | null {
  const rows = [
    ...Object.entries(tasks).map(([task, f]) => ({ task, ...f.synergy, macro: false })),
    { task: 'macro', ...macro.synergy, macro: true },
  ];
  type Row = (typeof rows)[number];
  const extent = Math.max(0.1, ...rows.flatMap((r) => [Math.abs(r.low ?? 0), Math.abs(r.high ?? 0)]));
  return Plot.plot({
    width,
    height: 60 + rows.length * 22,
    marginLeft: labelMargin(rows.map((r) => r.task)),
    x: { domain: [-extent * 100, extent * 100], percent: true, label: 'synergy (points)', grid: true, axis: 'top' },
    y: { label: null, domain: rows.map((r) => r.task) },
    marks: [
      Plot.ruleX([0], { stroke: '#52606d' }),
      Plot.ruleY(rows, { y: 'task', x1: 'low', x2: 'high', stroke: (d: Row) => (d.macro ? '#1f2933' : '#7b8794'), strokeWidth: 2 }),
      Plot.dot(rows, {
        y: 'task',
        x: 'value',
        r: (d: Row) => (d.macro ? 5 : 3.5),
        fill: (d: Row) => ((d.value ?? 0) > 0 ? '#2f855a' : (d.value ?? 0) < 0 ? '#c05621' : '#7b8794'),
        title: (d: Row) => `${d.task}: ${points(d.value)} points (${points(d.low)} to ${points(d.high)})`,
      }),
    ],
  });
}

export interface CampaignFigures {
  readonly label: string;
  readonly heldout: PairFigures | null;
  readonly confirmation: PairFigures | null;
}

export function campaignArrowsPlot(campaigns: readonly CampaignFigures[], width: number): Element | null {
  const rows = campaigns.flatMap((c) =>
    (
      [
        ['held-out', c.heldout],
        ['confirmation', c.confirmation],
      ] as const
    ).flatMap(([set, f]) =>
      f && f.episodes > 0
        ? [
            {
              label: `${c.label} · ${set}`,
              from: f.parent_successes / f.episodes,
              to: f.candidate_successes / f.episodes,
              text: `${f.parent_successes} → ${f.candidate_successes} of ${f.episodes}`,
            },
          ]
        : [],
    ),
  );
  if (rows.length === 0) return null;
  type Row = (typeof rows)[number];
  return Plot.plot({
    width,
    height: 40 + rows.length * 26,
    marginLeft: labelMargin(rows.map((r) => r.label)),
    marginRight: 110,
    x: { domain: [0, 100], percent: true, label: 'success (%): parent → candidate', grid: true },
    y: { label: null, domain: rows.map((r) => r.label) },
    marks: [
      Plot.dot(rows, { y: 'label', x: 'from', fill: '#9aa5b1', r: 4 }),
      Plot.arrow(rows, {
        y1: 'label',
        y2: 'label',
        x1: 'from',
        x2: 'to',
        stroke: (d: Row) => (d.to >= d.from ? '#2f855a' : '#c05621'),
        headLength: 8,
      }),
      Plot.text(rows, { y: 'label', x: 1, text: 'text', textAnchor: 'start', dx: 8, frameAnchor: 'right' }),
    ],
  });
}
