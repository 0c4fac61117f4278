// The run experiment as a library: options in, a report out, progress through an observer.
export { runExperiment, type RunOptions, type RunOutcome } from './experiment.js';
export type { RunObserver, StageName } from './observer.js';
export { renderMarkdown, saveReport, type RunReport } from './report.js';
export { FULL_RUN, QUICK_RUN, type RunSettings } from './settings.js';
export { headline, type RunHeadline } from './headline.js';
export type { FinalStageResult } from './final-stage.js';
export type { PromotedSkill, PromotionStageResult } from './promotion-stage.js';
export { armsLine, governanceSection, signedPoints } from './governance-text.js';
export { infraProblems, type BaselineStageResult, type ConditionResult } from './baseline-stage.js';
export type { CampaignRun, EvolutionStageResult } from './evolution-stage.js';
export { campaignTasks } from './campaign-tasks.js';
export type { ExpertStageResult } from './expert-stage.js';
export type { GovernanceStageResult } from './governance-stage.js';
export type { WireStageResult } from './wire-stage.js';
