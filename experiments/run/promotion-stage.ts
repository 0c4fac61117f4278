// Stage of the run experiment (`zetta run`): every bundle a campaign promoted becomes a pending
// skill in the skill store. Only an approver makes one active: with --auto-approve the run approves
// them as the operator `auto` (the audit log says so); otherwise the run stops here, and
// `zetta run --resume` picks up whatever the operator decided in the console.
import { promoteCampaign, SkillStore, type SkillState } from '../../skills/index.js';
import type { EvolutionStageResult } from './evolution-stage.js';

/** The operator the audit log names for an approval made by `--auto-approve`. */
export const AUTO_APPROVER = 'auto';

export interface PromotedSkill {
  id: string;
  name: string;
  state: SkillState;
  /** false when the store already held this promotion (a resumed run adds nothing twice). */
  created: boolean;
  /** This run approved it as `auto` (--auto-approve). */
  auto_approved: boolean;
  /** The campaign that promoted it, and where it ran. */
  campaign_id: string;
  task: string;
  perturbation: string;
}

export interface PromotionStageResult {
  /** The skill store the promotions went into. */
  db: string;
  /** One per campaign that promoted a bundle, in the evolution stage's order; empty when none did. */
  skills: PromotedSkill[];
  /** A skill is pending: the run stops until an approver decides. */
  awaiting_approval: boolean;
  ok: boolean;
}

export interface PromotionOptions {
  readonly db: string;
  readonly autoApprove: boolean;
}

export async function runPromotionStage(evolution: EvolutionStageResult | undefined, o: PromotionOptions): Promise<PromotionStageResult> {
  const skills: PromotedSkill[] = [];
  for (const run of evolution?.campaigns ?? []) {
    if (!run.campaign.promoted) continue;
    // adding the same promotion again changes nothing, so a resumed run lands on the same skill
    const { skill, created } = await promoteCampaign(run.campaign.root, o.db, { actor: 'zetta run', reason: '' });
    let state = skill.state;
    const approveNow = state === 'pending' && o.autoApprove;
    if (approveNow) {
      const why = `zetta run --auto-approve: campaign ${run.campaign.campaign_id} passed every gate`;
      state = SkillStore.using(o.db, (s) => s.transition(skill.id, 'approve', { actor: AUTO_APPROVER, reason: why }).skill.state);
    }
    skills.push({
      id: skill.id,
      name: skill.content.name,
      state,
      created,
      auto_approved: approveNow,
      campaign_id: run.campaign.campaign_id,
      task: run.task,
      perturbation: run.perturbation,
    });
  }
  return {
    db: o.db,
    skills,
    awaiting_approval: skills.some((s) => s.state === 'pending'),
    ok: true,
  };
}
