// An episode's timelines (data-testid="timeline"): an events strip (who drove each stretch, the
// critic's proposals, the governor's decisions, milestones) above one small plot per chosen
// feature, each on its own y scale and all on the same step axis, with recovery and hold stretches
// shaded and non-execute decisions ruled. The plots are drawn once per choice of features; the step
// cursor (and each feature's value at it) is an overlay the step slider moves, and a click on a
// plot seeks to that step.
import * as Plot from '@observablehq/plot';
import { useEffect, useRef } from 'preact/hooks';
import type { EpisodeStep } from '../../../contract';
import {
  DECISION_COLORS,
  SOURCE_COLORS,
  type DecisionMark,
  type EpisodeMarks,
  type MilestoneMark,
  type ProposalMark,
  type Segment,
} from './episode-marks';
import { plotWidth } from './plot-figure';

interface Row {
  readonly cursor: HTMLDivElement;
  readonly scale: Plot.Scale;
  readonly svgWidth: number;
  /** The feature this row plots and where its value at the cursor is written (none for events). */
  readonly feature: string | null;
  readonly value: HTMLSpanElement;
}

const MARGIN_LEFT = 76;

export function EpisodeTimeline({
  steps,
  marks,
  features,
  cursor,
  onSeek,
}: {
  steps: readonly EpisodeStep[];
  marks: EpisodeMarks;
  features: readonly string[];
  /** Index into steps. */
  cursor: number;
  onSeek: (index: number) => void;
}) {
  const container = useRef<HTMLDivElement>(null);
  const rows = useRef<Row[]>([]);
  const seek = useRef(onSeek);
  seek.current = onSeek;

  useEffect(() => {
    const el = container.current;
    if (!el || steps.length === 0) return;
    const width = plotWidth(1100);
    const domain: [number, number] = [steps[0]!.t, steps.at(-1)!.t + 1];
    const byT = (t: number) => {
      const i = steps.findIndex((s) => s.t >= t);
      seek.current(i < 0 ? steps.length - 1 : i);
    };
    const built = [
      mountRow(eventsPlot(marks, domain, width), width, null, byT),
      ...features.map((f) => mountRow(featurePlot(steps, marks, f, domain, width), width, f, byT)),
    ];
    rows.current = built.map((b) => b.row);
    el.replaceChildren(...built.map((b) => b.wrapper));
    return () => {
      rows.current = [];
      el.replaceChildren();
    };
  }, [steps, marks, features]);

  useEffect(() => {
    const step = steps[cursor];
    if (!step) return;
    for (const r of rows.current) {
      r.cursor.style.left = `${(100 * (r.scale.apply(step.t) as number)) / r.svgWidth}%`;
      if (r.feature !== null) r.value.textContent = `${r.feature} = ${formatValue(step.features[r.feature])} at step ${step.t}`;
    }
  }, [cursor, steps, marks, features]);

  return <div class="timeline" ref={container} data-testid="timeline" />;
}

function mountRow(figure: Element & Plot.Plot, svgWidth: number, feature: string | null, onSeek: (t: number) => void) {
  const wrapper = document.createElement('div');
  wrapper.className = 'timeline-row';
  const value = document.createElement('span');
  value.className = 'timeline-value';
  const cursor = document.createElement('div');
  cursor.className = 'timeline-cursor';
  const plotBox = document.createElement('div');
  plotBox.className = 'timeline-plot';
  plotBox.append(figure, cursor);
  if (feature !== null) wrapper.append(value);
  wrapper.append(plotBox);
  const scale = figure.scale('x')!;
  plotBox.addEventListener('click', (event) => {
    const svg = figure instanceof SVGSVGElement ? figure : figure.querySelector('svg');
    const box = (svg ?? plotBox).getBoundingClientRect();
    const t = scale.invert?.(((event.clientX - box.left) / box.width) * svgWidth) as number | undefined;
    if (t !== undefined && Number.isFinite(t)) onSeek(Math.floor(t));
  });
  return { wrapper, row: { cursor, scale, svgWidth, feature, value } satisfies Row };
}

function decisionColor(kind: string): string {
  const i = DECISION_COLORS.domain.indexOf(kind);
  return i >= 0 ? DECISION_COLORS.range[i]! : '#52606d';
}

function eventsPlot(marks: EpisodeMarks, domain: [number, number], width: number): Element & Plot.Plot {
  return Plot.plot({
    width,
    height: 150,
    marginLeft: MARGIN_LEFT,
    marginRight: 20,
    x: { domain, label: 'step' },
    y: { domain: ['driver', 'proposals', 'decisions', 'milestones'], label: null },
    color: SOURCE_COLORS,
    marks: [
      Plot.barX(marks.segments, {
        y: () => 'driver',
        x1: 'start',
        x2: 'end',
        fill: 'source',
        title: (s: Segment) => `${s.source}: steps ${s.start}–${s.end - 1}`,
      }),
      Plot.tickX(marks.proposals, {
        y: () => 'proposals',
        x: 't',
        stroke: (p: ProposalMark) => (p.safety ? '#c53030' : '#2f6fb0'),
        title: 'text',
      }),
      Plot.tickX(marks.decisions, {
        y: () => 'decisions',
        x: 't',
        stroke: (d: DecisionMark) => decisionColor(d.kind),
        strokeWidth: 2,
        title: 'text',
      }),
      Plot.dot(marks.milestones, {
        y: () => 'milestones',
        x: 't',
        fill: '#2f855a',
        r: 4,
        title: (m: MilestoneMark) => `${m.milestone} at step ${m.t}`,
      }),
    ],
  });
}

function featurePlot(
  steps: readonly EpisodeStep[],
  marks: EpisodeMarks,
  feature: string,
  domain: [number, number],
  width: number,
): Element & Plot.Plot {
  const points = steps.map((s) => ({ t: s.t, v: finite(s.features[feature]) }));
  const shaded = marks.segments.filter((s) => s.source !== 'policy');
  return Plot.plot({
    width,
    height: 130,
    marginLeft: MARGIN_LEFT,
    marginRight: 20,
    x: { domain, label: null },
    y: { label: null, grid: true, nice: true },
    marks: [
      Plot.rect(shaded, {
        x1: 'start',
        x2: 'end',
        fill: (s: Segment) => (s.source === 'recovery' ? '#fbd38d' : '#d6bcfa'),
        fillOpacity: 0.5,
      }),
      Plot.ruleX(marks.decisions, { x: 't', stroke: (d: DecisionMark) => decisionColor(d.kind), strokeOpacity: 0.4 }),
      Plot.lineY(points, { x: 't', y: 'v', stroke: '#1f2933', strokeWidth: 1.5 }),
    ],
  });
}

function finite(x: number | null | undefined): number | null {
  return x === undefined || x === null || !Number.isFinite(x) ? null : x;
}

function formatValue(x: number | null | undefined): string {
  const v = finite(x);
  if (v === null) return '—';
  return Math.abs(v) >= 100 || Number.isInteger(v) ? String(v) : v.toPrecision(4);
}

/** The timelines' legend in HTML (bare SVG plots keep the cursor overlay exact). */
export function TimelineLegend() {
  const items: Array<[string, string]> = [
    ...SOURCE_COLORS.domain.map((k, i): [string, string] => [`driven by ${k}`, SOURCE_COLORS.range[i]!]),
    ['critic proposal', '#2f6fb0'],
    ['safety proposal', '#c53030'],
    ...DECISION_COLORS.domain.map((k, i): [string, string] => [`decision: ${k}`, DECISION_COLORS.range[i]!]),
    ['milestone first reached', '#2f855a'],
  ];
  return (
    <p class="legend small">
      {items.map(([label, color]) => (
        <span key={label} class="legend-item">
          <span class="swatch" style={{ background: color }} />
          {label}
        </span>
      ))}
    </p>
  );
}
