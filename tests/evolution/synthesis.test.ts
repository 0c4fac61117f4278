// Candidate synthesis: which changes a generation tries first (clusters of one stage proposing one
// template are one change), and the programs a new rule starts.
import { describe, expect, it } from 'vitest';
import { loadRecoveries, loadRules } from '../../critic/index.js';
import type { FailureCluster } from '../../evolution/clustering/cluster-failures.js';
import type { Diagnosis, Hypothesis } from '../../evolution/diagnosis/schema.js';
import { programFor } from '../../evolution/synthesis/programs.js';
import { TABLETOP_RESTORES } from '../../sim/tabletop/restore-actions.js';
import { candidateManifest, rankHypotheses } from '../../evolution/synthesis/synthesize.js';
import { fittableRule } from '../../evolution/synthesis/templates.js';
import { TABLETOP_LAYOUT } from '../support/tabletop.js';

const cluster = (id: string, stage: number, size: number): FailureCluster => ({
  id,
  first_missing: `cube.m${stage}`,
  first_missing_index: stage,
  seeds: Array.from({ length: size }, (_, i) => 100 * stage + i),
  medoid_seed: 100 * stage,
  size,
});

const hypothesis = (template: Hypothesis['template'], score: number, extra: Partial<Hypothesis> = {}): Hypothesis => ({
  id: `h-${template}`,
  layer: 'planning',
  template,
  score,
  mechanism: 'm',
  rationale: 'r',
  ...extra,
});

const diagnosis = (c: string, hypotheses: Hypothesis[]): Diagnosis => ({
  cluster: c,
  layer: 'planning',
  mechanism: 'm',
  hypotheses,
  falsifier: { statement: 's', metric: 'shadow_trigger_rate', op: 'lt', value: 0.3 },
});

describe('rankHypotheses', () => {
  it('pools clusters of one stage that propose one template, weighting the change by all their failures', () => {
    // Three small clusters stalled in stage 3 all say "oscillation"; one larger cluster in stage 6 says "stall".
    const clusters = [cluster('c1', 6, 4), cluster('c2', 3, 2), cluster('c3', 3, 2), cluster('c4', 3, 1)];
    const diagnoses = [
      diagnosis('c1', [hypothesis('stall', 0.9)]),
      diagnosis('c2', [hypothesis('oscillation', 1), hypothesis('deadline', 0.5)]),
      diagnosis('c3', [hypothesis('oscillation', 0.8)]),
      diagnosis('c4', [hypothesis('oscillation', 1)]),
    ];
    const ranked = rankHypotheses(diagnoses, clusters);
    expect(ranked.map((r) => [r.hypothesis.template, r.cluster, r.pooled])).toEqual([
      ['oscillation', 'c2', ['c2', 'c3', 'c4']], // 2 + 1.6 + 1 = 4.6
      ['stall', 'c1', ['c1']], // 3.6
      ['deadline', 'c2', ['c2']], // 1
    ]);
    expect(ranked[0]!.weight).toBeCloseTo(4.6);
  });

  it('keeps the same template in different stages apart, and one parent rule suppressed from two clusters as one change', () => {
    const clusters = [cluster('c1', 1, 3), cluster('c2', 2, 3)];
    const suppress = hypothesis('suppress_rule', 0.6, { rule_id: 'oscillation' }); // pooled 3.6 > 3
    const ranked = rankHypotheses(
      [diagnosis('c1', [hypothesis('stall', 1), suppress]), diagnosis('c2', [hypothesis('stall', 1), suppress])],
      clusters,
    );
    expect(ranked.map((r) => `${r.hypothesis.template}:${r.pooled.join('+')}`)).toEqual(['suppress_rule:c1+c2', 'stall:c1', 'stall:c2']);
  });

  it('never proposes a hypothesis whose template is none', () => {
    expect(rankHypotheses([diagnosis('c1', [hypothesis('none', 1)])], [cluster('c1', 0, 5)])).toEqual([]);
  });
});

type Step = { tool: string; budget: number; until?: unknown };
const stepsOf = (program: NonNullable<ReturnType<typeof programFor>>) => program.steps as unknown as Step[];

describe('programFor', () => {
  const compile = (program: NonNullable<ReturnType<typeof programFor>>) =>
    loadRecoveries({ version: 1, programs: [program] }, { layout: TABLETOP_LAYOUT, privileged: true });

  it('restores for every stage of moving an object, and leaves closing, carrying and releasing to the policy', () => {
    for (const m of ['red_cube.reached', 'red_cube.grasped', 'red_cube.transported', 'red_cube.placed', 'red_cube.released']) {
      const program = programFor(m, 'p', TABLETOP_RESTORES)!;
      expect(stepsOf(program).map((s) => s.tool)).toEqual(['open_gripper', 'lift', 'move_above']);
      expect(program.budget).toBeGreaterThanOrEqual(stepsOf(program).reduce((n, s) => n + s.budget, 0));
      // aimed at the object as the policy observes it, never at simulator truth
      expect(JSON.stringify(program)).not.toMatch(/privileged\./);
      expect(() => loadRecoveries({ version: 1, programs: [program] }, { layout: TABLETOP_LAYOUT, privileged: false })).not.toThrow();
    }
  });

  it('lifts a little and hands back where no object is to be re-centred on: a button, a drawer', () => {
    expect(stepsOf(programFor('button.reached', 'p', TABLETOP_RESTORES)!).map((s) => s.tool)).toEqual(['lift', 'hold']);
    expect(stepsOf(programFor('cabinet.opened', 'p', TABLETOP_RESTORES)!).map((s) => s.tool)).toEqual(['lift', 'hold']);
    for (const m of ['button.pressed', 'drawer.closed']) expect(() => compile(programFor(m, 'p', TABLETOP_RESTORES)!)).not.toThrow();
  });
});

describe('fittableRule', () => {
  const args = { ruleId: 'r', recoveryId: 'p', stage: 3, successSteps: 40 };
  const load = (rule: unknown, privileged: boolean) =>
    loadRules({ version: 1, rules: [rule] }, { layout: TABLETOP_LAYOUT, privileged, knownRecoveries: ['p'] });

  it('builds the disturbance rule from what a robot perceives: it loads where privileged features are withheld', () => {
    const rule = fittableRule('disturbance', args)!.rule;
    expect(JSON.stringify(rule)).not.toMatch(/privileged\./);
    expect(rule.guards).toContainEqual({ op: 'ge', feature: 'observed.objects_left', value: 1 });
    expect(() => load(rule, false)).not.toThrow();
  });

  it('confines the other templates to the failures stage, which only a simulator knows', () => {
    for (const template of ['stall', 'oscillation', 'deadline', 'grasp_empty'] as const) {
      const rule = fittableRule(template, args)!.rule;
      expect(rule.guards, template).toContainEqual({ op: 'eq', feature: 'privileged.milestones_reached', value: 3 });
      expect(() => load(rule, false), template).toThrow(/privileged/);
    }
  });
});

describe('candidateManifest', () => {
  const parent = {
    version: 1 as const,
    name: 'default',
    description: 'd',
    privileged: false,
    rules: 'rules.json',
    recoveries: 'recoveries.json',
    during_recovery: 'queue' as const,
  };

  it('keeps how the parent answers an actuation lag: the change under test is the rule or program, not that', () => {
    const aligned = candidateManifest({ ...parent, align_chunks_to_lag: true }, 'g1-k0', 'note', { privileged: false });
    expect(aligned).toMatchObject({
      name: 'default+g1-k0',
      description: 'note',
      align_chunks_to_lag: true,
      during_recovery: 'queue',
      privileged: false,
    });
    const when = { op: 'ge' as const, feature: 'observed.objects_left', value: 1 };
    expect(candidateManifest({ ...parent, wait_out_lag: { when } }, 'g1-k1', 'n', { privileged: false }).wait_out_lag).toEqual({ when });
    const plain = candidateManifest(parent, 'g1-k2', 'n', { privileged: true, privileged_reason: 'reads x' });
    expect('wait_out_lag' in plain || 'align_chunks_to_lag' in plain).toBe(false);
    expect(plain.privileged_reason).toBe('reads x');
  });
});
