// GET /api/overview: every `zetta run` under runs with its governance arms per perturbation and
// task (policy alone, critic alone, both, synergy), its final system beside the default, and every
// campaign's held-out and confirmation figures. Part of the API contract (index.ts): imports only the contract.
import type { ConfirmationFigures, PairFigures, ReportGate } from './evidence.js';

/** An estimate with its 95% interval; null where the run's figure was not a number (no episodes). */
export interface Interval {
  readonly value: number | null;
  readonly low: number | null;
  readonly high: number | null;
}

export interface ArmFigures {
  readonly policy: Interval;
  readonly critic: Interval;
  readonly both: Interval;
  readonly synergy: Interval;
}

/** One task's arms, and the trivial policy whose rate made its critic-alone arm. */
export interface TaskArmFigures extends ArmFigures {
  readonly control: string;
}

/** One perturbation of a run: the macro arms and each task's. */
export interface ConditionFigures {
  readonly macro: ArmFigures;
  readonly tasks: Readonly<Record<string, TaskArmFigures>>;
}

/** A held-out gate of a campaign's candidate, with the candidate it judged. */
export interface HeldoutGateFigures extends ReportGate {
  readonly candidate: string;
  readonly decision: string;
}

export interface CampaignGenerationFigures {
  readonly generation: number;
  readonly promoted: string | null;
  readonly dev: { readonly episodes: number; readonly successes: number; readonly infra_failures: number };
  /** Each candidate that reached the held-out gate. */
  readonly heldout: readonly HeldoutGateFigures[];
}

export interface CampaignFigures {
  readonly id: string;
  readonly dir: string;
  readonly task: string;
  readonly perturbation: string;
  readonly promoted: boolean | null;
  /** Null until the campaign has written its report. */
  readonly heldout: PairFigures | null;
  readonly confirmation: ConfirmationFigures | null;
  readonly generations: readonly CampaignGenerationFigures[];
}

/** A campaign the run's evolution stage ran. */
export interface RunCampaignRef {
  readonly task: string;
  readonly perturbation: string;
  readonly campaign_id: string;
}

/**
 * The final stage of a run: the final system (the active skills composed onto the run's critic; from
 * scratch, onto the empty bundle) beside the hand-written default, both at seeds that chose nothing
 * in the run. Per perturbation, macro arms.
 */
export interface FinalFigures {
  /** The first of the stage's seeds; null for runs that scored it at the governance seeds (no default beside it then). */
  readonly first_seed: number | null;
  readonly episodes_per_task: number;
  readonly active_skills: readonly string[];
  /** The campaigns started from the empty bundle: the final system holds nothing hand-written. */
  readonly from_scratch: boolean;
  /** The default at the stage's seeds; null where the run had none beside the final system. */
  readonly reference: Readonly<Record<string, ArmFigures>> | null;
  readonly reference_mean_synergy: number | null;
  readonly final: Readonly<Record<string, ArmFigures>>;
  readonly final_mean_synergy: number | null;
}

export interface OverviewRun {
  /** The run's folder relative to runs. */
  readonly dir: string;
  /** The same as `dir` (the report's own `out` is a path on the machine that ran it). */
  readonly out: string;
  readonly started: string;
  readonly finished: string | null;
  readonly ok: boolean | null;
  readonly policy: string;
  readonly critic: string;
  readonly episodes_per_task: number;
  readonly mean_synergy: number | null;
  /** Perturbation → its arms. */
  readonly conditions: Readonly<Record<string, ConditionFigures>>;
  /** Empty until the run's evolution stage has ended. */
  readonly evolution: readonly RunCampaignRef[];
  /** Campaign roots inside the run's folder. */
  readonly campaigns: readonly CampaignFigures[];
  /** Null until the final stage ran with an active skill. */
  readonly final: FinalFigures | null;
}

export interface Overview {
  readonly runs: readonly OverviewRun[];
  /** Every campaign under runs, in or outside a run. */
  readonly campaigns: readonly CampaignFigures[];
}
