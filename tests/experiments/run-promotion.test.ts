// zetta run's promotion: each campaign's promoted bundle becomes a pending skill; without
// --auto-approve the run stops for an approver and `--resume` goes on with whatever was decided;
// with it, the operator `auto` approves (and the audit log says so). The campaigns are real ones over
// synthetic episodes (tests/skills/campaign.ts); the earlier stages of the resumed run are kept from
// its report, so no simulator runs here.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CampaignSummary } from '../../evolution/index.js';
import { QUICK_RUN, runExperiment, type RunReport } from '../../experiments/run/index.js';
import type { EvolutionStageResult } from '../../experiments/run/evolution-stage.js';
import { AUTO_APPROVER, runPromotionStage } from '../../experiments/run/promotion-stage.js';
import { SkillStore } from '../../skills/index.js';
import { campaign, tmp } from '../skills/campaign.js';

const TASKS = ['spatial/left_cube_in_bowl', 'object/green_cube_in_bowl', 'goal/open_drawer'];

const evolutionOf = (...summaries: CampaignSummary[]): EvolutionStageResult => ({
  campaigns: summaries.map((campaign, i) => ({
    task: TASKS[i]!,
    perturbation: 'disturbance',
    parent_rate: 0.5,
    campaign,
    learning_curve: [],
    ok: true,
  })),
  in_parallel: 1,
  ok: true,
});

describe('zetta run: promotion into the skill store', () => {
  let promoted: CampaignSummary;
  let another: CampaignSummary;
  let nothing: CampaignSummary;
  beforeAll(async () => {
    const base = tmp('zetta-run-promotion-');
    promoted = await campaign(join(base, 'promoted'), true);
    another = await campaign(join(base, 'another'), true, 3000);
    nothing = await campaign(join(base, 'nothing'), false);
    expect([promoted.promoted, another.promoted, nothing.promoted]).toEqual([true, true, false]);
  }, 180_000);

  it('adds nothing when the campaign promoted nothing', async () => {
    const db = join(tmp(), 'skills.db');
    const r = await runPromotionStage(evolutionOf(nothing), { db, autoApprove: true });
    expect(r).toMatchObject({ skills: [], awaiting_approval: false });
    expect(existsSync(db)).toBe(false);
  });

  it('leaves the skill pending for an approver without --auto-approve, and adds it once', async () => {
    const db = join(tmp(), 'skills.db');
    const first = await runPromotionStage(evolutionOf(promoted), { db, autoApprove: false });
    expect(first.skills).toEqual([
      expect.objectContaining({ state: 'pending', created: true, auto_approved: false, task: TASKS[0], campaign_id: promoted.campaign_id }),
    ]);
    expect(first.awaiting_approval).toBe(true);
    const again = await runPromotionStage(evolutionOf(promoted), { db, autoApprove: false });
    expect(again.skills).toEqual([expect.objectContaining({ id: first.skills[0]!.id, state: 'pending', created: false })]);
  });

  it('approves as the operator auto with --auto-approve, in the audit log', async () => {
    const db = join(tmp(), 'skills.db');
    const r = await runPromotionStage(evolutionOf(promoted), { db, autoApprove: true });
    expect(r.skills.map((s) => [s.state, s.auto_approved])).toEqual([['active', true]]);
    const audit = SkillStore.using(db, (s) => s.auditLog(r.skills[0]!.id));
    expect(audit.map((a) => [a.from_state, a.to_state, a.actor])).toEqual([
      [null, 'pending', 'zetta run'],
      ['pending', 'active', AUTO_APPROVER],
    ]);
    // approved before: this run approved nothing, and says so
    const later = await runPromotionStage(evolutionOf(promoted), { db, autoApprove: true });
    expect(later.skills.map((s) => [s.state, s.auto_approved, s.created])).toEqual([['active', false, false]]);
  });

  it("adds one skill per campaign that promoted, in the campaigns' order", async () => {
    const db = join(tmp(), 'skills.db');
    const r = await runPromotionStage(evolutionOf(promoted, nothing, another), { db, autoApprove: false });
    expect(r.skills.map((s) => [s.task, s.campaign_id, s.state])).toEqual([
      [TASKS[0], promoted.campaign_id, 'pending'],
      [TASKS[2], another.campaign_id, 'pending'],
    ]);
    expect(new Set(r.skills.map((s) => s.id)).size).toBe(2);
    expect(SkillStore.using(db, (s) => s.list().length)).toBe(2);
  });

  it('stops the run for an approver, then resumes with what the approver decided', async () => {
    const out = join(tmp(), 'run');
    mkdirSync(out, { recursive: true });
    const db = join(tmp(), 'skills.db');
    const earlier: RunReport = {
      started: '2026-12-03T00:00:00.000Z',
      out,
      settings: { ...QUICK_RUN, autoApprove: false },
      // finished stages of the run being resumed: kept as they are, not run again
      stages: {
        wire: { ok: true, node: { p50_ms: 1, p99_ms: 1, requests: 1 }, python: { skipped: 'not in this test' } },
        expert: { ok: true, tasks: {}, macro_success: 1 },
        baseline: { ok: true, conditions: {}, problems: [] },
        governance: { ok: true, conditions: {}, interventions: {}, both_by_seed: {}, problems: [], mean_synergy: 0 },
        evolution: evolutionOf(promoted, nothing, another),
      } as unknown as RunReport['stages'],
      timings: {},
    };
    const options = { ...QUICK_RUN, out, skillStore: db, autoApprove: false };
    const stopped = await runExperiment({ ...options, resume: earlier });
    const skills = stopped.report.stages.promotion!.skills.map((s) => s.id);
    expect(skills).toHaveLength(2);
    expect(stopped.report.awaiting).toEqual({ skills, console: `zetta console --db ${db}`, resume: `zetta run --resume ${out}` });
    expect(stopped.report.stages.final).toBeUndefined();
    expect(stopped.report.finished).toBeUndefined();
    const html = readFileSync(stopped.files.html, 'utf8');
    expect(html).toContain('waiting for an approver');
    for (const id of skills) expect(html).toContain(id);
    expect(readFileSync(stopped.files.markdown, 'utf8')).toContain('Approve or reject them in the console');

    // one decided, one still pending: the run stops again for the other
    SkillStore.using(db, (s) => s.transition(skills[0]!, 'reject', { actor: 'ada', reason: 'not on this robot' }));
    const halfway = await runExperiment({ ...options, resume: JSON.parse(readFileSync(stopped.files.json, 'utf8')) as RunReport });
    expect(halfway.report.awaiting?.skills).toEqual([skills[1]]);

    SkillStore.using(db, (s) => s.transition(skills[1]!, 'reject', { actor: 'ada', reason: 'not on this robot' }));
    const saved = JSON.parse(readFileSync(halfway.files.json, 'utf8')) as RunReport;
    const resumed = await runExperiment({ ...options, resume: saved });
    expect(resumed.report.stages.promotion!.skills.map((s) => s.state)).toEqual(['rejected', 'rejected']);
    expect(resumed.report.awaiting).toBeUndefined();
    // no skill is active, so the final system is the default critic and nothing ran
    expect(resumed.report.stages.final).toMatchObject({ active_skills: [], governance: null, transfer: {} });
    expect(resumed.report.finished).toBeDefined();
    expect(resumed.report.stages.reach).toBeDefined();

    // a finished run from before reach trials: resumed, it tries no skill after its final stage
    const old = JSON.parse(readFileSync(resumed.files.json, 'utf8')) as RunReport;
    delete old.stages.reach;
    const again = await runExperiment({ ...options, resume: old });
    expect(again.report.stages.reach).toBeUndefined();
    expect(again.report.stages.final).toEqual(old.stages.final);
  }, 60_000);
});
