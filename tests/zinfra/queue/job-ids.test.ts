// Job ids are the queue's idempotency: the same episode of the same run gets the same id (so a
// restarted coordinator finds it), and anything its outcome depends on gives another.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jobIdsFor } from '../../../zinfra/queue/job-schema.js';
import { parseRedisUrl } from '../../../zinfra/queue/redis-url.js';
import { planJobs, type EvaluationPlan } from '../../../measure/evaluation.js';
import { resolveCriticSpec } from '../../../zinfra/runtime/open-critic.js';
import { packagePath } from '../../../util/package-root.js';

const plan: EvaluationPlan = {
  tasks: ['spatial/left_cube_in_bowl', 'goal/open_drawer'],
  episodesPerTask: 3,
  firstSeed: 1000,
  policy: 'embedded',
  executeSteps: 5,
  critic: resolveCriticSpec('default'),
};
const ids = (p: EvaluationPlan, scope = 'runs/a') => jobIdsFor(scope, p, planJobs(p));

describe('episode job ids', () => {
  it('are the same for the same run and episode, and distinct across episodes', () => {
    expect(ids(plan)).toEqual(ids(plan));
    expect(new Set(ids(plan)).size).toBe(6);
    expect(ids(plan)[0]).toMatch(/^spatial_left_cube_in_bowl\.1000\.[0-9a-f]{32}$/);
  });

  it('change with the run, the policy, the perturbation, k and the content of the critic bundle', () => {
    const base = ids(plan);
    const dir = mkdtempSync(join(tmpdir(), 'zetta-bundle-'));
    cpSync(packagePath('critic', 'bundles', 'default'), dir, { recursive: true });
    const copy = resolveCriticSpec(dir)!;
    expect(ids({ ...plan, critic: copy })).toEqual(base); // same content elsewhere: the same arm
    const rules = join(dir, 'rules.json');
    writeFileSync(rules, readFileSync(rules, 'utf8').replace(/\s*$/, '\n\n'));
    for (const other of [
      ids(plan, 'runs/b'),
      ids({ ...plan, policy: 'null:open' }),
      ids({ ...plan, perturbation: { robot: { init_pose_noise_m: 0.01 } } }),
      ids({ ...plan, executeSteps: 1 }),
      ids({ ...plan, critic: copy }),
    ]) {
      expect(other.some((id, i) => id === base[i])).toBe(false);
    }
  });
});

describe('--queue URLs', () => {
  it('read host, port (6379 by default) and database', () => {
    expect(parseRedisUrl('redis://10.0.0.5:7000/2')).toEqual({ host: '10.0.0.5', port: 7000, db: 2 });
    expect(parseRedisUrl('redis://queue.local')).toEqual({ host: 'queue.local', port: 6379, db: 0 });
  });

  it('refuse what is not a redis:// or rediss:// URL, naming the flag', () => {
    for (const bad of ['localhost:6379', 'http://h:1', 'http://u:p@h:1', 'redis://h:1/x'])
      expect(() => parseRedisUrl(bad)).toThrow(/--queue/);
  });
});
