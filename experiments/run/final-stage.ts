// Stage of the run experiment (`zetta run`): the final system. On fresh seeds that chose nothing in
// the run (final-seeds.ts), the governance arms run twice: the reference system (the default critic
// alone; from scratch, the hand-written default the evolved bundle stands beside) and the final one,
// with every active skill of the store composed onto its critic where the skill's guard holds. Zero-shot
// transfer is read off the pair: on each task that a skill loaded for but no campaign ran on (in this
// run, or the one that promoted the skill), the both arm before and after the skills, per seed.
import { join } from 'node:path';
import type { ArmRun } from '../../measure/governance-arms.js';
import { discordantPairs, mcnemarOneSided } from '../../measure/mcnemar.js';
import { SkillStore } from '../../skills/index.js';
import { runGovernanceStage, type GovernanceOptions, type GovernanceStageResult } from './governance-stage.js';

export interface TransferCondition {
  before: number;
  after: number;
  /** Paired seeds: b = only with the skills succeeded, c = only without. */
  b: number;
  c: number;
  /** One-sided exact McNemar over the paired seeds. */
  p_value: number;
}

export interface TaskTransfer {
  /** Mean over the perturbations of the both arm's success, without and with the skills. */
  before: number;
  after: number;
  /** The skills that loaded for the task. */
  skills: string[];
  conditions: Record<string, TransferCondition>;
}

export interface FinalStageResult {
  /** The store's active skills when the stage ran. */
  active_skills: string[];
  /** The first of the stage's seeds; absent in reports of runs that scored it at the governance seeds. */
  first_seed?: number;
  /** The reference system's arms at the stage's seeds (the default critic without the skills); absent in older reports. */
  reference?: GovernanceStageResult | null;
  /** The arms with the skills; null when no skill is active (the final system is the default critic). */
  governance: GovernanceStageResult | null;
  /** Tasks no campaign ran on that a skill loaded for. */
  transfer: Record<string, TaskTransfer>;
  problems: string[];
  ok: boolean;
}

export interface FinalStageOptions extends Omit<GovernanceOptions, 'skillsDb' | 'onArm'> {
  /** The reference system's critic: the default (from scratch the final critic is the empty bundle). */
  readonly referenceCritic: string;
  /** `system`: which of the two is running, the reference or the final one. */
  readonly onArm: (system: 'reference' | 'final', condition: string, run: ArmRun, index: number, total: number) => void;
}

/** `campaignTasks`: the tasks this run's campaigns ran on, whatever they promoted. */
export async function runFinalStage(db: string, campaignTasks: readonly string[], o: FinalStageOptions): Promise<FinalStageResult> {
  const active = SkillStore.using(db, (s) => s.list().filter((r) => r.state === 'active'));
  if (active.length === 0)
    return { active_skills: [], first_seed: o.firstSeed, reference: null, governance: null, transfer: {}, problems: [], ok: true };
  const { referenceCritic, onArm, ...common } = o;
  const reference = await runGovernanceStage({
    ...common,
    critic: referenceCritic,
    recordDir: join(o.recordDir, 'reference'),
    onArm: (...a) => onArm('reference', ...a),
  });
  const after = await runGovernanceStage({ ...common, skillsDb: db, onArm: (...a) => onArm('final', ...a) });
  const sources = new Set([...campaignTasks, ...active.map((r) => r.content.guard.tags.source_task)]);
  const problems = [...reference.problems.map((p) => `reference: ${p}`), ...after.problems];
  return {
    active_skills: active.map((r) => r.id),
    first_seed: o.firstSeed,
    reference,
    governance: after,
    // transfer pairs the same critic without and with the skills; from scratch the reference is the default
    transfer: reference.critic === after.critic ? transferOf(reference, after, sources) : {},
    problems,
    ok: problems.length === 0,
  };
}

function transferOf(
  before: GovernanceStageResult,
  after: GovernanceStageResult,
  sources: ReadonlySet<string>,
): Record<string, TaskTransfer> {
  const out: Record<string, TaskTransfer> = {};
  for (const [task, t] of Object.entries(after.skills?.tasks ?? {})) {
    const skills = t.decisions.filter((d) => d.loaded).map((d) => d.id);
    if (skills.length === 0 || sources.has(task)) continue;
    const conditions: Record<string, TransferCondition> = {};
    for (const condition of Object.keys(after.conditions)) {
      // the same conditions and seeds ran before and after; a condition the first run lacks pairs nothing
      const now = after.both_by_seed[condition]![task]!;
      const was = before.both_by_seed[condition]?.[task] ?? now.map(() => null);
      const { b, c } = discordantPairs(was, now);
      conditions[condition] = {
        before: before.conditions[condition]?.perTask[task]?.both.value ?? Number.NaN,
        after: after.conditions[condition]!.perTask[task]!.both.value,
        b,
        c,
        p_value: mcnemarOneSided(b, c),
      };
    }
    const all = Object.values(conditions);
    const mean = (pick: (x: TransferCondition) => number) => all.reduce((s, x) => s + pick(x), 0) / all.length;
    out[task] = { before: mean((x) => x.before), after: mean((x) => x.after), skills, conditions };
  }
  return out;
}
