// The governance stage in words: a synergy in signed points, one line per perturbation (the
// terminal and the stdout table of `zetta run`), and the report's Markdown section.
import { formatArmsTable } from '../../measure/arms-table.js';
import type { GovernanceArms } from '../../measure/governance-arms.js';
import { formatSkillFirings, formatSkillsLoaded } from '../../skills/index.js';
import type { GovernanceStageResult } from './governance-stage.js';

/** A synergy (a difference of rates) in signed percentage points: +21.8, −3.0. */
export const signedPoints = (x: number): string => (Number.isFinite(x) ? `${x >= 0 ? '+' : '−'}${Math.abs(100 * x).toFixed(1)}` : 'n/a');

/** One perturbation on one line: the arms' macro success and synergy with its interval. */
export function armsLine(condition: string, a: GovernanceArms): string {
  const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : 'n/a');
  const m = a.macro;
  return `${condition.padEnd(20)} policy ${pct(m.policy.value)}  critic alone ${pct(m.critic.value)}  both ${pct(m.both.value)}  synergy ${signedPoints(m.synergy.value)} [${signedPoints(m.synergy.low)}, ${signedPoints(m.synergy.high)}]`;
}

/** The Markdown of the stage: one arms table per perturbation and the mean synergy. */
export function governanceSection(g: GovernanceStageResult): string[] {
  const pts = (x: number) => `${signedPoints(x)} points`;
  const lines = [
    '## Governance: policy alone, critic alone, both',
    '',
    `Policy \`${g.policy}\`, critic \`${g.critic}\`, ${g.episodes_per_task} episodes per task at the same seeds in every arm. Critic alone is the best of the trivial policies (null:open, null:closed, null:random:0) under the same bundle, per task. **Mean synergy over the perturbations: ${pts(g.mean_synergy)}.** Infrastructure: ${g.infra_retries} episode(s) re-run at the same seed, ${g.infra_failures} lost.`,
    '',
  ];
  for (const [condition, arms] of Object.entries(g.conditions)) lines.push(`### ${condition}`, '', formatArmsTable(arms), '');
  if (g.skills) lines.push(...skillsSection(g.skills));
  return lines;
}

/** With --skills active: what loaded where, and per perturbation which skills fired in the both arm. */
function skillsSection(skills: NonNullable<GovernanceStageResult['skills']>): string[] {
  const lines = [
    '### Skills (`--skills active`)',
    '',
    'The critic and both arms ran the default bundle composed with these skills where their guards hold:',
    '',
    '```',
    formatSkillsLoaded(skills),
    '```',
    '',
  ];
  for (const [condition, fired] of Object.entries(skills.fired))
    lines.push(`Fired in the both arm under ${condition}:`, '', '```', formatSkillFirings(fired), '```', '');
  return lines;
}
