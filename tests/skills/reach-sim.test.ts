// A reach trial in the real tabletop simulator with the embedded base policy: the missed-grasp retry
// (made on a spatial pick task) is tried on a pick task of another family and on a button press,
// where the hand closes on nothing by design. The trial loads it on the first and refuses it on the
// second, with the critic-alone control under its cap; once recorded, a run loads it by the trial
// where one ran and by its family elsewhere.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeEmptyBundle } from '../../evolution/index.js';
import { resolvePerturbation } from '../../sim/tabletop/index.js';
import { world as tabletop } from '../../sim/tabletop/tabletop-world.js';
import { REACH_FIRST_SEED, runReachTrial, SkillStore, withActiveSkills } from '../../skills/index.js';
import { tmp } from './campaign.js';
import { fixtureSkill, MISSED_GRASP_FEATURES, MISSED_GRASP_RETRY } from './fixture-skill.js';

const PICK = 'object/blue_cylinder_in_bowl';
const PRESS = 'goal/press_button';

describe('a reach trial in the simulator', () => {
  it('loads the retry where it rescues grasps, refuses it on the button, and a run then loads it accordingly', async () => {
    const dir = tmp('zetta-reach-');
    const db = join(dir, 'skills.db');
    const skill = fixtureSkill('retry', MISSED_GRASP_RETRY, {
      suite: 'spatial',
      source_task: 'spatial/front_cube_in_bowl',
      features: MISSED_GRASP_FEATURES,
    });
    const id = SkillStore.using(db, (s) => {
      const added = s.add(skill.content, skill.files, { actor: 'ada', reason: 'test' });
      s.transition(added.id, 'approve', { actor: 'bob', reason: 'test' });
      return added.id;
    });
    const base = { bundle: writeEmptyBundle(join(dir, 'base')), privileged: true };
    const verdicts = await runReachTrial(
      {
        db,
        skill: id,
        world: tabletop,
        base,
        tasks: [PICK, PRESS],
        conditions: [{ name: 'disturbance', perturbation: resolvePerturbation('disturbance') }],
        episodes: 4,
        firstSeed: REACH_FIRST_SEED,
        policy: 'embedded',
        executeSteps: 5,
        dir: join(dir, 'trial'),
      },
      { workers: 1 },
    );
    const [pick, press] = verdicts;
    expect(pick).toMatchObject({ task: PICK, loads: true });
    expect(pick!.evidence.b).toBeGreaterThan(pick!.evidence.c);
    expect(pick!.evidence.with).toBeGreaterThan(pick!.evidence.without);
    // the control: the trivial policies under the skill do not do what the skill and the policy do together
    expect(pick!.evidence.critic_alone).toBeLessThanOrEqual(0.1);
    expect(pick!.evidence.with / pick!.evidence.episodes).toBeGreaterThan(pick!.evidence.critic_alone);
    expect(press).toMatchObject({ task: PRESS, loads: false });
    expect(press!.evidence.c).toBeGreaterThan(press!.evidence.b);

    SkillStore.using(db, (s) => s.recordReach(id, verdicts, { actor: 'test', reason: 'trial' }));
    const untriedSameFamily = 'spatial/left_cube_in_bowl';
    const untriedOtherFamily = 'goal/red_cube_in_bowl';
    const { skills } = withActiveSkills({
      db,
      world: tabletop,
      critic: base,
      tasks: [PICK, PRESS, untriedSameFamily, untriedOtherFamily],
      dir: join(dir, 'composed'),
    });
    const loaded = (task: string) => skills.tasks[task]!.decisions[0]!.loaded;
    expect([PICK, PRESS, untriedSameFamily, untriedOtherFamily].map(loaded)).toEqual([true, false, true, false]);
    expect(skills.tasks[PRESS]!.decisions[0]!.reason).toContain('a reach trial on goal/press_button refused it');
  }, 300_000);
});
