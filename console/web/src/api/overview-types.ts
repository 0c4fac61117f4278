// The overview's runs (the governance arms per perturbation and task, with synergy) and the live
// stream's campaign events.
import type { PairFigures } from './skill-types';

/** An estimate with its 95% interval; null where the server's NaN became JSON null. */
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

export interface OverviewRun {
  readonly out: string;
  readonly started: string;
  readonly conditions: Readonly<Record<string, { macro: ArmFigures; tasks: Readonly<Record<string, ArmFigures>> }>>;
  readonly campaigns: ReadonlyArray<{ id: string; task: string; perturbation: string; heldout: PairFigures | null; confirmation: PairFigures | null }>;
}

export interface LiveEvent {
  readonly id: string;
  readonly dir: string;
  readonly phase: string;
  readonly generation: number | null;
  readonly candidate: number | string | null;
}
