// The critic's public API. See critic/README.md for how the control loop uses it, step by step.
export * from './action.js';
export type { ActionSource, CriticProposal, GovernorDecision } from './step-records.js';
export { CriticLoadError, formatPath, type JsonPath } from './errors.js';
export { CRITIC_FEATURES, type FeatureKind, type FeatureSource, type FeatureSpec } from './features/registry.js';
export { CRITIC_ONLY_LAYOUT, FeatureLayout, layoutFor, type WorldSlot } from './features/layout.js';
export { FeatureFrame, UnknownFeatureError } from './features/frame.js';
export { FrameBuilder, type FrameBuilderOptions } from './features/builder.js';
export { WorldFeatureReader, type FeatureRecord, type WorldFeatureInput } from './features/world-reader.js';
export {
  ConditionSchema,
  RuleFileSchema,
  RuleSchema,
  type Condition,
  type RuleFile,
  type RuleFileInput,
  type RuleInput,
  type RuleSpec,
} from './rules/schema.js';
export { RuleSet, compileRules, loadRules, loadRulesFile, loadRulesText, type RuleLoadOptions } from './rules/compile.js';
export {
  RULE_CLEAR,
  RULE_COOLDOWN,
  RULE_FIRED,
  RULE_HOLDING,
  RULE_INACTIVE,
  RULE_STATUS_NAMES,
  RULE_UNKNOWN,
  type RuleStatus,
} from './rules/compiled-rule.js';
export type { Proposal, ProposalAction } from './rules/proposal.js';
export { FALSE, TRUE, UNKNOWN, type Truth } from './rules/truth.js';
export { TemporalCritic, type CriticResult } from './temporal-critic.js';
export {
  DEFAULT_DURING_RECOVERY,
  Governor,
  outranks,
  type Decision,
  type DecisionKind,
  type DuringRecoveryPolicy,
  type GovernorOptions,
  type Proposals,
} from './governor.js';
export * from './envelope.js';
export {
  ProgramSchema,
  RecoveryFileSchema,
  type Fallback,
  type Program,
  type RecoveryFile,
  type RecoveryFileInput,
  type ToolStep,
} from './recovery/schema.js';
export {
  RecoveryLibrary,
  compileRecoveries,
  loadRecoveries,
  loadRecoveriesFile,
  loadRecoveriesText,
  type CompiledProgram,
  type RecoveryLoadOptions,
} from './recovery/compile.js';
export {
  RECOVERY_ABORT,
  RECOVERY_ACTING,
  RECOVERY_REENTER,
  RecoveryExecutor,
  type RecoveryOutcome,
  type RecoveryTick,
} from './recovery/executor.js';
export { ToolRegistry, parseParams, type BoundTool, type Tool, type ToolDef, type ToolPrepareContext } from './recovery/tool.js';
export { defaultTools } from './recovery/tools.js';
export {
  BUILTIN_BUNDLES,
  BundleManifestSchema,
  MANIFEST_FILE,
  bundleHash,
  loadBundle,
  resolveBundlePath,
  type BundleLoadOptions,
  type BundleManifest,
  type CriticBundle,
} from './bundles/bundle.js';
export type { ChunkAligner } from './features/chunk-alignment.js';
export {
  ALIGN_CHUNKS_TO_LAG,
  CriticRuntime,
  STEP_ABORT,
  STEP_HOLD,
  STEP_POLICY,
  STEP_RECOVERY,
  STEP_REENTER,
  WAIT_OUT_LAG,
  type CriticRuntimeOptions,
  type StepCode,
} from './critic-runtime.js';
export { OPS, isOp, opOf, type NaiveKit, type NaiveVerdict, type Op, type OpDef, type OpTable } from './rules/ops/index.js';
export { describeCondition } from './rules/describe.js';
