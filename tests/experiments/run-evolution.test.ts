// zetta run's evolution stage chooses its campaigns: the weakest tasks under the critic, each under
// its own weakest perturbation, never a task the critic already solves; and it runs them side by side
// only where there are cores for more than one rollout pool (or a job queue does the rollouts).
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { campaignsAtOnce, weakestPairs, weakestPairsByPerturbation, widenPairs } from '../../experiments/run/evolution-stage.js';
import type { GovernanceStageResult } from '../../experiments/run/governance-stage.js';
import { pairKey } from '../../experiments/run/unsolved-probe.js';

/** The governance stage as far as the choice reads it: the both arm's success per task (the policy alone's: 1 − both). */
function governance(conditions: Record<string, Record<string, number>>): GovernanceStageResult {
  const arms = (perTask: Record<string, number>) => ({
    perTask: Object.fromEntries(
      Object.entries(perTask).map(([task, both]) => [task, { both: { value: both }, policy: { value: 1 - both } }]),
    ),
  });
  return { conditions: Object.fromEntries(Object.entries(conditions).map(([c, t]) => [c, arms(t)])) } as unknown as GovernanceStageResult;
}

describe('zetta run: which campaigns', () => {
  const g = governance({
    'position-shift': { 'spatial/a': 0.6, 'spatial/b': 0.3, 'goal/c': 1 },
    'sensor-noise-delay': { 'spatial/a': 0.2, 'spatial/b': 0.5, 'goal/c': 1, 'long/d': Number.NaN },
    disturbance: { 'spatial/a': 0.9, 'spatial/b': 0.3, 'goal/c': 0.3 },
  });

  it('takes the weakest tasks, one campaign each under its weakest perturbation', () => {
    expect(weakestPairs(g, 3)).toEqual([
      { task: 'spatial/a', perturbation: 'sensor-noise-delay', rate: 0.2 },
      // a tie between perturbations: the first one met wins; between tasks, the first one met
      { task: 'spatial/b', perturbation: 'position-shift', rate: 0.3 },
      { task: 'goal/c', perturbation: 'disturbance', rate: 0.3 },
    ]);
  });

  it('takes no more than asked, and none that the critic solves or that has no figure', () => {
    expect(weakestPairs(g, 1).map((p) => p.task)).toEqual(['spatial/a']);
    expect(weakestPairs(g, 10).map((p) => p.task)).toEqual(['spatial/a', 'spatial/b', 'goal/c']);
    expect(weakestPairs(governance({ nominal: { 'spatial/a': 1, 'spatial/b': 1 } }), 3)).toEqual([]);
  });

  it('from scratch, ranks by the policy alone, the perturbations taking turns, weakest first', () => {
    // policy alone (1 − both): position-shift mean 0.37, sensor-noise-delay 0.43, disturbance 0.5
    expect(weakestPairsByPerturbation(g, 2)).toEqual([
      // goal/c, which the critic solves under position-shift, is where the policy alone fails most there
      { task: 'goal/c', perturbation: 'position-shift', rate: 0 },
      // sensor-noise-delay's weakest is goal/c too: the next task takes its turn
      { task: 'spatial/b', perturbation: 'sensor-noise-delay', rate: 0.5 },
    ]);
    const three = weakestPairsByPerturbation(g, 3);
    expect(three.map((p) => p.perturbation)).toEqual(['position-shift', 'sensor-noise-delay', 'disturbance']);
    expect(three[2]).toEqual({ task: 'spatial/a', perturbation: 'disturbance', rate: expect.closeTo(0.1, 9) });
  });

  it('from scratch, a pair the probe found never solved goes last in its turn, and is still taken when nothing else is left', () => {
    // position-shift: goal/c (policy alone 0) would go first
    const unsolved = new Set([pairKey({ task: 'goal/c', perturbation: 'position-shift' })]);
    expect(weakestPairsByPerturbation(g, 1, 'policy', unsolved)).toEqual([
      { task: 'spatial/a', perturbation: 'position-shift', rate: expect.closeTo(0.4, 9) },
    ]);
    const only = governance({ 'position-shift': { 'goal/c': 1 } });
    expect(weakestPairsByPerturbation(only, 1, 'policy', unsolved)).toEqual([{ task: 'goal/c', perturbation: 'position-shift', rate: 0 }]);
  });

  it('from scratch, a perturbation whose tasks are all taken gives its turn to the next; no task twice', () => {
    const one = governance({ 'position-shift': { 'spatial/a': 0.9 }, disturbance: { 'spatial/a': 0.5, 'spatial/b': 0.8 } });
    expect(weakestPairsByPerturbation(one, 5)).toEqual([
      { task: 'spatial/a', perturbation: 'position-shift', rate: expect.closeTo(0.1, 9) },
      { task: 'spatial/b', perturbation: 'disturbance', rate: expect.closeTo(0.2, 9) },
    ]);
    expect(weakestPairsByPerturbation(governance({ nominal: { 'spatial/a': 0 } }), 3)).toEqual([]);
  });

  it('with several tasks a campaign, adds the next weakest under its perturbation, never a task another campaign leads', () => {
    const h = governance({
      'position-shift': { 'spatial/a': 0.2, 'spatial/b': 0.5, 'goal/c': 0.4, 'goal/d': 0.9, 'long/e': 1 },
      disturbance: { 'spatial/a': 0.9, 'spatial/b': 0.1, 'goal/c': 0.3, 'goal/d': 0.3 },
    });
    const leads = weakestPairs(h, 2);
    expect(leads.map((p) => [p.task, p.perturbation])).toEqual([
      ['spatial/b', 'disturbance'],
      ['spatial/a', 'position-shift'],
    ]);
    // spatial/a would be disturbance's fourth weakest, but it leads the second campaign; long/e is solved
    const widened = widenPairs(h, leads, 4, 'both');
    expect(widened.map((p) => p.tasks)).toEqual([['spatial/b', 'goal/c', 'goal/d'], ['spatial/a']]);
    expect(widened[0]!.rate).toBeCloseTo((0.1 + 0.3 + 0.3) / 3, 9);
    expect(widened[1]).toEqual({ task: 'spatial/a', perturbation: 'position-shift', rate: 0.2, tasks: ['spatial/a'] });
    // one task a campaign: the leads, unchanged
    expect(widenPairs(h, leads, 1, 'both')).toEqual(leads.map((p) => ({ ...p, tasks: [p.task] })));
  });

  it('runs campaigns side by side only where the cores hold more than one rollout pool', () => {
    const cores = availableParallelism();
    expect(campaignsAtOnce(3, cores, false)).toBe(1);
    expect(campaignsAtOnce(3, 1, false)).toBe(Math.min(3, cores));
    expect(campaignsAtOnce(3, cores, true)).toBe(3);
    expect(campaignsAtOnce(0, 1, false)).toBe(1);
  });
});
