// The run's reach stage in the real tabletop simulator: each approved skill is tried on every task its
// campaign did not run on, the verdicts go into the store, a lag answer is not tried, and report.md,
// report.html and the terminal say where each skill loads.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderRunHtml } from '../../experiments/run/report-html.js';
import { renderMarkdown, type RunReport } from '../../experiments/run/report.js';
import type { EvolutionStageResult } from '../../experiments/run/evolution-stage.js';
import type { PromotionStageResult } from '../../experiments/run/promotion-stage.js';
import { runReachStage } from '../../experiments/run/reach-stage.js';
import { writeEmptyBundle } from '../../evolution/index.js';
import { listTasks } from '../../sim/tabletop/index.js';
import { REACH_FIRST_SEED, SkillStore, type SkillContent } from '../../skills/index.js';
import { tmp } from '../skills/campaign.js';
import { fixtureSkill, MISSED_GRASP_FEATURES, MISSED_GRASP_RETRY } from '../skills/fixture-skill.js';

const SOURCE = 'spatial/front_cube_in_bowl';

describe('the reach stage of zetta run', () => {
  it('tries the retry on every other task, records it, leaves the lag answer untried, and reports both', async () => {
    const dir = tmp('zetta-reach-stage-');
    const db = join(dir, 'skills.db');
    const retry = fixtureSkill('retry', MISSED_GRASP_RETRY, { suite: 'spatial', source_task: SOURCE, features: MISSED_GRASP_FEATURES });
    const lag = fixtureSkill('lag', { rules: [], programs: [] }, { suite: 'all', source_task: 'goal/press_button', features: [] });
    const lagContent: SkillContent = {
      ...lag.content,
      changes: { ...lag.content.changes, options: { align_chunks_to_lag: true } },
    };
    const who = { actor: 'ada', reason: 'test' };
    const [retryId, lagId] = SkillStore.using(db, (s) =>
      [s.add(retry.content, retry.files, who).id, s.add(lagContent, lag.files, who).id].map((id) => {
        s.transition(id, 'approve', who);
        return id;
      }),
    );
    const promoted = (id: string, task: string, campaign_id: string) => ({
      id,
      name: id,
      state: 'active' as const,
      created: true,
      auto_approved: true,
      campaign_id,
      task,
      perturbation: 'disturbance',
    });
    const promotion: PromotionStageResult = {
      db,
      skills: [promoted(retryId!, SOURCE, 'c1'), promoted(lagId!, 'goal/press_button', 'c2')],
      awaiting_approval: false,
      ok: true,
    };
    const evolution = {
      campaigns: [{ task: SOURCE, tasks: [SOURCE], campaign: { campaign_id: 'c1' } }],
    } as unknown as EvolutionStageResult;
    const reach = await runReachStage(promotion, evolution, {
      db,
      critic: writeEmptyBundle(join(dir, 'critic')),
      conditions: ['disturbance'],
      episodes: 1,
      dir: join(dir, 'reach'),
      workers: 1,
      envsPerWorker: 1,
      onProgress: () => {},
    });
    expect(reach.first_seed).toBe(REACH_FIRST_SEED);
    const [tried, untried] = reach.skills;
    const others = listTasks()
      .map((t) => t.id)
      .filter((t) => t !== SOURCE);
    expect(tried!.verdicts.map((v) => v.task)).toEqual(others);
    expect(tried!.verdicts.find((v) => v.task === 'goal/press_button')).toMatchObject({ loads: false, evidence: { b: 0, c: 1 } });
    expect(tried!.verdicts.some((v) => v.loads)).toBe(true);
    expect(untried).toMatchObject({ id: lagId, verdicts: [], not_tried: expect.stringContaining('loads on every task') });
    const stored = SkillStore.using(db, (s) => s.reach(retryId!));
    expect([...stored.keys()]).toEqual(others);
    expect(SkillStore.using(db, (s) => s.reach(lagId!).size)).toBe(0);

    const report: RunReport = { started: '2026-12-07T00:00:00Z', out: dir, stages: { promotion, reach } };
    const loads = tried!.verdicts.filter((v) => v.loads).length;
    const md = renderMarkdown(report);
    expect(md).toContain(`- Reach trial of \`${retryId}\` (seeds ${REACH_FIRST_SEED}+, 1 a task and perturbation`);
    expect(md).toContain(`loads on ${loads} of ${others.length} other tasks`);
    expect(md).toMatch(/it broke more than it rescued on [^\n]*goal\/press_button/);
    expect(md).toContain(`- Skill \`${lagId}\` was not tried for reach`);
    const html = renderRunHtml(report, undefined);
    expect(html).toContain('<h2>Reach trials</h2>');
    expect((html.match(/<b>loads<\/b>/g) ?? []).length).toBe(loads);
  }, 600_000);
});
