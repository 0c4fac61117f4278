// The evolution loop's public API: campaigns and the pieces they are built from.
export { runCampaign, type CampaignOptions, type CampaignSummary } from './campaign/campaign.js';
export { writeEmptyBundle } from './synthesis/bundle-files.js';
export { evaluatorRunner, type EvaluatorRunnerOptions } from './campaign/evaluator-runner.js';
export { DEFAULT_GATES, ManifestMismatchError, type GateSettings, type Manifest } from './campaign/manifest.js';
export { DEV_SEED_BASE, SeedOverlapError, SeedSyntaxError, assertDisjoint, parseSeedList } from './campaign/seeds.js';
export type { EpisodeResult, RolloutRunner } from './campaign/rollouts.js';
export { builtinDiagnoser, llmDiagnoser, type Diagnoser } from './diagnosis/diagnoser.js';
export { LlmConfigError, LlmDiagnosisError, llmSettingsFromEnv } from './diagnosis/llm.js';
export { mcnemarOneSided } from '../measure/mcnemar.js';
