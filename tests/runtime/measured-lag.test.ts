// A robot whose commands land four steps late (200 ms at 20 Hz), in the real simulator with the
// frozen embedded policy. Two things used to break the default bundle there: `hand_blocked` took the
// first steps, when the hand had not moved because nothing had landed yet, for a blocked hand and
// backed it off; and the re-centring recovery servoed on the observed hand, overshot and wobbled.
// Now an unmoved hand is not judged stalled before its first commands could have landed, and the
// programs servo at the lag the critic measures (`lag_steps: "measured"`). The control is the same
// bundle with its programs blind to the lag; the trivial policies show the recoveries do no task work.
// The servoing is compared with chunk alignment off in both bundles: aligned chunks leave the policy
// so few recoveries to need on these tasks that the comparison would measure nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Perturbation } from '../../sim/tabletop/index.js';
import { evaluate, type EvaluationPlan } from '../../measure/evaluation.js';
import { resolveCriticSpec } from '../../zinfra/runtime/open-critic.js';
import { defaultBundleWithManifest, defaultBundleWithPrograms, editManifest } from '../support/default-bundle.js';

const dir = mkdtempSync(join(tmpdir(), 'zetta-measured-lag-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const delayed: Perturbation = { name: 'actuation-delay-4', sensor: { action_delay_steps: 4 } };
const PICK_TASKS = ['spatial/right_cube_on_plate', 'object/yellow_cube_in_bowl', 'goal/lift_red_cube'];
const FIXTURE_TASKS = ['goal/press_button', 'goal/open_drawer'];
const plan = (critic: string, tasks: readonly string[], policy = 'embedded', episodesPerTask = 6): EvaluationPlan => ({
  tasks,
  episodesPerTask,
  firstSeed: 1000,
  perturbation: delayed,
  policy,
  executeSteps: 5,
  critic: resolveCriticSpec(critic, false),
});
type Result = Awaited<ReturnType<typeof evaluate>>;
const successes = (r: Result) => r.outcomes.filter((o) => o.success).length;

describe('a robot whose commands land four steps late', () => {
  it('is not taken for a blocked hand while its first commands are on their way', async () => {
    const r = await evaluate(plan('default', FIXTURE_TASKS, 'embedded', 5), { workers: 1 });
    expect(r.infraFailures).toBe(0);
    // it used to fire at the start of every episode; a drawer that resists the pull may still stop the hand
    expect(r.outcomes.filter((o) => (o.firings.hand_blocked ?? 0) > 0).length).toBeLessThanOrEqual(1);
    expect(successes(r)).toBeGreaterThanOrEqual(7);
  });

  it('recoveries that servo at the measured lag let the policy complete more tasks than the same recoveries blind to it', async () => {
    const unaligned = (m: Record<string, unknown>) => delete m.align_chunks_to_lag;
    const measured = await evaluate(plan(defaultBundleWithManifest(dir, 'default-unaligned', unaligned), PICK_TASKS), { workers: 1 });
    const blind = editManifest(
      defaultBundleWithPrograms(dir, 'default-lag-blind', (p) => delete p.lag_steps),
      unaligned,
    );
    const control = await evaluate(plan(blind, PICK_TASKS), { workers: 1 });
    expect(measured.infraFailures + control.infraFailures).toBe(0);
    expect(successes(measured)).toBeGreaterThanOrEqual(successes(control) + 5);
    // the recoveries ran in both: the difference is how they servoed
    expect(measured.outcomes.some((o) => o.recoveries > 0)).toBe(true);
    expect(control.outcomes.some((o) => o.recoveries > 0)).toBe(true);
  });

  it('does no task work for a policy that does nothing', async () => {
    for (const policy of ['null:closed', 'null:open', 'null:random:0']) {
      expect(successes(await evaluate(plan('default', PICK_TASKS, policy, 3), { workers: 1 })), policy).toBe(0);
    }
  });
});
