// zetta run's promotion: a campaign's promoted bundle becomes a pending skill; without
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

const evolutionOf = (summary: CampaignSummary): EvolutionStageResult => ({
  task: 'spatial/left_cube_in_bowl', perturbation: 'disturbance', parent_rate: 0.5, campaign: summary, learning_curve: [], ok: true,
});

describe('zetta run: promotion into the skill store', () => {
  let promoted: CampaignSummary;
  let nothing: CampaignSummary;
  beforeAll(async () => {
    const base = tmp('zetta-run-promotion-');
    promoted = await campaign(join(base, 'promoted'), true);
    nothing = await campaign(join(base, 'nothing'), false);
    expect(promoted.promoted).toBe(true);
    expect(nothing.promoted).toBe(false);
  }, 120_000);

  it('adds nothing when the campaign promoted nothing', async () => {
    const db = join(tmp(), 'skills.db');
    const r = await runPromotionStage(evolutionOf(nothing), { db, autoApprove: true });
    expect(r).toMatchObject({ skill: null, awaiting_approval: false, auto_approved: false });
    expect(existsSync(db)).toBe(false);
  });

  it('leaves the skill pending for an approver without --auto-approve, and adds it once', async () => {
    const db = join(tmp(), 'skills.db');
    const first = await runPromotionStage(evolutionOf(promoted), { db, autoApprove: false });
    expect(first.skill).toMatchObject({ state: 'pending', created: true });
    expect(first.awaiting_approval).toBe(true);
    const again = await runPromotionStage(evolutionOf(promoted), { db, autoApprove: false });
    expect(again.skill).toMatchObject({ id: first.skill!.id, state: 'pending', created: false });
  });

  it('approves as the operator auto with --auto-approve, in the audit log', async () => {
    const db = join(tmp(), 'skills.db');
    const r = await runPromotionStage(evolutionOf(promoted), { db, autoApprove: true });
    expect(r.skill!.state).toBe('active');
    expect(r.auto_approved).toBe(true);
    const audit = SkillStore.using(db, (s) => s.auditLog(r.skill!.id));
    expect(audit.map((a) => [a.from_state, a.to_state, a.actor])).toEqual([[null, 'pending', 'zetta run'], ['pending', 'active', AUTO_APPROVER]]);
  });

  it('stops the run for an approver, then resumes with what the approver decided', async () => {
    const out = join(tmp(), 'run');
    mkdirSync(out, { recursive: true });
    const db = join(tmp(), 'skills.db');
    const earlier: RunReport = {
      started: '2026-12-03T00:00:00.000Z', out, settings: { ...QUICK_RUN, autoApprove: false },
      // finished stages of the run being resumed: kept as they are, not run again
      stages: {
        wire: { ok: true, node: { p50_ms: 1, p99_ms: 1, requests: 1 }, python: { skipped: 'not in this test' } },
        expert: { ok: true, tasks: {}, macro_success: 1 },
        baseline: { ok: true, conditions: {}, problems: [] },
        governance: { ok: true, conditions: {}, interventions: {}, both_by_seed: {}, problems: [], mean_synergy: 0 },
        evolution: evolutionOf(promoted),
      } as unknown as RunReport['stages'],
      timings: {},
    };
    const options = { ...QUICK_RUN, out, skillStore: db, autoApprove: false };
    const stopped = await runExperiment({ ...options, resume: earlier });
    const skill = stopped.report.stages.promotion!.skill!.id;
    expect(stopped.report.awaiting).toEqual({ skill, console: `zetta console --db ${db}`, resume: `zetta run --resume ${out}` });
    expect(stopped.report.stages.final).toBeUndefined();
    expect(stopped.report.finished).toBeUndefined();
    expect(readFileSync(stopped.files.html, 'utf8')).toContain('waiting for an approver');

    SkillStore.using(db, (s) => s.transition(skill, 'reject', { actor: 'ada', reason: 'not on this robot' }));
    const saved = JSON.parse(readFileSync(stopped.files.json, 'utf8')) as RunReport;
    const resumed = await runExperiment({ ...options, resume: saved });
    expect(resumed.report.stages.promotion!.skill!.state).toBe('rejected');
    expect(resumed.report.awaiting).toBeUndefined();
    // no skill is active, so the final system is the default critic and nothing ran
    expect(resumed.report.stages.final).toMatchObject({ active_skills: [], governance: null, transfer: {} });
    expect(resumed.report.finished).toBeDefined();
  }, 60_000);
});
