// Gate figures as tables. Two shapes reach the console: report.json's flat rows (a skill's
// evidence) and gates.json's GateResult with its counts nested (a campaign's candidate); both are
// read into one row shape, shown with each side's successes, Wilson interval and the p-value.
import type { CriticAloneFigures, CriticAloneResult, GateDecision, GateResult, ReportGate } from '../../../contract';

/** The critic-alone check as report.json has it, or as gates.json has it (with each control's counts). */
type CriticAlone = CriticAloneFigures | CriticAloneResult;
import { pValue, pct, successes } from './format';

export interface GateRow {
  readonly gate: string;
  readonly pass: boolean;
  readonly p_value: number | null;
  readonly parent_successes: number;
  readonly candidate_successes: number;
  readonly episodes: number;
  readonly b: number;
  readonly c: number;
  readonly safety?: string;
  readonly reason?: string;
}

export function fromReportGate(g: ReportGate): GateRow {
  return g;
}

export function fromGateResult(g: GateResult): GateRow {
  const n = g.counts;
  const safety = n.parent_safety_events !== undefined ? `${n.parent_safety_events} → ${n.candidate_safety_events ?? '?'}` : undefined;
  return {
    gate: g.gate,
    pass: g.pass,
    p_value: g.p_value,
    parent_successes: n.parent_successes,
    candidate_successes: n.candidate_successes,
    episodes: n.episodes,
    b: n.b,
    c: n.c,
    safety,
    reason: g.reason,
  };
}

export function PassMark({ pass }: { pass: boolean }) {
  return <span class={`badge ${pass ? 'pass' : 'fail'}`}>{pass ? 'pass' : 'fail'}</span>;
}

export function GateTable({ rows, criticAlone }: { rows: readonly GateRow[]; criticAlone?: CriticAlone | null }) {
  if (rows.length === 0 && !criticAlone) return <p class="muted">No gate ran.</p>;
  const withReason = rows.some((r) => r.reason);
  const withSafety = rows.some((r) => r.safety);
  return (
    <div class="table-wrap">
      <table class="gates">
        <thead>
          <tr>
            <th>gate</th>
            <th>result</th>
            <th class="num">parent successes (95% CI)</th>
            <th class="num">candidate successes (95% CI)</th>
            <th class="num" title="b: candidate succeeded, parent failed; c: the reverse">
              b / c
            </th>
            <th class="num">p-value</th>
            {withSafety ? <th class="num">safety events</th> : null}
            {withReason ? <th>reason</th> : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.gate}>
              <td>{r.gate}</td>
              <td>
                <PassMark pass={r.pass} />
              </td>
              <td class="num">{successes(r.parent_successes, r.episodes)}</td>
              <td class="num">{successes(r.candidate_successes, r.episodes)}</td>
              <td class="num">
                {r.b} / {r.c}
              </td>
              <td class="num">{pValue(r.p_value)}</td>
              {withSafety ? <td class="num">{r.safety ?? '—'}</td> : null}
              {withReason ? <td class="reason">{r.reason ?? ''}</td> : null}
            </tr>
          ))}
          {criticAlone ? (
            <tr>
              <td>critic alone</td>
              <td>
                <PassMark pass={criticAlone.pass} />
              </td>
              <td class="num" colSpan={4}>
                best trivial-policy success {pct(criticAlone.best_rate)} (cap {pct(criticAlone.cap)})
                {'controls' in criticAlone
                  ? ` — ${Object.entries(criticAlone.controls)
                      .map(([k, v]) => `${k} ${v.successes}/${v.episodes}`)
                      .join(', ')}`
                  : ''}
              </td>
              {withSafety ? <td /> : null}
              {withReason ? <td class="reason">{criticAlone.reason}</td> : null}
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}

/** A skill's decisions: every candidate its campaign judged, with its gates on demand. */
export function DecisionsTable({ decisions, promoted }: { decisions: readonly GateDecision[]; promoted?: string }) {
  if (decisions.length === 0) return <p class="muted">No decisions recorded.</p>;
  return (
    <div class="table-wrap">
      <table class="decisions" data-testid="decisions">
        <thead>
          <tr>
            <th class="num">gen</th>
            <th>candidate</th>
            <th>decision</th>
            <th>stopped at</th>
            <th>gates</th>
            <th>reason</th>
          </tr>
        </thead>
        <tbody>
          {decisions.map((d) => (
            <tr key={`${d.generation}:${d.candidate}`} class={d.candidate === promoted ? 'highlight' : undefined}>
              <td class="num">{d.generation}</td>
              <td>
                <code>{d.candidate}</code>
              </td>
              <td>
                <span class={`badge ${d.decision}`}>{d.decision}</span>
              </td>
              <td>{d.stage}</td>
              <td>
                <GateSummary gates={d.gates} criticAlone={d.critic_alone} />
                {d.gates.length > 0 ? (
                  <details>
                    <summary>figures</summary>
                    <GateTable rows={d.gates.map(fromReportGate)} criticAlone={d.critic_alone} />
                  </details>
                ) : null}
              </td>
              <td class="reason">{d.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function GateSummary({ gates, criticAlone }: { gates: readonly ReportGate[]; criticAlone: CriticAlone | null }) {
  if (gates.length === 0 && !criticAlone) return <span class="muted">none ran</span>;
  return (
    <span class="gate-summary">
      {gates.map((g) => (
        <span key={g.gate} class={g.pass ? 'ok' : 'bad'}>
          {g.gate}
          {g.p_value !== null ? ` p=${pValue(g.p_value)}` : ''} {g.pass ? '✓' : '✗'}
        </span>
      ))}
      {criticAlone ? <span class={criticAlone.pass ? 'ok' : 'bad'}>critic alone {criticAlone.pass ? '✓' : '✗'}</span> : null}
    </span>
  );
}
