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

/** One bar of a grouped interval chart: its group (a row of the chart), its series, its rate and interval. */
interface IntervalBar {
  readonly group: string;
  readonly series: string;
  readonly value: number | null;
  readonly low: number | null;
  readonly high: number | null;
}

/** Horizontal bars with their intervals, grouped by row (`groups`, in order), one colour per series. */
function intervalBars(
  rows: readonly IntervalBar[],
  groups: readonly string[],
  series: readonly { readonly label: string; readonly color: string }[],
  o: { readonly width: number; readonly groupHeight: number; readonly xLabel: string },
): Element | null {
  if (rows.length === 0) return null;
  return Plot.plot({
    width: o.width,
    height: 70 + groups.length * o.groupHeight,
    marginLeft: labelMargin(groups),
    fy: { label: null, domain: groups, padding: 0.2, axis: 'left' },
    y: { axis: null, domain: series.map((s) => s.label), padding: 0.08 },
    // percent: values are rates in [0, 1]; the domain is given in percent
    x: { domain: [0, 100], percent: true, label: o.xLabel, grid: true, axis: 'top' },
    color: { domain: series.map((s) => s.label), range: series.map((s) => s.color), legend: true },
    marks: [
      Plot.barX(rows, {
        fy: 'group',
        y: 'series',
        x: 'value',
        fill: 'series',
        title: (d: IntervalBar) => `${d.group}, ${d.series}: ${pct(d.value)} (${pct(d.low)}–${pct(d.high)})`,
      }),
      Plot.ruleY(rows, { fy: 'group', y: 'series', x1: 'low', x2: 'high', stroke: '#1f2933', strokeOpacity: 0.6 }),
      Plot.ruleX([0]),
    ],
  });
}

/** Per task (rows, in the run's order) the three arms as horizontal bars with their intervals. */
export function armsPlot(tasks: Readonly<Record<string, ArmFigures>>, width: number): Element | null {
  const rows = Object.entries(tasks).flatMap(([group, f]) => ARMS.map((a) => ({ group, series: a.label, ...f[a.key] })));
  return intervalBars(rows, Object.keys(tasks), ARMS, { width, groupHeight: 40, xLabel: 'success (%)' });
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
  const rows = order.flatMap((group) => {
    const f = final[group]!;
    const d = reference?.[group];
    return [
      { group, series: FINAL_SERIES[0].label, ...f.policy },
      ...(d ? [{ group, series: FINAL_SERIES[1].label, ...d.both }] : []),
      { group, series: FINAL_SERIES[2].label, ...f.critic },
      { group, series: FINAL_SERIES[3].label, ...f.both },
    ];
  });
  const series = FINAL_SERIES.filter((s) => reference !== null || s.label !== 'default: both');
  return intervalBars(rows, order, series, { width, groupHeight: 52, xLabel: 'macro success (%)' });
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
