// `--skills active` on a run's command line: the store's active skills composed per task onto the
// run's --critic bundle (skills/active-skills.ts), told on stderr before any episode runs. The
// skill library (and its native SQLite binding) is loaded only when skills are asked for.
import type { World } from '../sim/world.js';
import type { ActiveSkills } from '../skills/active-skills.js';
import type { CriticPlan } from '../zinfra/runtime/open-critic.js';
import { UsageError } from './command.js';
import type { SkillsChoice } from './flags/governance.js';

export interface SkillsForRun {
  /** The critic plan with each task's composed bundle. */
  readonly plan: CriticPlan;
  readonly skills: ActiveSkills;
}

export async function skillsForRun(
  choice: SkillsChoice | undefined,
  db: string,
  critic: CriticPlan | undefined,
  world: World,
  tasks: readonly string[],
  dir: string,
): Promise<SkillsForRun | undefined> {
  if (choice !== 'active') return undefined;
  if (!critic) throw new UsageError('--skills active needs --critic C: the bundle the skills compose onto (e.g. --critic default)');
  const { withActiveSkills, formatSkillsLoaded } = await import('../skills/index.js');
  const r = withActiveSkills({ db, world, critic, tasks, dir });
  process.stderr.write(`${formatSkillsLoaded(r.skills)}\n`);
  return r;
}
