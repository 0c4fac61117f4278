// The run experiment: the most complete pipeline that exists, end to end, on the embedded default —
// the policy wire, the scripted expert, the base policy alone, governance measured under
// perturbations, one evolution campaign. Each stage's result lands in report.json as soon as the
// stage ends, so an interrupted run keeps what it finished. Progress goes to an observer; nothing
// here writes to a terminal.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { EMBEDDED_POLICY_PATH } from '../../zinfra/policy/open-policy.js';
import type { ArmRun } from '../../zinfra/runtime/governance-arms.js';
import { PERTURBED_CONDITIONS, runBaselineStage } from './baseline-stage.js';
import { runEvolutionStage } from './evolution-stage.js';
import { runExpertStage } from './expert-stage.js';
import { runGovernanceStage } from './governance-stage.js';
import type { RunObserver, StageName } from './observer.js';
import { saveReport, type RunReport } from './report.js';
import type { RunSettings } from './settings.js';
import { runWireStage } from './wire-stage.js';

export interface RunOptions extends RunSettings {
  /** The run's folder, created: report.json, report.md, episodes/, evolution/. */
  readonly out: string;
  /** When the run started (default: now), as the report tells it. */
  readonly started?: Date;
}

export interface RunOutcome {
  readonly report: RunReport;
  /** Where report.json and report.md are. */
  readonly files: { readonly json: string; readonly markdown: string };
}

/** Evaluation seeds start at 1000: the base policy trained on scenes 0..999. */
const FIRST_SEED = 1000;

export async function runExperiment(o: RunOptions, observer: RunObserver = {}): Promise<RunOutcome> {
  mkdirSync(o.out, { recursive: true });
  const report: RunReport = { started: (o.started ?? new Date()).toISOString(), out: o.out, stages: {} };
  observer.runStarted?.(o.out);
  const stages = new Stages(report, observer);
  await stages.run('wire', (progress) => runWireStage(o.out, o.wireRequests, progress));
  await stages.run('expert', (progress) => runExpertStage(o.expertEpisodes, FIRST_SEED, progress));
  if (existsSync(EMBEDDED_POLICY_PATH)) await runPolicyStages(stages, o);
  else {
    report.skipped = [`baseline: ${EMBEDDED_POLICY_PATH} is not in this checkout`];
    observer.stageSkipped?.('baseline', `${EMBEDDED_POLICY_PATH} missing`);
  }
  report.finished = new Date().toISOString();
  report.ok = Object.values(report.stages).every((s) => !s || s.ok);
  return { report, files: saveReport(report) };
}

/** The stages that run the embedded base policy: alone, governed, then evolved where weakest. */
async function runPolicyStages(stages: Stages, o: RunOptions): Promise<void> {
  const pool = { policy: 'embedded', episodes: o.episodes, firstSeed: FIRST_SEED, workers: o.workers, envsPerWorker: o.envsPerWorker };
  await stages.run('baseline', (progress) =>
    runBaselineStage({
      ...pool,
      critic: 'none',
      conditions: ['nominal'],
      recordDir: join(o.out, 'episodes', 'baseline'),
      onProgress: (condition, done, total) => progress(done, total, condition),
    }),
  );
  let arm = '';
  const governance = await stages.run('governance', (progress) =>
    runGovernanceStage({
      ...pool,
      critic: 'default',
      conditions: PERTURBED_CONDITIONS,
      recordDir: join(o.out, 'episodes', 'governance'),
      skillsDb: o.skillsDb,
      skillsDir: join(o.out, 'skills'),
      onArm: (condition, run, i, n) => (arm = `${condition}: ${armName(run)} ${i + 1}/${n}`),
      onProgress: (_condition, done, total) => progress(done, total, arm),
    }),
  );
  await stages.run('evolution', () =>
    runEvolutionStage(governance, {
      root: join(o.out, 'evolution'),
      devEpisodes: o.devEpisodes,
      heldout: o.heldout,
      confirmation: o.confirmation,
      generations: o.generations,
      workers: o.workers,
      envsPerWorker: o.envsPerWorker,
      log: (line) => stages.log('evolution', line),
    }),
  );
}

function armName(run: ArmRun): string {
  return run.arm === 'critic' ? `critic alone (${run.policy})` : run.arm === 'policy' ? 'policy alone' : 'both';
}

type StageProgress = (done: number, total: number, note?: string) => void;

/** Runs one stage at a time: tells the observer, stores the result, saves the report. */
class Stages {
  constructor(
    private readonly report: RunReport,
    private readonly observer: RunObserver,
  ) {}

  async run<K extends StageName, T extends RunReport['stages'][K]>(name: K, work: (progress: StageProgress) => Promise<T>): Promise<T> {
    this.observer.stageStarted?.(name);
    const result = await work((done, total, note) => this.observer.progress?.(name, done, total, note));
    this.report.stages[name] = result;
    saveReport(this.report);
    this.observer.stageFinished?.(name, this.report);
    return result;
  }

  log(stage: StageName, line: string): void {
    this.observer.log?.(stage, line);
  }
}
