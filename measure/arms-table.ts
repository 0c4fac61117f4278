// Markdown for the governance arms (governance-arms.ts): per task the success rate of policy alone,
// critic alone (and which trivial policy won it), both, and synergy with its 95% interval, then a
// macro row; below it, who drove the robot in each arm.
import type { Attribution } from './attribution.js';
import type { GovernanceArms } from './governance-arms.js';
import type { Estimate } from './paired-bootstrap.js';

const pct = (x: number) => (Number.isFinite(x) ? `${Math.round(100 * x)}%` : 'n/a');
const signedPts = (x: number) => (Number.isFinite(x) ? `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(Math.round(100 * x))}` : 'n/a');

function rateCell(e: Estimate): string {
  return `${pct(e.value)} [${pct(e.low)}, ${pct(e.high)}]`;
}

function synergyCell(e: Estimate): string {
  return `${signedPts(e.value)} pts [${signedPts(e.low)}, ${signedPts(e.high)}]`;
}

/** Task rows and a macro row: rates and synergy, each with its paired bootstrap 95% interval. */
export function formatArmsTable(a: GovernanceArms): string {
  const rows = ['| task | policy alone | critic alone | both | synergy [95% CI] |', '|---|---|---|---|---|'];
  for (const task of a.tasks) {
    const t = a.perTask[task]!;
    rows.push(
      `| ${task} | ${rateCell(t.policy)} | ${rateCell(t.critic)} (${t.critic.control}) | ${rateCell(t.both)} | ${synergyCell(t.synergy)} |`,
    );
  }
  const m = a.macro;
  rows.push(
    `| **macro** | ${rateCell(m.policy)} | ${rateCell(m.critic)} (best per task) | ${rateCell(m.both)} | **${synergyCell(m.synergy)}** |`,
  );
  return rows.join('\n');
}

function attributionRow(name: string, x: Attribution): string {
  const share = (n: number, d: number) => (d ? `${pct(n / d)} (${n}/${d})` : 'n/a');
  return [
    name,
    share(x.unmodifiedPolicyActions, x.executedSteps),
    share(x.successUnmodifiedPolicyActions, x.successSteps),
    `${x.successesWithoutRecovery}/${x.successes}`,
    `${x.milestonesDuringRecovery}`,
    `${x.physicsDivergences}`,
    `${x.infraFailures}`,
  ].join(' | ');
}

/** Per arm: the policy's unmodified share of executed steps (all, and in successes) and the rest. */
export function formatAttributionTable(a: GovernanceArms): string {
  return [
    '| arm | policy unmodified, all steps | in successes | successes without recovery | milestones during recovery | physics divergences | infra failures |',
    '|---|---|---|---|---|---|---|',
    `| ${attributionRow('policy alone', a.arms.policy.attribution)} |`,
    `| ${attributionRow('critic alone', a.arms.critic.attribution)} |`,
    `| ${attributionRow('both', a.arms.both.attribution)} |`,
  ].join('\n');
}

/** Both tables with a line saying what was run. */
export function formatArms(a: GovernanceArms): string {
  const head = `policy ${a.policy}; critic ${a.critic}@${a.criticHash}; ${a.perturbation}; seeds ${a.seeds[0]}–${a.seeds.at(-1)} (${a.seeds.length} per task, the same in every arm); ${a.bootstrap.resamples} paired bootstrap resamples`;
  return [head, '', formatArmsTable(a), '', formatAttributionTable(a)].join('\n');
}
