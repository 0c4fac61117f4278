// The actuation-lag compensation of recovery programs in the real simulator: the frozen embedded
// policy under sensor-noise-delay (two steps of actuation delay), governed by the privileged oracle
// bundle (whose programs servo with a deadbeat gain that a lag makes oscillate), and by the same
// bundle whose programs are told the lag. Seeded, so the counts are fixed.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolvePerturbation } from '../../sim/tabletop/index.js';
import { packagePath } from '../../util/package-root.js';
import { evaluate } from '../../measure/evaluation.js';
import { resolveCriticSpec } from '../../zinfra/runtime/open-critic.js';

const dir = mkdtempSync(join(tmpdir(), 'zetta-lag-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The oracle bundle, with every program told that commands land `lag` steps late. */
function oracleBundleWithLag(lag: number): string {
  const out = join(dir, `oracle-lag${lag}`);
  cpSync(packagePath('critic', 'bundles', 'oracle'), out, { recursive: true });
  const file = join(out, 'recoveries.json');
  const recoveries = JSON.parse(readFileSync(file, 'utf8')) as { programs: Array<Record<string, unknown>> };
  for (const p of recoveries.programs) p.lag_steps = lag;
  writeFileSync(file, JSON.stringify(recoveries));
  return out;
}

describe('recovery programs told the actuation lag, in the embedded suite', () => {
  it('complete the regrasps the oracle programs oscillate through', async () => {
    const plan = {
      tasks: ['spatial/left_cube_in_bowl'],
      episodesPerTask: 10,
      firstSeed: 3000,
      perturbation: resolvePerturbation('sensor-noise-delay'),
      policy: 'embedded',
      executeSteps: 5,
    };
    const parent = await evaluate({ ...plan, critic: resolveCriticSpec('oracle') }, { workers: 1 });
    const told = await evaluate({ ...plan, critic: resolveCriticSpec(oracleBundleWithLag(3)) }, { workers: 1 });
    const successes = (r: typeof parent) => r.outcomes.filter((o) => o.success).length;
    expect(parent.infraFailures + told.infraFailures).toBe(0);
    expect(successes(told)).toBeGreaterThanOrEqual(successes(parent) + 3);
  });
});
