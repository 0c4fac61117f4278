// zetta run's final stage scores on seeds that chose nothing: above the governance seeds (which chose
// the campaigns' tasks), the held-out seeds (which chose what was promoted) and the confirmation
// seeds, clear of the development seeds. The default critic without skills runs beside the final
// system there, so the two are compared at the same seeds. Real tabletop rollouts, one per task.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEV_SEED_BASE } from '../../evolution/index.js';
import { finalFirstSeed } from '../../experiments/run/final-seeds.js';
import { runFinalStage } from '../../experiments/run/final-stage.js';
import { runPromotionStage } from '../../experiments/run/promotion-stage.js';
import { FULL_RUN, QUICK_RUN } from '../../experiments/run/settings.js';
import { campaign, tmp } from '../skills/campaign.js';

describe('the final stage of zetta run', () => {
  it('starts its seeds above every seed that chose, and clear of the development seeds', () => {
    for (const s of [FULL_RUN, QUICK_RUN]) expect(finalFirstSeed({ ...s, firstSeed: 1000 }, s.episodes)).toBe(3000);
    const wide = {
      firstSeed: 1000,
      episodes: 50,
      heldout: '1000-1019,4000-4049',
      confirmation: '2000-2019',
      devEpisodes: 30,
      generations: 2,
    };
    expect(finalFirstSeed(wide, 50)).toBe(5000);
    // governance seeds that reach the development block push the final block past it
    const near = { ...wide, firstSeed: DEV_SEED_BASE - 1050, episodes: 100 };
    expect(finalFirstSeed(near, 100)).toBe(DEV_SEED_BASE + 1000);
    // a block that ends below them stays where it is
    expect(finalFirstSeed({ ...near, firstSeed: DEV_SEED_BASE - 1200 }, 100)).toBe(DEV_SEED_BASE - 1000);
  });

  it('runs the default and the final system side by side at the same fresh seeds', async () => {
    const root = tmp('zetta-run-final-');
    const summary = await campaign(join(root, 'campaign'), true);
    const db = join(root, 'skills.db');
    const promotion = await runPromotionStage(
      {
        campaigns: [
          {
            task: 'spatial/left_cube_in_bowl',
            perturbation: 'position-shift',
            parent_rate: 0.5,
            campaign: summary,
            learning_curve: [],
            ok: true,
          },
        ],
        in_parallel: 1,
        ok: true,
      },
      { db, autoApprove: true },
    );
    expect(promotion.skills.map((s) => s.state)).toEqual(['active']);
    const firstSeed = finalFirstSeed({ ...QUICK_RUN, firstSeed: 1000, episodes: 1 }, 1);
    const systems: string[] = [];
    const r = await runFinalStage(db, [], {
      policy: 'embedded',
      critic: 'default',
      referenceCritic: 'default',
      conditions: ['position-shift'],
      episodes: 1,
      firstSeed,
      workers: 1,
      envsPerWorker: 1, // from sources the rollouts run in this thread
      recordDir: join(root, 'episodes'),
      skillsDir: join(root, 'skills'),
      onArm: (system, _condition, _run, i) => systems.push(`${system} ${i}`),
      onProgress: () => {},
    });
    expect(r.first_seed).toBe(3000);
    const reference = r.reference!.conditions['position-shift']!;
    const final = r.governance!.conditions['position-shift']!;
    expect(reference.seeds).toEqual([3000]);
    expect(final.seeds).toEqual([3000]);
    // every arm of the default ran before the final system's, each once
    expect(systems).toEqual([...[0, 1, 2, 3, 4].map((i) => `reference ${i}`), ...[0, 1, 2, 3, 4].map((i) => `final ${i}`)]);
    // the policy alone is one system in both, and the same seeds give it the same outcomes
    expect(final.arms.policy.tasks).toEqual(reference.arms.policy.tasks);
    // the skill composed onto the final system's critic only
    expect(r.reference!.skills).toBeUndefined();
    expect(r.governance!.skills?.tasks).toBeDefined();
    expect(r.ok).toBe(true);
  }, 240_000);
});
