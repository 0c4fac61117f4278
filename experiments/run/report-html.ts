// report.html of a run: one self-contained page (inline CSS and SVG, no scripts, no external files)
// drawn from report.json — the headline, success per task before and after with intervals, the
// three arms and synergy, each campaign's learning curve, interventions by rule, transfer, timings.
import { barChart, escapeXml as esc, type BarGroup } from '../../evolution/report/svg.js';
import type { GovernanceArms } from '../../measure/governance-arms.js';
import { campaignTasks } from './campaign-tasks.js';
import type { CampaignRun } from './evolution-stage.js';
import { seedSpan, type GovernanceStageResult } from './governance-stage.js';
import type { RunHeadline } from './headline.js';
import type { PromotedSkill } from './promotion-stage.js';
import type { RunReport } from './run-report.js';

const pct = (v: number) => (Number.isFinite(v) ? `${Math.round(v * 100)}%` : '—');
const points = (v: number) => (Number.isFinite(v) ? `${v >= 0 ? '+' : ''}${(100 * v).toFixed(1)}` : '—');

const STYLE =
  'body{font:14px system-ui,sans-serif;margin:24px;max-width:1200px}table{border-collapse:collapse;margin:8px 0}' +
  'td,th{border:1px solid #ccc;padding:3px 7px;font-size:12px;text-align:left}th{background:#f3f3f3}section{margin:22px 0}' +
  '.note{color:#555;font-size:12px}.wide{overflow-x:auto;max-width:100%}';

export function renderRunHtml(r: RunReport, h: RunHeadline | undefined): string {
  const { governance, final, evolution, promotion } = r.stages;
  const after = final?.governance ?? undefined;
  // the default beside the final system at its seeds (fresh ones); older reports: the governance stage's
  const reference = final?.reference ?? governance;
  return [
    '<!doctype html><html><head><meta charset="utf-8">',
    `<title>zetta run ${esc(r.started)}</title>`,
    `<style>${STYLE}</style>`,
    '</head><body>',
    `<h1>zetta run</h1><p class="note">Started ${esc(r.started)}${r.finished ? `, finished ${esc(r.finished)}` : ' (running, stopped or interrupted)'}; folder <code>${esc(r.out)}</code>.</p>`,
    h ? headlineTable(h) : '<p>No governance figures yet.</p>',
    promotion ? `<section><h2>Promotion</h2>${promotionText(r)}</section>` : '',
    r.stages.reach?.skills.length ? `<section><h2>Reach trials</h2>${reachTable(r)}</section>` : '',
    reference
      ? `<section><h2>Success per task</h2>${seedsNote(reference, final?.reference ? 'final' : 'governance')}${perTaskCharts(reference, after)}</section>`
      : '',
    reference
      ? `<section><h2>The three arms and synergy</h2>${armsSection(reference, after, r.settings?.fromScratch ? 'evolved from scratch' : 'final (with skills)')}</section>`
      : '',
    evolution ? `<section><h2>Learning curves</h2>${learningCharts(r)}</section>` : '',
    governance ? `<section><h2>Interventions by rule</h2>${interventionsChart(after ?? governance)}</section>` : '',
    final && Object.keys(final.transfer).length ? `<section><h2>Zero-shot transfer</h2>${transferSection(r)}</section>` : '',
    `<section><h2>Timings</h2>${timingsTable(r)}</section>`,
    '</body></html>',
  ].join('\n');
}

/** Which seeds the charts below stand on, and whether they chose anything in the run. */
function seedsNote(g: GovernanceStageResult, stage: 'final' | 'governance'): string {
  const span = seedSpan(g);
  if (!span) return '';
  return `<p class="note">Every arm at seeds ${span.first}–${span.last} per task. ${
    stage === 'final'
      ? "The final stage's seeds: fresh, they chose nothing in the run (not the tasks, not a promotion)."
      : "The governance stage's seeds: they chose the campaigns' tasks."
  }</p>`;
}

function headlineTable(h: RunHeadline): string {
  const rows: [string, string][] = h.from_scratch
    ? [
        ['policy alone (baseline)', pct(h.baseline_macro)],
        ['evolved from scratch: critic alone (best trivial policy)', pct(h.final_critic_alone_macro)],
        ['evolved from scratch: policy + critic', pct(h.final_macro)],
        ['evolved from scratch: synergy (points)', points(h.synergy)],
        ['hand-written default at the same seeds: critic alone', pct(h.critic_alone_macro)],
        ['hand-written default: policy + critic', pct(h.critic_macro)],
        ['hand-written default: synergy (points)', points(h.default_synergy)],
        ["the policy's unmodified actions in the evolved system's successes", pct(h.policy_action_share)],
      ]
    : [
        ['policy alone (baseline)', pct(h.baseline_macro)],
        ['critic alone (best trivial policy)', pct(h.critic_alone_macro)],
        ['policy + default critic', pct(h.critic_macro)],
        ['final system (policy + critic + active skills)', pct(h.final_macro)],
        ['synergy of the final system (points)', points(h.synergy)],
        ["the policy's unmodified actions in successes", pct(h.policy_action_share)],
      ];
  return `<table><tr><th>macro over the perturbed suite</th><th></th></tr>${rows.map(([k, v]) => `<tr><td>${esc(k)}</td><td><b>${v}</b></td></tr>`).join('')}</table>`;
}

function promotionText(r: RunReport): string {
  const p = r.stages.promotion!;
  if (p.skills.length === 0) return '<p>No campaign promoted a bundle, so no skill was added.</p>';
  const how = (s: PromotedSkill) =>
    s.auto_approved
      ? 'approved by <code>auto</code> (--auto-approve)'
      : s.state === 'pending'
        ? '<b>pending</b>: waiting for an approver'
        : esc(s.state);
  const rows = p.skills
    .map(
      (s) =>
        `<tr><td><code>${esc(s.id)}</code></td><td>${esc(s.name)}</td><td>${esc(s.task)}</td><td>${esc(s.perturbation)}</td><td>${how(s)}</td></tr>`,
    )
    .join('');
  return `<table><tr><th>skill</th><th>name</th><th>campaign task</th><th>perturbation</th><th>state</th></tr>${rows}</table><p class="note">Skill store <code>${esc(p.db)}</code>.</p>`;
}

/** Per approved skill and task tried: whether it loads there, with the paired counts that decided. */
function reachTable(r: RunReport): string {
  const reach = r.stages.reach!;
  const rows = reach.skills
    .flatMap((s) =>
      s.not_tried
        ? [`<tr><td><code>${esc(s.id)}</code></td><td colspan="6">not tried: ${esc(s.not_tried)}</td></tr>`]
        : s.verdicts.map(
            (v) =>
              `<tr><td><code>${esc(s.id)}</code></td><td>${esc(v.task)}</td><td>${v.loads ? '<b>loads</b>' : 'no'}</td>` +
              `<td>${v.evidence.without} → ${v.evidence.with} of ${v.evidence.episodes}</td><td>${v.evidence.b}</td><td>${v.evidence.c}</td>` +
              `<td>${pct(v.evidence.critic_alone)}</td></tr>`,
          ),
    )
    .join('');
  return (
    `<p class="note">Each skill the run approved, alone on the final system's base, on every task its campaign did not run on, ` +
    `under ${esc(reach.conditions.join(', '))}, at development seeds from ${reach.first_seed} (${reach.episodes} a task and perturbation). ` +
    'It loads where it rescued more paired episodes than it broke, its critic alone under the cap. These seeds choose; the final stage claims.</p>' +
    `<table><tr><th>skill</th><th>task</th><th>verdict</th><th>both, without → with</th><th>rescued</th><th>broken</th><th>critic alone</th></tr>${rows}</table>`
  );
}

/** One chart per perturbation: each task's arms with their paired-bootstrap intervals. */
function perTaskCharts(before: GovernanceStageResult, after: GovernanceStageResult | undefined): string {
  return Object.entries(before.conditions)
    .map(([condition, arms]) => {
      const later = after?.conditions[condition];
      const groups: BarGroup[] = arms.tasks.map((task) => {
        const t = arms.perTask[task]!;
        const f = later?.perTask[task]?.both;
        const bars = [
          { value: t.policy.value, low: t.policy.low, high: t.policy.high, series: 0 },
          { value: t.critic.value, low: t.critic.low, high: t.critic.high, series: 1 },
          { value: t.both.value, low: t.both.low, high: t.both.high, series: 2 },
          ...(f ? [{ value: f.value, low: f.low, high: f.high, series: 3 }] : []),
        ];
        return { label: task.split('/')[1] ?? task, bars };
      });
      const series = ['policy alone', 'critic alone', 'policy + critic', ...(later ? ['final (with skills)'] : [])];
      const chart = barChart({
        title: `${condition}: success per task (95% intervals)`,
        groups,
        series,
        yMax: 1,
        yLabel: 'success rate',
        format: pct,
        fit: 'natural',
      });
      return `<div class="wide">${chart}</div>`;
    })
    .join('\n');
}

/** The default's arms, and the final system's both and critic alone beside them (`finalName`: what the final system is). */
function armsSection(before: GovernanceStageResult, after: GovernanceStageResult | undefined, finalName: string): string {
  const groups = Object.entries(before.conditions).map(([condition, a]) => {
    const f = after?.conditions[condition]?.macro.both;
    const fc = after?.conditions[condition]?.macro.critic;
    const m = a.macro;
    return {
      label: condition,
      bars: [
        { value: m.policy.value, low: m.policy.low, high: m.policy.high, series: 0 },
        { value: m.critic.value, low: m.critic.low, high: m.critic.high, series: 1 },
        { value: m.both.value, low: m.both.low, high: m.both.high, series: 2 },
        ...(f ? [{ value: f.value, low: f.low, high: f.high, series: 3 }] : []),
        ...(fc ? [{ value: fc.value, low: fc.low, high: fc.high, series: 4 }] : []),
      ],
    };
  });
  const series = [
    'policy alone',
    'default critic alone',
    'policy + default critic',
    ...(after ? [finalName, `${finalName}: critic alone`] : []),
  ];
  const chart = barChart({
    title: 'Macro success per perturbation (95% intervals)',
    groups,
    series,
    yMax: 1,
    yLabel: 'macro success',
    format: pct,
  });
  const row = (name: string, a: GovernanceArms, f: GovernanceArms | undefined) =>
    `<tr><td>${esc(name)}</td><td>${points(a.macro.synergy.value)} [${points(a.macro.synergy.low)}, ${points(a.macro.synergy.high)}]</td><td>${f ? `${points(f.macro.synergy.value)} [${points(f.macro.synergy.low)}, ${points(f.macro.synergy.high)}]` : '—'}</td></tr>`;
  const rows = Object.entries(before.conditions)
    .map(([c, a]) => row(c, a, after?.conditions[c]))
    .join('');
  const table = `<table><tr><th>perturbation</th><th>synergy, default critic (points, 95% interval)</th><th>synergy, ${esc(finalName)}</th></tr>${rows}</table>`;
  return `${chart}${table}<p class="note">synergy = both − max(policy alone, critic alone), per task, then the mean over tasks.</p>`;
}

function learningCharts(r: RunReport): string {
  const campaigns = r.stages.evolution?.campaigns ?? [];
  if (campaigns.length === 0) return '<p>No campaign ran.</p>';
  return campaigns.map(learningChart).join('\n');
}

/** Per generation the three arms on the campaign's development seeds, then base vs final on the confirmation seeds. */
function learningChart(e: CampaignRun): string {
  if (e.learning_curve.length === 0)
    return `<p>The campaign on ${esc(campaignTasks(e))} under ${esc(e.perturbation)} has no generation yet.</p>`;
  const policy = e.policy_alone;
  const groups = e.learning_curve.map((p) => ({
    label: `generation ${p.generation}`,
    bars: [
      ...(policy === undefined || !Number.isFinite(policy) ? [] : [{ value: policy, series: 0 }]),
      ...(p.critic_alone === null || p.critic_alone === undefined ? [] : [{ value: p.critic_alone, series: 1 }]),
      { value: p.parent, series: 2 },
      ...(p.best_candidate === null ? [] : [{ value: p.best_candidate, series: 3 }]),
    ],
  }));
  const c = e.campaign.confirmation;
  if (c && c.episodes > 0)
    groups.push({
      label: 'confirmation',
      bars: [
        { value: c.parent_success / c.episodes, series: 2 },
        { value: c.candidate_success / c.episodes, series: 3 },
      ],
    });
  const from = e.base === 'none' ? ' from the empty bundle' : '';
  const title = `Campaign on ${campaignTasks(e)} under ${e.perturbation}${from}: success per generation`;
  const verdict = e.campaign.promoted ? 'promoted a bundle' : 'promoted nothing';
  const series = ['policy alone (governance seeds)', 'critic alone (best candidate)', 'both: parent', 'both: best candidate / promoted'];
  const note =
    'Generations: development seeds (new each generation); critic alone is the best trivial policy under the candidate. Confirmation: fresh seeds, the base bundle against what was promoted.';
  return `${barChart({ title, groups, series, yMax: 1, yLabel: 'success rate', format: pct })}<p class="note">${note} The campaign ${verdict}; its own report: <code>${esc(e.campaign.report)}</code>.</p>`;
}

function interventionsChart(g: GovernanceStageResult): string {
  const conditions = Object.keys(g.interventions);
  const rules = [...new Set(conditions.flatMap((c) => Object.keys(g.interventions[c]!)))].sort();
  if (rules.length === 0) return '<p>No rule fired.</p>';
  const groups = rules.map((rule) => ({
    label: rule,
    bars: conditions.map((c, i) => ({ value: g.interventions[c]![rule] ?? 0, series: i })),
  }));
  const yMax = Math.max(1, ...groups.flatMap((x) => x.bars.map((b) => b.value)));
  return barChart({
    title: 'Critic decisions per rule, policy + critic arm, all episodes',
    groups,
    series: conditions,
    yMax,
    yLabel: 'decisions',
    format: (v) => String(Math.round(v)),
  });
}

function transferSection(r: RunReport): string {
  const t = r.stages.final!.transfer;
  const groups = Object.entries(t).map(([task, x]) => ({
    label: task.split('/')[1] ?? task,
    bars: [
      { value: x.before, series: 0 },
      { value: x.after, series: 1 },
    ],
  }));
  const chart = barChart({
    title: 'Tasks no campaign ran on: policy + critic, without and with the skills',
    groups,
    series: ['without skills', 'with skills'],
    yMax: 1,
    yLabel: 'success rate',
    format: pct,
  });
  const rows = Object.entries(t)
    .flatMap(([task, x]) =>
      Object.entries(x.conditions).map(
        ([c, y]) =>
          `<tr><td>${esc(task)}</td><td>${esc(c)}</td><td>${pct(y.before)}</td><td>${pct(y.after)}</td><td>${y.b} / ${y.c}</td><td>${y.p_value.toPrecision(3)}</td></tr>`,
      ),
    )
    .join('');
  return `${chart}<table><tr><th>task</th><th>perturbation</th><th>without</th><th>with</th><th>discordant seeds (gained / lost)</th><th>McNemar p (one-sided)</th></tr>${rows}</table>`;
}

function timingsTable(r: RunReport): string {
  const rows = Object.entries(r.timings ?? {}).map(([stage, s]) => `<tr><td>${esc(stage)}</td><td>${s.toFixed(0)} s</td></tr>`);
  return rows.length ? `<table><tr><th>stage</th><th>wall time</th></tr>${rows.join('')}</table>` : '<p>No stage has finished.</p>';
}
