// The report of a run (`zetta run`): the JSON every stage writes its result into as it ends.
import type { BaselineStageResult } from './baseline-stage.js';
import type { EvolutionStageResult } from './evolution-stage.js';
import type { ExpertStageResult } from './expert-stage.js';
import type { FinalStageResult } from './final-stage.js';
import type { GovernanceStageResult } from './governance-stage.js';
import type { PromotionStageResult } from './promotion-stage.js';
import type { ReachStageResult } from './reach-stage.js';
import type { RunSettings } from './settings.js';
import type { WireStageResult } from './wire-stage.js';

export interface RunReport {
  started: string;
  finished?: string;
  out: string;
  /** What the run was asked to do: `zetta run --resume` runs the rest with the same. */
  settings?: RunSettings & { autoApprove: boolean };
  stages: {
    wire?: WireStageResult;
    expert?: ExpertStageResult;
    baseline?: BaselineStageResult;
    governance?: GovernanceStageResult;
    evolution?: EvolutionStageResult;
    promotion?: PromotionStageResult;
    reach?: ReachStageResult;
    final?: FinalStageResult;
  };
  /** Wall time of each finished stage, in seconds. */
  timings?: Record<string, number>;
  /** Set while the run waits for an approver: the pending skills, what to run to decide, and to go on. */
  awaiting?: { skills: string[]; console: string; resume: string };
  skipped?: string[];
  ok?: boolean;
}
