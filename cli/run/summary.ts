// The final table of `zetta run`, for stdout: one line per stage with its verdict and headline
// figures, so `zetta run | tee log` keeps the result (progress and stage lines go to stderr).
import { armsLine, campaignTasks, headline, signedPoints, type RunHeadline, type RunReport } from '../../experiments/run/index.js';
import { promotionLine } from './terminal.js';

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : 'n/a');
const verdict = (s: { ok: boolean } | undefined) => (s ? (s.ok ? 'ok    ' : 'FAILED') : 'skipped');

export function runSummaryLines(report: RunReport, reportPath: string): string[] {
  const { wire, expert, baseline, governance, evolution } = report.stages;
  const lines = ['stage       result  figures'];
  lines.push(`wire        ${verdict(wire)}`);
  lines.push(`expert      ${verdict(expert)}${expert ? `  macro success ${pct(expert.macro_success)}` : ''}`);
  if (baseline) {
    for (const [name, c] of Object.entries(baseline.conditions)) {
      lines.push(
        `baseline    ${verdict(baseline)}  ${name}: macro success ${pct(c.macro_success)}, infra failures ${c.infra_failures} (${c.infra_retries} re-run at the same seed)`,
      );
    }
  } else lines.push(`baseline    ${verdict(baseline)}`);
  if (governance) {
    lines.push(
      `governance  ${verdict(governance)}  mean synergy ${signedPoints(governance.mean_synergy)} points, infra failures ${governance.infra_failures} (${governance.infra_retries} re-run at the same seed)`,
    );
    for (const [name, a] of Object.entries(governance.conditions)) lines.push(`  ${armsLine(name, a)}`);
  } else lines.push(`governance  ${verdict(governance)}`);
  const promoted = evolution?.campaigns.filter((c) => c.campaign.promoted).length ?? 0;
  lines.push(`evolution   ${verdict(evolution)}${evolution ? `  ${evolution.campaigns.length} campaign(s), ${promoted} promoted` : ''}`);
  for (const c of evolution?.campaigns ?? [])
    lines.push(`  ${campaignTasks(c)} / ${c.perturbation}: ${c.campaign.promoted ? 'promoted' : 'nothing promoted'}`);
  const { promotion, final } = report.stages;
  lines.push(`promotion   ${verdict(promotion)}${promotion ? `  ${promotionLine(report)}` : ''}`);
  const h = headline(report, reportPath);
  const finalFigures = h && final ? `  ${finalLine(h)}` : '';
  lines.push(`final       ${verdict(final)}${finalFigures}`);
  for (const [task, t] of Object.entries(h?.transfer ?? {})) lines.push(`  transfer ${task}: ${pct(t.before)} → ${pct(t.after)}`);
  lines.push(`${report.awaiting ? 'waiting for an approver' : report.ok ? 'ok' : 'FAILED'}: ${reportPath}`);
  return lines.map((l) => l.trimEnd());
}

/** The final system's figures beside the default's, both at the final stage's seeds. */
function finalLine(h: RunHeadline): string {
  if (h.from_scratch)
    return `seeds ${h.seeds}: evolved from scratch: macro ${pct(h.final_macro)} (policy alone ${pct(h.baseline_macro)}, its critic alone ${pct(h.final_critic_alone_macro)}), synergy ${signedPoints(h.synergy)} points; the hand-written default: macro ${pct(h.critic_macro)}, synergy ${signedPoints(h.default_synergy)} points`;
  return `seeds ${h.seeds}: final macro ${pct(h.final_macro)} (policy alone ${pct(h.baseline_macro)}, critic alone ${pct(h.critic_alone_macro)}, default critic ${pct(h.critic_macro)}, its synergy ${signedPoints(h.default_synergy)}), synergy ${signedPoints(h.synergy)} points, policy's share ${pct(h.policy_action_share)}`;
}
