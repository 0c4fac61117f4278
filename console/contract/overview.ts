// GET /api/overview: every `zetta run` under runs with its governance arms per perturbation and
// task (policy alone, critic alone, both, synergy), and every campaign's held-out and confirmation
// figures. Part of the API contract (index.ts): imports only the contract.
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
}

export interface Overview {
  readonly runs: readonly OverviewRun[];
  /** Every campaign under runs, in or outside a run. */
  readonly campaigns: readonly CampaignFigures[];
}
