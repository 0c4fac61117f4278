// What a run tells whoever watches it, stage by stage. The experiment never writes to a terminal;
// `zetta run` turns these calls into progress bars and stage lines (cli/run/terminal.ts).
import type { RunReport } from './run-report.js';

export type StageName = keyof RunReport['stages'];

export interface RunObserver {
  /** The run's folder exists; the stages come next. */
  runStarted?(out: string): void;
  stageStarted?(stage: StageName): void;
  /** Work done in the stage; `note` says what is running (a condition, an arm). */
  progress?(stage: StageName, done: number, total: number, note?: string): void;
  /** The stage's result is in `report.stages[stage]`, and report.json holds it. */
  stageFinished?(stage: StageName, report: RunReport): void;
  /** A resumed run found the stage finished: its result is in `report.stages[stage]`. */
  stageKept?(stage: StageName, report: RunReport): void;
  /** The run stops until an approver decides on the promoted skill. */
  awaitingApproval?(awaiting: NonNullable<RunReport['awaiting']>): void;
  /** The stage and the ones after it cannot run here, and why. */
  stageSkipped?(stage: StageName, reason: string): void;
  /** A line the stage logs as it goes (the campaign's decisions). */
  log?(stage: StageName, line: string): void;
}
