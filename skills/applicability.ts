// Whether a skill applies where a run would load it: the same world, every feature it reads present
// in the world's layout (and privileged ones authorized), its feature conditions naming known
// features, and the same task family, unless a reach trial of the skill on the task decided (reach.ts).
// Pure: it reads only the skill's guard, its reach and what the caller says about the target.
import type { Reach } from './reach.js';
import type { SkillContent } from './skill.js';

export interface ApplicabilityTarget {
  readonly world: string;
  /** Every feature name of the target world's frame layout. */
  readonly features: readonly string[];
  /** The run feeds privileged features (a simulator may; a robot never does). Omitted: not checked. */
  readonly privilegedAuthorized?: boolean;
  /** The target task's suite (its family); omitted: not checked. */
  readonly suite?: string;
  readonly task?: string;
}

export interface Applicability {
  readonly ok: boolean;
  readonly reason: string;
}

export function applicability(skill: Pick<SkillContent, 'guard'>, target: ApplicabilityTarget, reach?: Reach): Applicability {
  const g = skill.guard;
  if (g.world !== target.world) return no(`made in world "${g.world}", not "${target.world}"`);
  const have = new Set(target.features);
  const missing = g.features.filter((f) => !have.has(f));
  if (missing.length > 0)
    return no(`needs ${plural(missing, 'feature')} ${missing.map((f) => `"${f}"`).join(', ')}, which world "${target.world}" lacks`);
  if (g.privileged && target.privilegedAuthorized === false)
    return no(`reads privileged features, which a run in world "${target.world}" does not authorize`);
  const badCondition = g.conditions.find((c) => !have.has(c.feature));
  if (badCondition) return no(`its condition on "${badCondition.feature}" names a feature world "${target.world}" lacks`);
  // a trial on this very task outranks the family guard, both ways
  const trial = target.task === undefined ? undefined : reach?.get(target.task);
  if (trial)
    return trial.loads
      ? { ok: true, reason: `a reach trial on ${target.task} found it helps: ${trial.reason}` }
      : no(`a reach trial on ${target.task} refused it: ${trial.reason}`);
  // a campaign over tasks of several suites (`--suite all`) made a skill for every suite of its world
  if (target.suite !== undefined && g.tags.suite !== 'all' && target.suite !== g.tags.suite) {
    return no(
      `applies to the ${g.tags.suite} suite (from ${g.tags.source_task}), not ${target.suite}${target.task ? ` (${target.task})` : ''}`,
    );
  }
  return {
    ok: true,
    reason: `world "${g.world}" has all ${g.features.length} features it reads${target.suite ? `; suite ${target.suite}` : ''}`,
  };
}

function no(reason: string): Applicability {
  return { ok: false, reason };
}

function plural(items: readonly unknown[], word: string): string {
  return items.length === 1 ? word : `${word}s`;
}
