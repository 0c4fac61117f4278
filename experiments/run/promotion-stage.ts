// Stage of the run experiment (`zetta run`): the bundle the campaign promoted becomes a pending skill
// in the skill store. Only an approver makes it active: with --auto-approve the run approves it as
// the operator `auto` (the audit log says so); otherwise the run stops here, and `zetta run --resume`
// picks up whatever the operator decided in the console.
import { promoteCampaign, SkillStore, type SkillState } from '../../skills/index.js';
import type { EvolutionStageResult } from './evolution-stage.js';

/** The operator the audit log names for an approval made by `--auto-approve`. */
export const AUTO_APPROVER = 'auto';

export interface PromotionStageResult {
  /** The skill store the promotion went into. */
  db: string;
  /** The campaign's promotion as a skill; null when the campaign promoted nothing. */
  skill: { id: string; name: string; state: SkillState; created: boolean } | null;
  auto_approved: boolean;
  /** The skill is pending: the run stops until an approver decides. */
  awaiting_approval: boolean;
  ok: boolean;
}

export interface PromotionOptions {
  readonly db: string;
  readonly autoApprove: boolean;
}

export async function runPromotionStage(evolution: EvolutionStageResult | undefined, o: PromotionOptions): Promise<PromotionStageResult> {
  const none = { db: o.db, skill: null, auto_approved: false, awaiting_approval: false, ok: true };
  if (!evolution?.campaign.promoted) return none;
  // adding the same promotion again changes nothing, so a resumed run lands on the same skill
  const { skill, created } = await promoteCampaign(evolution.campaign.root, o.db, { actor: 'zetta run', reason: '' });
  let state = skill.state;
  let autoApproved = false;
  if (state === 'pending' && o.autoApprove) {
    const why = `zetta run --auto-approve: campaign ${evolution.campaign.campaign_id} passed every gate`;
    state = SkillStore.using(o.db, (s) => s.transition(skill.id, 'approve', { actor: AUTO_APPROVER, reason: why }).skill.state);
    autoApproved = true;
  }
  return {
    db: o.db,
    skill: { id: skill.id, name: skill.content.name, state, created },
    auto_approved: autoApproved,
    awaiting_approval: state === 'pending',
    ok: true,
  };
}
