// The run experiment: the most complete pipeline that exists, end to end, on the embedded default —
// the policy wire, the scripted expert, the base policy alone, governance measured under
// perturbations, evolution campaigns on the weakest tasks, their promotion into the skill store,
// and the final system with the active skills (with zero-shot transfer read off it). Each stage's result lands in
// report.json as soon as the stage ends, so an interrupted run keeps what it finished and a resumed
// one runs only the rest. Progress goes to an observer; nothing here writes to a terminal.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { EMBEDDED_POLICY_PATH } from '../../zinfra/policy/open-policy.js';
import { writeEmptyBundle } from '../../evolution/index.js';
import type { EpisodeExecutor } from '../../measure/evaluation.js';
import type { ArmRun } from '../../measure/governance-arms.js';
import { PERTURBED_CONDITIONS, runBaselineStage } from './baseline-stage.js';
import { runEvolutionStage } from './evolution-stage.js';
import { runExpertStage } from './expert-stage.js';
import { runFinalStage } from './final-stage.js';
import { finalFirstSeed } from './final-seeds.js';
import { runPromotionStage } from './promotion-stage.js';
import { runReachStage } from './reach-stage.js';
import { runGovernanceStage } from './governance-stage.js';
import type { RunObserver, StageName } from './observer.js';
import { saveReport } from './report.js';
import type { RunReport } from './run-report.js';
import type { RunSettings } from './settings.js';
import { runWireStage } from './wire-stage.js';

export interface RunOptions extends RunSettings {
  /** The run's folder, created: report.json, report.md, report.html, episodes/, evolution/. */
  readonly out: string;
  /** When the run started (default: now), as the report tells it. */
  readonly started?: Date;
  /** The skill store promoted bundles go into, and whose active skills the final system loads. */
  readonly skillStore: string;
  /** Approve the promoted skills as the operator `auto` instead of stopping for an approver. */
  readonly autoApprove: boolean;
  /** A stopped or interrupted run's report: its finished stages are kept, the rest run. */
  readonly resume?: RunReport;
  /** Runs every stage's episodes elsewhere (`--queue`: worker processes on a Redis job queue). */
  readonly executor?: EpisodeExecutor | undefined;
}

export interface RunOutcome {
  readonly report: RunReport;
  /** Where report.json, report.md and report.html are. */
  readonly files: { readonly json: string; readonly markdown: string; readonly html: string };
}

/** Evaluation seeds start at 1000: the base policy trained on scenes 0..999. */
const FIRST_SEED = 1000;

export async function runExperiment(o: RunOptions, observer: RunObserver = {}): Promise<RunOutcome> {
  mkdirSync(o.out, { recursive: true });
  const report = startReport(o);
  observer.runStarted?.(o.out);
  const stages = new Stages(report, observer);
  await stages.run('wire', (progress) => runWireStage(o.out, o.wireRequests, progress));
  await stages.run('expert', (progress) => runExpertStage(o.expertEpisodes, FIRST_SEED, progress));
  if (existsSync(EMBEDDED_POLICY_PATH)) await runPolicyStages(stages, o);
  else {
    report.skipped = [`baseline: ${EMBEDDED_POLICY_PATH} is not in this checkout`];
    observer.stageSkipped?.('baseline', `${EMBEDDED_POLICY_PATH} missing`);
  }
  if (!report.awaiting) report.finished = new Date().toISOString();
  report.ok = Object.values(report.stages).every((s) => !s || s.ok);
  return { report, files: saveReport(report) };
}

function startReport(o: RunOptions): RunReport {
  const { out, started, resume, skillStore, autoApprove, executor: _executor, ...settings } = o;
  if (!resume)
    return { started: (started ?? new Date()).toISOString(), out, settings: { ...settings, autoApprove }, stages: {}, timings: {} };
  // a promotion that waited for an approver is asked again: the operator may have decided since
  const stages = { ...resume.stages };
  if (stages.promotion?.awaiting_approval) delete stages.promotion;
  // a report from before several campaigns per run: its campaigns resume from their folders
  if (stages.evolution && !Array.isArray(stages.evolution.campaigns)) {
    delete stages.evolution;
    delete stages.promotion;
    delete stages.final;
  }
  const { finished: _finished, awaiting: _awaiting, ok: _ok, ...kept } = resume;
  return { ...kept, out, stages, timings: { ...resume.timings } };
}

/** The stages that run the embedded base policy: alone, governed, then evolved where weakest. */
async function runPolicyStages(stages: Stages, o: RunOptions): Promise<void> {
  const pool = {
    policy: 'embedded',
    episodes: o.episodes,
    firstSeed: FIRST_SEED,
    workers: o.workers,
    envsPerWorker: o.envsPerWorker,
    executor: o.executor,
  };
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
      onArm: (condition, run, i, n) => (arm = armNote(condition, run, i, n)),
      onProgress: (_condition, done, total) => progress(done, total, arm),
    }),
  );
  const evolution = await stages.run('evolution', () =>
    runEvolutionStage(governance, {
      root: join(o.out, 'evolution'),
      campaigns: o.campaigns,
      devEpisodes: o.devEpisodes,
      heldout: o.heldout,
      confirmation: o.confirmation,
      generations: o.generations,
      workers: o.workers,
      envsPerWorker: o.envsPerWorker,
      executor: o.executor,
      fromScratch: o.fromScratch,
      tasksPerCampaign: o.tasksPerCampaign,
      log: (line) => stages.log('evolution', line),
    }),
  );
  const promotion = await stages.run('promotion', async () =>
    runPromotionStage(evolution, { db: o.skillStore, autoApprove: o.autoApprove }),
  );
  if (promotion.awaiting_approval) {
    // two campaigns that promoted the same bundle share one skill
    const pending = [...new Set(promotion.skills.filter((s) => s.state === 'pending').map((s) => s.id))];
    stages.await({ skills: pending, console: `zetta console --db ${o.skillStore}`, resume: `zetta run --resume ${o.out}` });
    return;
  }
  // from scratch, the final system is what the campaigns promoted and nothing hand-written
  const finalCritic = o.fromScratch ? writeEmptyBundle(join(o.out, 'critic')) : 'default';
  // a run resumed after its final stage (one from before reach trials) would try skills for nothing
  if (!stages.has('final'))
    await stages.run('reach', (progress) =>
      runReachStage(promotion, evolution, {
        db: o.skillStore,
        critic: finalCritic,
        conditions: PERTURBED_CONDITIONS,
        episodes: o.reachEpisodes ?? 0,
        dir: join(o.out, 'skills', 'reach'),
        workers: o.workers,
        envsPerWorker: o.envsPerWorker,
        executor: o.executor,
        onProgress: (note, done, total) => progress(done, total, note),
      }),
    );
  const finalSeed = finalFirstSeed({ ...o, firstSeed: FIRST_SEED }, o.episodes);
  await stages.run('final', (progress) =>
    runFinalStage(
      o.skillStore,
      evolution.campaigns.map((c) => c.task),
      {
        ...pool,
        firstSeed: finalSeed,
        critic: finalCritic,
        referenceCritic: 'default',
        conditions: PERTURBED_CONDITIONS,
        recordDir: join(o.out, 'episodes', 'final'),
        skillsDir: join(o.out, 'skills', 'final'),
        onArm: (system, condition, run, i, n) =>
          (arm = `${system === 'reference' ? 'default critic' : 'with skills'}, ${armNote(condition, run, i, n)}`),
        onProgress: (_condition, done, total) => progress(done, total, arm),
      },
    ),
  );
}

/** The progress line's note: which arm of how many runs now (numbered, so it is not read as successes). */
function armNote(condition: string, run: ArmRun, i: number, n: number): string {
  return `${condition}: arm ${i + 1}/${n}, ${armName(run)}`;
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

  /** Whether the stage ran, in this run or before it was resumed. */
  has(name: StageName): boolean {
    return name in this.report.stages;
  }

  /** Runs a stage, or, in a resumed run, gives back what it found when it ran before. */
  async run<K extends StageName, T extends RunReport['stages'][K]>(name: K, work: (progress: StageProgress) => Promise<T>): Promise<T> {
    if (this.has(name)) {
      this.observer.stageKept?.(name, this.report);
      return this.report.stages[name] as T;
    }
    this.observer.stageStarted?.(name);
    const started = performance.now();
    const result = await work((done, total, note) => this.observer.progress?.(name, done, total, note));
    this.report.stages[name] = result;
    (this.report.timings ??= {})[name] = (performance.now() - started) / 1000;
    saveReport(this.report);
    this.observer.stageFinished?.(name, this.report);
    return result;
  }

  /** The run stops here until an approver decides; the report says what to run. */
  await(awaiting: NonNullable<RunReport['awaiting']>): void {
    this.report.awaiting = awaiting;
    saveReport(this.report);
    this.observer.awaitingApproval?.(awaiting);
  }

  log(stage: StageName, line: string): void {
    this.observer.log?.(stage, line);
  }
}
