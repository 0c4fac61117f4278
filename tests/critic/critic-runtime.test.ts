import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBundle } from '../../critic/bundles/bundle.js';
import { CriticRuntime, STEP_POLICY, STEP_RECOVERY, STEP_REENTER } from '../../critic/critic-runtime.js';
import { TABLETOP_LAYOUT } from '../support/tabletop.js';

/** A bundle on disk: a long non-safety recovery from step 0, and a safety rule from step 5. */
function writeBundle(): string {
  const dir = mkdtempSync(join(tmpdir(), 'zetta-critic-'));
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({ version: 1, name: 'preempt', privileged: false, rules: 'rules.json', recoveries: 'recoveries.json' }),
  );
  writeFileSync(
    join(dir, 'rules.json'),
    JSON.stringify({
      version: 1,
      rules: [
        {
          id: 'busy',
          when: { op: 'ge', feature: 'episode.step', value: 0 },
          cooldown: 1000,
          propose: { action: 'recovery', recovery: 'long_hold', priority: 50 },
        },
        {
          id: 'nudge',
          when: { op: 'ge', feature: 'episode.step', value: 2 },
          propose: { action: 'recovery', recovery: 'safe_lift', priority: 99 },
        },
        {
          id: 'danger',
          when: { op: 'ge', feature: 'episode.step', value: 5 },
          cooldown: 1000,
          propose: { action: 'recovery', recovery: 'safe_lift', priority: 0 },
          safety: true,
        },
      ],
    }),
  );
  writeFileSync(
    join(dir, 'recoveries.json'),
    JSON.stringify({
      version: 1,
      programs: [
        { id: 'long_hold', budget: 50, steps: [{ tool: 'hold', budget: 40 }] },
        {
          id: 'safe_lift',
          budget: 6,
          reentry: { stable_steps: 0, max_speed: 1, max_width_rate: 1 },
          steps: [{ tool: 'lift', params: { speed: 0.5 }, budget: 3 }],
        },
      ],
    }),
  );
  return dir;
}

/** A bundle whose one rule never fires. */
function quietBundle() {
  const dir = mkdtempSync(join(tmpdir(), 'zetta-critic-'));
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({ version: 1, name: 'quiet', privileged: false, rules: 'r.json', recoveries: 'p.json' }),
  );
  writeFileSync(
    join(dir, 'r.json'),
    JSON.stringify({
      version: 1,
      rules: [{ id: 'never', when: { op: 'lt', feature: 'episode.step', value: -1 }, propose: { action: 'hold' } }],
    }),
  );
  writeFileSync(join(dir, 'p.json'), JSON.stringify({ version: 1, programs: [] }));
  return loadBundle(dir, { layout: TABLETOP_LAYOUT, privileged: false });
}

describe('CriticRuntime', () => {
  const bundle = loadBundle(writeBundle(), { layout: TABLETOP_LAYOUT, privileged: false });
  const runtime = () => new CriticRuntime({ bundle, privileged: false, workspace: { min: [-1, -1, 0], max: [1, 1, 1] } });
  const state = [0, 0, 0.2, 0, 0, 0, 0.04, 0.04];
  const policyAction = [0.1, 0, 0, 0, 0, 0, -1];

  it('lets a safety proposal pre-empt a running recovery; non-safety ones are ignored while it runs', () => {
    const c = runtime();
    c.reset();
    expect(c.decide(state, policyAction, null)).toBe(STEP_RECOVERY);
    expect(c.describe(false).decision).toMatchObject({ kind: 'recover', recovery: 'long_hold', reason: 'rule busy' });
    c.finish(state);
    for (let t = 1; t < 5; t++) {
      expect(c.recovering).toBe(true);
      expect(c.decide(state, null, null)).toBe(STEP_RECOVERY);
      const { decision, proposals } = c.describe(false);
      expect(decision.recovery).toBe('long_hold'); // `nudge` fires from step 2 (priority 99) and is ignored
      if (t >= 2) expect(proposals.map((p) => p.ruleId)).toContain('nudge');
      c.finish(state);
    }
    expect(c.decide(state, null, null)).toBe(STEP_RECOVERY);
    expect(c.describe(false).decision).toMatchObject({ kind: 'recover', recovery: 'safe_lift', reason: 'rule danger' });
    const sent = c.finish(state);
    expect(sent[2]).toBeGreaterThan(0); // lifting
    // The safety program runs to its end and hands back through re-entry within its budget.
    let code: number = STEP_RECOVERY;
    for (let t = 0; t < 8 && code === STEP_RECOVERY; t++) {
      code = c.decide(state, null, null);
      if (code === STEP_RECOVERY) c.finish(state);
    }
    expect(code).toBe(STEP_REENTER);
    c.resume(policyAction);
    expect(Array.from(c.finish(state))).toEqual(Array.from(Float32Array.from(policyAction)));
    expect(c.describe(true).decision).toMatchObject({ kind: 'reenter', recovery: 'safe_lift' });
    expect(c.recoveriesStarted).toBe(2);
  });

  it('applies the envelope last to what the governor passes on', () => {
    const c = new CriticRuntime({ bundle: quietBundle(), privileged: false, workspace: { min: [-1, -1, 0], max: [1, 1, 0.21] } });
    c.reset();
    expect(c.decide(state, [0, 0, 1, 0, 0, 0, -1], null)).toBe(STEP_POLICY);
    const sent = c.finish(state);
    expect(0.2 + 0.05 * sent[2]!).toBeLessThanOrEqual(0.21 + 1e-6); // cut at the box, not after it
    expect(c.envelopeHits).toBe(1);
    expect(c.describe(false).decision.reason).toMatch(/envelope .*workspace/);
  });

  it('passes the policy action through untouched when no rule fires', () => {
    const c = new CriticRuntime({ bundle: quietBundle(), privileged: false, workspace: { min: [-1, -1, 0], max: [1, 1, 1] } });
    c.reset();
    expect(c.decide(state, policyAction, null)).toBe(STEP_POLICY);
    expect(Array.from(c.finish(state))).toEqual(Array.from(Float32Array.from(policyAction)));
    expect(c.describe(false)).toEqual({ proposals: [], decision: { kind: 'execute' } });
  });
});
