// How `zetta run` shows a run on stderr: a progress bar while a stage runs, then the stage's line
// with its headline figures; at the end, what went wrong and where the report is.
import {
  armsLine,
  campaignTasks,
  signedPoints,
  type CampaignRun,
  type RunObserver,
  type RunReport,
  type StageName,
} from '../../experiments/run/index.js';
import { progress, type Progress } from '../progress.js';

/** `fromScratch`: the campaigns start from the empty bundle where the policy alone does worst, perturbations in turn. */
export function terminalObserver(say: (line: string) => void, fromScratch = false): RunObserver {
  let bar: Progress | undefined;
  return {
    runStarted: (out) => say(`zetta run → ${out}`),
    stageStarted(stage) {
      // The campaigns log their own lines as they go; a bar would fight with them.
      if (stage === 'evolution')
        say(
          fromScratch
            ? '  evolution (from the empty bundle: the perturbations in turn, a campaign on the task the policy alone does worst under each)'
            : '  evolution (a campaign on each of the weakest tasks, under its weakest perturbation with the critic)',
        );
      else bar = progress(`  ${stage}`);
    },
    progress: (_stage, done, total, note) => bar?.update(done, total, note),
    stageFinished(stage, report) {
      bar?.done();
      bar = undefined;
      for (const line of stageLines(stage, report)) say(line);
    },
    stageKept: (stage) => say(`  ${stage.padEnd(9)} kept from the run being resumed`),
    awaitingApproval: (a) => {
      say(
        `  promotion ${a.skills.length > 1 ? `skills ${a.skills.join(', ')} are` : `skill ${a.skills[0]} is`} pending: an approver decides in the console,`,
      );
      say(`    ${a.console}`);
      say(`  then the run goes on with`);
      say(`    ${a.resume}`);
    },
    stageSkipped: (stage, reason) => say(`  ${stage.padEnd(9)} skipped (${reason})`),
    log: (_stage, line) => say(`    ${line}`),
  };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

function stageLines(stage: StageName, report: RunReport): string[] {
  const { wire, expert, baseline, governance, evolution: evo } = report.stages;
  switch (stage) {
    case 'wire':
      return [`  wire      ${wire!.ok ? 'ok' : 'FAILED'}`];
    case 'expert':
      return [`  expert    macro success ${pct(expert!.macro_success)}`];
    case 'baseline':
      return [`  baseline  nominal         macro success ${pct(baseline!.conditions.nominal!.macro_success)}`];
    case 'governance':
      return [
        ...Object.entries(governance!.conditions).map(([name, a]) => `  governance ${armsLine(name, a)}`),
        `  governance mean synergy ${signedPoints(governance!.mean_synergy)} points`,
      ];
    case 'evolution':
      if (!evo || evo.campaigns.length === 0) return ['  evolution no campaign: policy + critic solved every task'];
      return evo.campaigns.map((c) => `  evolution ${campaignTasks(c)} / ${c.perturbation}: ${campaignVerdict(c)}`);
    case 'promotion':
      return [`  promotion ${promotionLine(report)}`];
    case 'reach':
      return reachLines(report);
    case 'final':
      return finalLines(report);
  }
}

function campaignVerdict(c: CampaignRun): string {
  const { heldout: h, confirmation: conf } = c.campaign;
  if (!c.campaign.promoted) return 'nothing promoted';
  const confirmed = conf
    ? `; confirmation ${conf.parent_success} → ${conf.candidate_success} of ${conf.episodes} (p = ${conf.p_value.toPrecision(3)})`
    : '';
  return `promoted, held-out ${h.parent_success} → ${h.candidate_success} of ${h.episodes}${confirmed}`;
}

export function promotionLine(report: RunReport): string {
  const skills = report.stages.promotion?.skills ?? [];
  if (skills.length === 0) return 'nothing promoted, no skill added';
  return skills.map((s) => `skill ${s.id} (${s.name}): ${s.auto_approved ? 'approved by auto' : s.state}`).join('; ');
}

function reachLines(report: RunReport): string[] {
  const skills = report.stages.reach?.skills ?? [];
  if (skills.length === 0) return ['  reach     no approved skill to try'];
  return skills.map((s) => {
    if (s.not_tried) return `  reach     skill ${s.id}: not tried (${s.not_tried})`;
    const loads = s.verdicts.filter((v) => v.loads).map((v) => v.task);
    return `  reach     skill ${s.id}: loads on ${loads.length} of ${s.verdicts.length} tasks tried${loads.length ? ` (${loads.join(', ')})` : ''}`;
  });
}

function finalLines(report: RunReport): string[] {
  const f = report.stages.final!;
  if (!f.governance)
    return [
      report.settings?.fromScratch
        ? '  final     nothing promoted: the final system is the empty bundle, the policy alone'
        : '  final     no active skill: the final system is the policy with the default critic',
    ];
  return [
    ...Object.entries(f.governance.conditions).map(([name, a]) => `  final     ${armsLine(name, a)}`),
    `  final     mean synergy ${signedPoints(f.governance.mean_synergy)} points with ${f.active_skills.length} active skill(s)`,
    ...Object.entries(f.transfer).map(([task, t]) => `  final     transfer to ${task}: ${pct(t.before)} → ${pct(t.after)}`),
  ];
}

/** The last stderr lines of a run: each problem, then the verdict and the report's path. */
export function closingLines(report: RunReport, reportPath: string): string[] {
  const problems = [...(report.stages.baseline?.problems ?? []), ...(report.stages.governance?.problems ?? [])];
  const verdict = report.awaiting ? 'waiting for an approver' : report.ok ? 'ok' : 'FAILED';
  return [...problems.map((p) => `  problem: ${p}`), `${verdict}: ${reportPath}`];
}
