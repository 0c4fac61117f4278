// The report of a run (`zetta run`) for people: its Markdown and HTML renderings, and writing
// report.json, report.md and report.html.
import { join } from 'node:path';
import { writeFileAtomic, writeJsonAtomic } from '../../util/atomic-write.js';
import type { BaselineStageResult } from './baseline-stage.js';
import { campaignTasks } from './campaign-tasks.js';
import type { EvolutionStageResult } from './evolution-stage.js';
import type { ExpertStageResult } from './expert-stage.js';
import { seedSpan } from './governance-stage.js';
import { governanceSection } from './governance-text.js';
import { headline } from './headline.js';
import { renderRunHtml } from './report-html.js';
import type { RunReport } from './run-report.js';

export type { RunReport } from './run-report.js';

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '—');

export function renderMarkdown(r: RunReport): string {
  const lines = [`# zetta run`, '', `Started ${r.started}${r.finished ? `, finished ${r.finished}` : ' (running or interrupted)'}.`, ''];
  const { wire, expert, baseline, governance, evolution } = r.stages;
  if (wire) {
    const py =
      'skipped' in wire.python
        ? `skipped (${wire.python.skipped})`
        : `p50 ${wire.python.p50_ms.toFixed(2)} ms, max difference from Node ${wire.python.max_abs_diff_vs_node.toExponential(1)}`;
    lines.push(
      '## Policy wire',
      '',
      `- Node ONNX server over ZeroMQ: p50 ${wire.node.p50_ms.toFixed(2)} ms, p99 ${wire.node.p99_ms.toFixed(2)} ms (${wire.node.requests} requests)`,
      `- Python shim: ${py}`,
      '',
    );
  }
  if (expert || baseline) lines.push(...successTable(expert, baseline));
  if (governance) lines.push(...governanceSection(governance));
  if (evolution) lines.push(...evolutionSection(evolution));
  if (r.stages.promotion || r.stages.final) lines.push(...skillsSection(r));
  const problems = [
    ...(baseline?.problems ?? []).map((p) => `baseline: ${p}`),
    ...(governance?.problems ?? []).map((p) => `governance: ${p}`),
  ];
  if (wire && !wire.ok)
    problems.unshift('wire: the Node and Python servers did not both answer every request with agreeing chunks (see the figures above)');
  if (problems.length) lines.push('## Problems', '', ...problems.map((p) => `- ${p}`), '');
  for (const s of r.skipped ?? []) lines.push(`- skipped: ${s}`);
  return `${lines.join('\n')}\n`;
}

function successTable(expert: ExpertStageResult | undefined, baseline: BaselineStageResult | undefined): string[] {
  // The expert (the upper bound) and the base policy alone, per condition it ran.
  const columns: { title: string; result: BaselineStageResult; condition: string }[] = [];
  for (const condition of Object.keys(baseline?.conditions ?? {}))
    columns.push({ title: `policy, ${condition}`, result: baseline!, condition });
  const tasks = Object.keys(expert?.tasks ?? baseline?.conditions[columns[0]?.condition ?? '']?.tasks ?? {});
  const header = ['task', ...(expert ? ['expert'] : []), ...columns.map((c) => c.title)];
  const cell = (t: { success: number; episodes: number } | undefined) => (t ? `${t.success}/${t.episodes}` : '—');
  const rows = tasks.map((task) => [
    task,
    ...(expert ? [cell(expert.tasks[task])] : []),
    ...columns.map((c) => cell(c.result.conditions[c.condition]!.tasks[task])),
  ]);
  const macro = [
    '**macro**',
    ...(expert ? [pct(expert.macro_success)] : []),
    ...columns.map((c) => pct(c.result.conditions[c.condition]!.macro_success)),
  ];
  return [
    '## Success per task',
    '',
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...[...rows, macro].map((r) => `| ${r.join(' | ')} |`),
    '',
  ];
}

function evolutionSection(e: EvolutionStageResult): string[] {
  if (e.campaigns.length === 0)
    return ['## Evolution', '', 'No campaign ran: policy + critic solved every task under every perturbation.', ''];
  const scratch = e.campaigns.some((c) => c.base === 'none');
  const rows = e.campaigns.map((c) => {
    const h = c.campaign.heldout;
    const conf = c.campaign.confirmation;
    const confirmed = conf
      ? `${conf.parent_success} → ${conf.candidate_success} of ${conf.episodes} (p = ${conf.p_value.toPrecision(3)})`
      : '—';
    const verdict = c.campaign.promoted ? `promoted ${c.campaign.bundle_sha256?.slice(0, 12)}` : 'nothing promoted';
    const heldout = c.campaign.promoted
      ? `${h.parent_success} → ${h.candidate_success} of ${h.episodes}`
      : `parent ${h.parent_success ?? '—'} of ${h.episodes ?? '—'}`;
    return `| ${campaignTasks(c)} | ${c.perturbation} | ${pct(c.parent_rate)} | ${c.campaign.generations} | ${verdict} | ${heldout} | ${confirmed} | \`${c.campaign.report}\` |`;
  });
  return [
    '## Evolution',
    '',
    `${e.campaigns.length} campaign(s), ${e.in_parallel} at a time, on the weakest tasks (${scratch ? 'the policy alone' : 'policy + default critic'} in the governance stage${scratch ? '), each from the empty bundle' : ')'}. The held-out seeds chose each promoted bundle; the confirmation seeds are fresh (one-sided exact McNemar).`,
    '',
    `| task | perturbation | ${scratch ? 'policy alone' : 'policy + critic'} | generations | verdict | held-out | confirmation | report |`,
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    "Per generation, on its development seeds: the parent (policy + critic), the best candidate, and that candidate's critic alone (the best trivial policy under it).",
    '',
    '| task | generation | parent | best candidate | its critic alone |',
    '|---|---|---|---|---|',
    ...e.campaigns.flatMap((c) =>
      c.learning_curve.map(
        (p) =>
          `| ${c.task} | ${p.generation} | ${pct(p.parent)} | ${p.best_candidate === null ? '—' : pct(p.best_candidate)} | ${p.critic_alone === null || p.critic_alone === undefined ? '—' : pct(p.critic_alone)} |`,
      ),
    ),
    '',
  ];
}

function skillsSection(r: RunReport): string[] {
  const p = r.stages.promotion;
  const f = r.stages.final;
  const lines = ['## Skills', ''];
  for (const skill of p?.skills ?? []) {
    const how = skill.auto_approved
      ? 'approved by `auto` (--auto-approve)'
      : skill.state === 'pending'
        ? '**pending**, waiting for an approver'
        : skill.state;
    lines.push(
      `- The bundle of the campaign on ${skill.task} under ${skill.perturbation} is skill \`${skill.id}\` (${skill.name}) in \`${p!.db}\`: ${how}.`,
    );
  }
  if (p && p.skills.length === 0) lines.push('- No campaign promoted a bundle: no skill was added.');
  if (r.awaiting)
    lines.push(
      `- Approve or reject ${r.awaiting.skills.length > 1 ? 'them' : 'it'} in the console (\`${r.awaiting.console}\`), then continue with \`${r.awaiting.resume}\`.`,
    );
  lines.push(...reachLines(r));
  if (f && !f.governance) lines.push('- No skill is active: the final system is the policy with the default critic.');
  if (f?.governance) {
    const span = seedSpan(f.governance);
    const at = span ? ` at seeds ${span.first}-${span.last}` : '';
    const beside = f.reference
      ? `; the default critic without skills, at the same seeds (which chose nothing in the run): ${(100 * f.reference.mean_synergy).toFixed(1)} points`
      : ' (at the governance seeds, which also chose the campaigns)';
    lines.push(
      `- Final system (${r.settings?.fromScratch ? 'the empty bundle' : 'default critic'} + ${f.active_skills.length} active skill(s))${at}: mean synergy ${(100 * f.governance.mean_synergy).toFixed(1)} points${beside}.`,
    );
  }
  for (const [task, t] of Object.entries(f?.transfer ?? {}))
    lines.push(
      `- Transfer to ${task} (no campaign ran on it): policy + critic ${pct(t.before)} → ${pct(t.after)} with ${t.skills.join(', ')}.`,
    );
  return [...lines, ''];
}

/** Per approved skill, where its reach trial says it loads (the final stage loads it there). */
function reachLines(r: RunReport): string[] {
  const reach = r.stages.reach;
  if (!reach) return [];
  return reach.skills.map((s) => {
    if (s.not_tried) return `- Skill \`${s.id}\` was not tried for reach: ${s.not_tried}.`;
    const loads = s.verdicts.filter((v) => v.loads);
    const where = loads.map((v) => `${v.task} (${v.evidence.b} rescued, ${v.evidence.c} broken)`).join(', ');
    const refused = s.verdicts.filter((v) => !v.loads && v.evidence.c > v.evidence.b).map((v) => v.task);
    return (
      `- Reach trial of \`${s.id}\` (seeds ${reach.first_seed}+, ${reach.episodes} a task and perturbation, which claim nothing): ` +
      `loads on ${loads.length} of ${s.verdicts.length} other tasks${where ? `: ${where}` : ''}` +
      `${refused.length ? `; it broke more than it rescued on ${refused.join(', ')}` : ''}.`
    );
  });
}

/** Writes report.json, report.md and report.html under `r.out`, each atomically: a reader never sees half a file. */
export function saveReport(r: RunReport): { json: string; markdown: string; html: string } {
  const files = { json: join(r.out, 'report.json'), markdown: join(r.out, 'report.md'), html: join(r.out, 'report.html') };
  writeJsonAtomic(files.json, r);
  writeFileAtomic(files.markdown, renderMarkdown(r));
  writeFileAtomic(files.html, renderRunHtml(r, headline(r, files.html)));
  return files;
}
