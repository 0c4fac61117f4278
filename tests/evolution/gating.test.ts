// The cheap end of the gates: candidates rejected before a single rollout, and the behaviour hash
// that tells a change already judged from one merely described differently.
import { describe, expect, it } from 'vitest';
import type { CampaignContext } from '../../evolution/campaign/context.js';
import { devGates, type GateInput } from '../../evolution/campaign/gating.js';
import { behaviourSha, bundleSha } from '../../evolution/synthesis/bundle-files.js';
import type { CandidateSpec } from '../../evolution/synthesis/synthesize.js';

// No rollout may run: a context whose every member throws proves it.
const noRollouts = new Proxy(
  {},
  {
    get: () => {
      throw new Error('a rollout ran');
    },
  },
) as CampaignContext;

const spec = {
  id: 'g2-k0',
  generation: 2,
  cluster: 'c1',
  pooled: ['c1'],
  changed_rules: ['r'],
  fit: null,
  parent_sha256: 'p',
  bundle_sha256: 'b',
  bundle_dir: 'bundles/b',
  unbuildable: null,
  hypothesis: { id: 'recovery-actuation-lag', layer: 'recovery', template: 'compensate_lag', mechanism: 'm', score: 0.9, rationale: 'r' },
} as CandidateSpec;

const input = (over: Partial<GateInput>): GateInput => ({
  generation: 2,
  parent: {} as GateInput['parent'],
  dev: {} as GateInput['dev'],
  spec,
  shadow: null,
  falsifier: { statement: 's', metric: 'shadow_trigger_rate', op: 'lt', value: 0.3 },
  duplicate: false,
  ...over,
});

describe('devGates before any rollout', () => {
  it('does not let a bundle take the held-out test a second time in one campaign', async () => {
    const v = await devGates(noRollouts, input({ judgedOnHeldout: true }));
    expect(v).toMatchObject({ decision: 'rejected', stage: 'synthesis', ran_dev: false, ran_heldout: false });
    expect(v.reason).toMatch(/already judged on the held-out seeds/);
  });

  it('rejects an unbuildable candidate and a duplicate of this generation', async () => {
    expect((await devGates(noRollouts, input({ spec: { ...spec, unbuildable: 'no lag' } }))).reason).toBe('no lag');
    expect((await devGates(noRollouts, input({ duplicate: true }))).reason).toMatch(/same change/);
  });
});

describe('behaviourSha', () => {
  const content = (description: string, evidence: string[], lag: number) => ({
    manifest: {
      version: 1 as const,
      name: `default+${description}`,
      description,
      privileged: true,
      rules: 'rules.json',
      recoveries: 'recoveries.json',
      during_recovery: 'preempt_safety' as const,
    },
    rules: {
      version: 1 as const,
      rules: [
        {
          id: 'r',
          description,
          evidence,
          when: { op: 'gt' as const, feature: 'robot.eef_z', value: 0.3 },
          propose: { action: 'recovery' as const, recovery: 'p', priority: 1 },
        },
      ],
    },
    recoveries: {
      version: 1 as const,
      programs: [{ id: 'p', description, budget: 9, lag_steps: lag, steps: [{ tool: 'hold', budget: 3 }] }],
    },
  });

  it('is equal for bundles that differ only in their notes, and differs when what they do differs', () => {
    expect(behaviourSha(content('from gen 1', ['c/gen-1/c1'], 3))).toBe(behaviourSha(content('from gen 2', ['c/gen-2/c4'], 3)));
    expect(behaviourSha(content('from gen 1', [], 3))).not.toBe(behaviourSha(content('from gen 1', [], 2)));
    expect(bundleSha(content('from gen 1', [], 3))).not.toBe(bundleSha(content('from gen 2', [], 3)));
  });
});
