import { describe, expect, it } from 'vitest';
import { TRIVIAL_POLICY_SPECS } from '../../zinfra/policy/trivial/trivial-policy.js';
import { formatArms, formatArmsTable } from '../../measure/arms-table.js';
import { summarize, type EvaluationResult } from '../../measure/evaluation.js';
import { armRuns, combineArms, runGovernanceArms, type ArmRun, type ArmsPlan } from '../../measure/governance-arms.js';
import { resolveCriticSpec } from '../../zinfra/runtime/open-critic.js';
import type { EpisodeOutcome } from '../../zinfra/runtime/run-episode.js';

const CRITIC = resolveCriticSpec('default')!;

/** A made-up episode: `steps` executed, `unmodified` of them the policy's own. */
function outcome(task: string, seed: number, success: boolean, unmodified = 0, recoveries = 0): EpisodeOutcome {
  return {
    task,
    seed,
    success,
    steps: 100,
    milestones: [],
    infraFailure: null,
    physicsDivergence: false,
    policyActions: unmodified,
    unmodifiedPolicyActions: unmodified,
    recoveryActions: 100 - unmodified,
    milestonesDuringRecovery: recoveries ? 1 : 0,
    wallMs: 1,
    holdActions: 0,
    policyCalls: 0,
    policyWaitMs: 0,
    lateChunks: 0,
    resetDigest: `${task}#${seed}`,
    recordPath: null,
    recoveries,
    envelopeHits: 0,
    aborted: false,
    firings: {},
    programStarts: {},
  };
}

describe('combineArms (synthetic outcomes)', () => {
  const plan: ArmsPlan = { tasks: ['a', 'b'], episodesPerTask: 4, firstSeed: 10, policy: 'p', executeSteps: 5, critic: CRITIC };
  const arm = (ok: Record<string, boolean[]>, unmodified = 0, recoveries = 0): EvaluationResult =>
    summarize(
      plan,
      plan.tasks.flatMap((t) => ok[t]!.map((s, i) => outcome(t, 10 + i, s, unmodified, recoveries))),
      1,
    );
  const results = [
    arm({ a: [true, false, false, false], b: [true, true, false, false] }, 100),
    arm({ a: [true, true, false, false], b: [false, false, false, false] }, 0, 1), // null:open wins a
    arm({ a: [false, false, false, false], b: [true, true, true, false] }, 0, 2), // null:closed wins b
    arm({ a: [false, false, false, false], b: [false, false, false, false] }),
    arm({ a: [true, true, true, true], b: [true, true, true, false] }, 70, 1),
  ];
  const arms = combineArms(plan, TRIVIAL_POLICY_SPECS, results, { resamples: 400, criticHash: 'synthetic' });

  it('takes the best control per task and computes synergy against the stronger arm alone', () => {
    expect(arms.perTask.a!.critic).toMatchObject({ value: 0.5, control: 'null:open' });
    expect(arms.perTask.b!.critic).toMatchObject({ value: 0.75, control: 'null:closed' });
    expect(arms.perTask.a!.synergy.value).toBeCloseTo(1 - 0.5, 12);
    expect(arms.perTask.b!.synergy.value).toBeCloseTo(0.75 - 0.75, 12);
    expect(arms.macro.synergy.value).toBeCloseTo(0.25, 12);
    expect(arms.perTask.b!.controls).toEqual({ 'null:open': 0, 'null:closed': 0.75, 'null:random:0': 0 });
    expect(arms.arms.critic.tasks.a!.successes).toBe(2);
    expect(arms.arms.critic.attribution.recoveries).toBe(4 * 1 + 4 * 2); // the winners' episodes only
    expect(arms.arms.both.attribution.unmodifiedPolicyShare).toBeCloseTo(0.7, 12);
    expect(arms.arms.policy.attribution.successesWithoutRecovery).toBe(3);
    expect(arms.seeds).toEqual([10, 11, 12, 13]);
    expect(JSON.parse(JSON.stringify(arms))).toMatchObject({ perTask: { a: { critic: { control: 'null:open' } } } });
  });

  it('formats a Markdown table with a row per task, the winning control and a macro row', () => {
    const table = formatArmsTable(arms).split('\n');
    expect(table).toHaveLength(2 + 2 + 1);
    expect(table[2]).toMatch(/^\| a \| 25% \[\d+%, \d+%\] \| 50% \[\d+%, \d+%\] \(null:open\) \| 100% \[100%, 100%\] \| \+50 pts \[/);
    expect(table[4]).toMatch(/^\| \*\*macro\*\* \|/);
    expect(formatArms(arms)).toContain('| both | 70% (560/800)');
  });
});

describe('runGovernanceArms (real simulator)', () => {
  it('runs policy alone, every control under the critic, and both, at the same seeds', async () => {
    const plan: ArmsPlan = {
      tasks: ['goal/press_button'],
      episodesPerTask: 2,
      firstSeed: 1000,
      policy: 'embedded',
      executeSteps: 5,
      critic: CRITIC,
    };
    const started: ArmRun[] = [];
    const digests = new Map<string, Set<string>>();
    const arms = await runGovernanceArms(plan, {
      workers: 1,
      resamples: 200,
      onArmStart: (run) => started.push(run),
      onEpisode: (_run, o) => digests.set(`${o.task}#${o.seed}`, (digests.get(`${o.task}#${o.seed}`) ?? new Set()).add(o.resetDigest)),
    });
    expect(started).toEqual(armRuns(plan));
    expect(started.map((r) => r.policy)).toEqual(['embedded', ...TRIVIAL_POLICY_SPECS, 'embedded']);
    expect([...digests.values()].map((d) => d.size)).toEqual([1, 1]); // the same scene in every arm
    const t = arms.perTask['goal/press_button']!;
    const best = Math.max(...Object.values(t.controls));
    expect(t.critic.value).toBe(best);
    expect(t.controls[t.critic.control]).toBe(best);
    expect(t.synergy.value).toBeCloseTo(t.both.value - Math.max(t.policy.value, t.critic.value), 12);
    expect(arms.arms.policy.attribution).toMatchObject({ recoveries: 0, unmodifiedPolicyShare: 1, executedSteps: expect.any(Number) });
    expect(arms.arms.both.critic).toBe(true);
    expect(Object.keys(arms.controls)).toEqual([...TRIVIAL_POLICY_SPECS]);
  });
});
