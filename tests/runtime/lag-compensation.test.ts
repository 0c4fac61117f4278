// Answering an actuation lag, in the real simulator with the frozen embedded policy. On a robot
// whose commands land late, a chunk is planned from a state that does not show the motion in flight
// yet. The default bundle aligns each fresh chunk to it (manifest `align_chunks_to_lag`): the chunk
// starts where its own planned motion has covered what is in flight, so every executed action is
// still the policy's. A bundle may instead hold until the motion has landed (`wait_out_lag`): the
// holds count against the policy. Controls: the same bundle with neither, with the wait instead,
// the policy alone, and the trivial policies under the aligning bundle (the alignment does no task
// work). Seeded: counts are fixed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Perturbation } from '../../sim/tabletop/index.js';
import { evaluate, type EvaluationPlan } from '../../measure/evaluation.js';
import { ALIGN_CHUNKS_TO_LAG, WAIT_OUT_LAG } from '../../critic/critic-runtime.js';
import { resolveCriticSpec } from '../../zinfra/runtime/open-critic.js';
import { defaultBundleWithManifest } from '../support/default-bundle.js';

const dir = mkdtempSync(join(tmpdir(), 'zetta-lag-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const delay2: Perturbation = { name: 'actuation-delay-2', sensor: { action_delay_steps: 2 } };
const delay4: Perturbation = { name: 'actuation-delay-4', sensor: { action_delay_steps: 4 } };
const PICK_TASKS = ['goal/red_cube_in_bowl', 'goal/stack_red_on_green'];
const LAG_TASKS = ['goal/stack_red_on_green', 'object/green_cube_in_bowl'];

const neither = () => defaultBundleWithManifest(dir, 'default-no-lag', (m) => delete m.align_chunks_to_lag);
const waiting = () =>
  defaultBundleWithManifest(dir, 'default-wait', (m) => {
    delete m.align_chunks_to_lag;
    m.wait_out_lag = true;
  });

const plan = (critic: string, perturbation: Perturbation | undefined, tasks: string[], policy = 'embedded'): EvaluationPlan => ({
  tasks,
  episodesPerTask: 10,
  firstSeed: 1000,
  perturbation,
  policy,
  executeSteps: 5,
  critic: resolveCriticSpec(critic, false),
});
type Result = Awaited<ReturnType<typeof evaluate>>;
const run = (p: EvaluationPlan) => evaluate(p, { workers: 1 });
const successes = (r: Result) => r.outcomes.filter((o) => o.success).length;
const fired = (r: Result, id: string) => r.outcomes.reduce((n, o) => n + (o.firings[id] ?? 0), 0);
/** The policy's unmodified actions over every executed step of the successful episodes. */
const shareInSuccesses = (r: Result) => {
  const won = r.outcomes.filter((o) => o.success);
  return won.reduce((n, o) => n + o.unmodifiedPolicyActions, 0) / won.reduce((n, o) => n + o.steps, 0);
};

describe('answering an actuation lag', () => {
  it('aligned chunks: on a robot 4 steps late the policy completes more than with no answer, with the wait, or alone', async () => {
    const aligned = await run(plan('default', delay4, LAG_TASKS));
    const none = await run(plan(neither(), delay4, LAG_TASKS));
    const waited = await run(plan(waiting(), delay4, LAG_TASKS));
    const alone = await run(plan('none', delay4, LAG_TASKS));
    expect(aligned.infraFailures + none.infraFailures + waited.infraFailures + alone.infraFailures).toBe(0);
    expect(fired(aligned, ALIGN_CHUNKS_TO_LAG)).toBeGreaterThan(0);
    expect(fired(aligned, WAIT_OUT_LAG)).toBe(0);
    expect(successes(aligned)).toBeGreaterThanOrEqual(successes(none) + 5);
    expect(successes(aligned)).toBeGreaterThanOrEqual(successes(waited) + 5);
    expect(successes(aligned)).toBeGreaterThanOrEqual(successes(alone) + 10);
    // no step of the alignment is a hold: the policy keeps more of the steps that succeed
    expect(shareInSuccesses(aligned)).toBeGreaterThan(shareInSuccesses(waited));
  });

  it('does no task work for a policy that does nothing', async () => {
    for (const policy of ['null:closed', 'null:open', 'null:random:0']) {
      expect(successes(await run(plan('default', delay4, LAG_TASKS, policy))), policy).toBe(0);
    }
  });

  it('skips nothing on a prompt robot (the measured lag is 0)', async () => {
    const nominal = await run(plan('default', undefined, PICK_TASKS));
    expect(fired(nominal, ALIGN_CHUNKS_TO_LAG)).toBe(0);
  });

  it('waiting instead: holds at chunk boundaries on a robot 2 steps late, and beats no answer', async () => {
    const waited = await run(plan(waiting(), delay2, PICK_TASKS));
    const none = await run(plan(neither(), delay2, PICK_TASKS));
    expect(fired(waited, WAIT_OUT_LAG)).toBeGreaterThan(0);
    expect(fired(none, WAIT_OUT_LAG)).toBe(0);
    expect(successes(waited)).toBeGreaterThanOrEqual(successes(none) + 3);
    // the waits are holds, which count against the policy's share (not as its actions); a recovery
    // that starts at the same chunk boundary takes that step instead
    const starts = waited.outcomes.reduce((n, o) => n + Object.values(o.programStarts).reduce((a, b) => a + b, 0), 0);
    expect(waited.outcomes.reduce((n, o) => n + o.holdActions, 0)).toBeGreaterThanOrEqual(fired(waited, WAIT_OUT_LAG) - starts);
  });
});
