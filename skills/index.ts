// The skill library: what a skill is, where it applies, the durable store, the campaign → skill step,
// and composing active skills into a run.
export { applicability, type Applicability, type ApplicabilityTarget } from './applicability.js';
export { SkillInputError } from './errors.js';
export { BUNDLE_FILES, skillFromCampaign, type CampaignSkill } from './from-campaign.js';
export { featuresRead } from '../evolution/synthesis/bundle-files.js';
export { SKILL_STATES, allowedEdge, isSkillState, nextState, type SkillAction, type SkillState } from './lifecycle.js';
export { bundleFile, contentSha, skillId, type ApplicabilityGuard, type BundleFile, type SkillContent } from './skill.js';
export { APPLICATION_ID } from './store/open.js';
export { SkillStore, type Actor, type AuditRow, type SkillRecord } from './store/skill-store.js';
export { verifyStore } from './store/verify.js';
export { promoteCampaign } from './promote.js';
export {
  requireSkillStore,
  withActiveSkills,
  skillFirings,
  type ActiveSkills,
  type SkillFiring,
  type TaskSkills,
} from './active-skills.js';
export { composeSkills, type Composition, type SkillConflict, type SkillDecision } from './compose.js';
export { formatSkillFirings, formatSkillsLoaded } from './skills-text.js';
export { isTaskNeutral } from './changes.js';
export { REACH_FIRST_SEED, reachVerdict, type Reach, type ReachEvidence, type ReachVerdict } from './reach.js';
export { runReachTrial, type ReachCondition, type ReachTrialPlan } from './reach-trial.js';
