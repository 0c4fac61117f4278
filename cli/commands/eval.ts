// `zetta eval`: success of a policy on the embedded suite, per task with a Wilson 95% interval, and
// with --arms the three governance arms of a critic (eval-arms.ts).
import { join, resolve } from 'node:path';
import type { World } from '../../sim/world.js';
import { loadWorld } from '../../sim/worlds.js';
import { writeJsonAtomic } from '../../util/atomic-write.js';
import { checkPolicy, isRemotePolicySpec } from '../../zinfra/policy/open-policy.js';
import { evaluate, infraFailureReasons, planJobs, type EvaluationPlan, type EvaluationResult } from '../../measure/evaluation.js';
import { printJsonLine, UsageError, type Command } from '../command.js';
import { critic, openCriticFlag, policy, skills } from '../flags/governance.js';
import { flagHelp, printHelp } from '../flags/help.js';
import { readFlags } from '../flags/read.js';
import { chosenWorld, env, perturb, world, worldTaskIds } from '../flags/scene.js';
import { checkRemoteEnvParallelism, formatRemoteEnvReport, isRemoteEnvFailure, remoteEnvReport } from '../../sim/remote/index.js';
import { skillsDb } from '../flags/skills.js';
import { skillsForRun, type SkillsForRun } from '../active-skills.js';
import { arms, envsPerWorker, episodes, executeSteps, json, noRecord, out, seed, suite, tasks, workers } from '../flags/table.js';
import { progress } from '../progress.js';
import { openQueueFlag, queue, recordings, withQueueErrors } from '../flags/queue.js';
import type { EpisodeExecutor } from '../../measure/evaluation.js';
import { runArmsCommand } from './eval-arms.js';

const FLAGS = {
  world,
  env,
  suite,
  tasks,
  perturb,
  episodes: episodes.default(50),
  seed: seed.with({ help: 'first seed; episode i uses S + i' }).default(1000, '1000, disjoint from training seeds'),
  policy,
  critic,
  skills,
  skillsDb,
  workers: workers.default(1),
  envsPerWorker: envsPerWorker
    .with({
      help: 'simulators stepping concurrently in each worker; with more than one simulator in\nall, a local policy is served to them by one batching server',
    })
    .default(1),
  executeSteps: executeSteps.default(5),
  arms,
  out: out.with({ help: 'where episodes and eval.json go', defaultNote: 'runs/eval-<timestamp>' }),
  noRecord,
  queue,
  recordings,
  json: json.with({
    help: [
      'last line: {"suite", "perturbation", "episodes_per_task", "tasks": {NAME:',
      '{"success", "episodes", "physics_divergences"}}, "macro_success",',
      '"unmodified_policy_share", "unmodified_policy_share_in_successes",',
      '"successes_without_recovery", "milestones_during_recovery", "physics_divergences",',
      '"infra_failures", "infra_retries", "critic", "recoveries"}; with --arms: {"arms": {"policy_alone",',
      '"critic_alone", "both"} (each with its "attribution"), "controls", "tasks": {NAME:',
      '{"policy_alone", "critic_alone", "both", "synergy"}}, "macro"}, every figure as',
      '{"value", "ci95"}',
    ].join('\n'),
  }),
};

const HELP = `usage: zetta eval [--world W | --env zmq://HOST:PORT] --suite S [--tasks a,b] [--perturb FILE|NAME] [--episodes N] [--seed S]
                  [--policy SPEC] [--critic none|default|FILE] [--skills none|active] [--skills-db FILE] [--workers K] [--envs-per-worker E]
                  [--execute-steps k] [--arms]
                  [--out DIR] [--no-record] [--queue redis://HOST:PORT [--recordings stream|shared]] [--json]

Runs a policy in a world (the embedded tabletop unless --world names another) and reports success
per task with a Wilson 95% interval. Chunks are executed as the LIBERO reference client does: k actions of each, then the
policy is asked again. Every episode is recorded as MCAP under DIR/episodes/ for later replay.
The policy's share is honest: executed steps whose action is exactly the policy's own a_t, over
every executed step (clamps, envelope changes, holds and recoveries count against it). A physics
divergence is a task failure; lost or overloaded policy servers are infrastructure failures: the
episode is run again at the same seed (twice at most, counted as infra retries), and one that still
fails leaves the success denominator, with its reason printed under the table. When every episode
is lost that way nothing was measured: one line says so and the exit code is 3.

${flagHelp(FLAGS)}`;

function selectTasks(w: World, suite: string | undefined, tasks: string | undefined): string[] {
  if (tasks) return worldTaskIds(w, tasks);
  if (!suite) throw new UsageError('--suite S (or --tasks a,b) is required');
  const suites = [...w.suites, 'all'];
  if (!suites.includes(suite)) throw new UsageError(`--suite must be one of ${suites.join(', ')} in world "${w.name}", got "${suite}"`);
  return w.tasks(suite === 'all' ? undefined : suite).map((t) => t.id);
}

export const evalCommand: Command = withQueueErrors({
  name: 'eval',
  summary: 'success rate of a policy in a world (default the embedded suite), per task with Wilson intervals',
  help: HELP,
  async run(argv) {
    const f = readFlags(argv, FLAGS);
    if (f === 'help') return printHelp(HELP);
    if (f.arms && !f.critic) {
      // One line, no hint: the fix is in the message.
      process.stderr.write('zetta eval: --arms needs --critic C (the bundle whose governance is measured, e.g. --critic default)\n');
      return 2;
    }
    const worldRef = chosenWorld(f, argv);
    // An env server that is not there, or whose spec does not validate, is told in one line.
    const w = await loadWorld(worldRef).catch((err: unknown) => {
      throw isRemoteEnvFailure(err) ? new UsageError((err as Error).message) : err;
    });
    usage(() => checkRemoteEnvParallelism(w, f.workers * f.envsPerWorker));
    const tasks = selectTasks(w, f.suite, f.tasks);
    const loadedCritic = openCriticFlag(f.critic, w);
    const outDir = resolve(f.out ?? join('runs', `eval-${new Date().toISOString().replace(/[:.]/g, '-')}`));
    const withSkills = await skillsForRun(f.skills, f.skillsDb, loadedCritic?.plan, w, tasks, join(outDir, 'skills'));
    const plan: EvaluationPlan = {
      world: worldRef,
      tasks,
      episodesPerTask: f.episodes,
      firstSeed: f.seed,
      perturbation: f.perturb?.spec,
      policy: f.policy,
      executeSteps: f.executeSteps,
      recordDir: f.noRecord ? undefined : join(outDir, 'episodes'),
      critic: withSkills?.plan ?? loadedCritic?.plan,
    };
    const suiteLabel = f.suite ?? 'custom';
    // A bad policy is said now, in one line, before any progress: a server that is not there
    // always; a missing or broken model when this process runs the episodes (with --queue the
    // workers open it on their own machines, and a failure there is reported per episode).
    if (isRemotePolicySpec(plan.policy) || !f.queue) await checkPolicy(plan.policy);
    // through the queue, the run's folder scopes the job ids: the same command again resumes
    const coordinator = await openQueueFlag(f.queue, outDir, f.recordings, (line) => process.stderr.write(`eval: ${line}\n`));
    if (f.arms) {
      const options = {
        workers: f.workers,
        envsPerWorker: f.envsPerWorker,
        out: outDir,
        json: f.json,
        suite: suiteLabel,
        criticLabel: loadedCritic!.label,
        skills: withSkills?.skills,
        executor: coordinator?.executor,
      };
      return runArmsCommand({ ...plan, critic: plan.critic! }, options).finally(() => coordinator?.close());
    }
    const result = await evaluateWithProgress(plan, f.workers, f.envsPerWorker, coordinator?.executor).finally(() => coordinator?.close());
    if (coordinator) process.stderr.write(`eval: queue ${queueLine(coordinator.costs.summary())}\n`);
    const remote = remoteEnvReport(w, { episodesPerTask: f.episodes, tasks, bundleManifest: plan.critic?.bundle });
    const report = {
      ...toReport(suiteLabel, f.perturb?.name ?? 'nominal', f.episodes, result),
      critic: loadedCritic?.label ?? 'none',
      ...remote,
      ...(coordinator ? { queue: coordinator.costs.summary() } : {}),
      ...(await skillsReport(withSkills, result)),
    };
    writeJsonAtomic(join(outDir, 'eval.json'), { ...report, episodes: result.outcomes });
    process.stdout.write(`${formatTable(result)}\n`);
    if (remote.env) process.stdout.write(`${formatRemoteEnvReport(remote.env)}\n`);
    if (withSkills) process.stdout.write(`${(await import('../../skills/index.js')).formatSkillFirings(report.skills!.fired)}\n`);
    process.stderr.write(`episodes and eval.json in ${outDir}\n`);
    if (f.json) printJsonLine(report);
    const unmeasured = nothingMeasured(result);
    if (unmeasured) process.stderr.write(`zetta eval: ${unmeasured}\n`);
    return unmeasured ? NOTHING_MEASURED_EXIT : 0;
  },
});

/** The exit code of an evaluation in which the infrastructure lost every episode: no rate exists. */
const NOTHING_MEASURED_EXIT = 3;

/** Why no success rate could be measured (every episode an infrastructure failure), or undefined. */
function nothingMeasured(r: EvaluationResult): string | undefined {
  if (r.outcomes.length === 0 || r.outcomes.some((o) => o.infraFailure === null)) return undefined;
  const [reason = 'unknown', n = 0] = Object.entries(infraFailureReasons(r.outcomes)).sort((a, b) => b[1] - a[1])[0] ?? [];
  return `nothing was measured: all ${r.outcomes.length} episodes were infrastructure failures (×${n}: ${reason})`;
}

function usage(check: () => void): void {
  try {
    check();
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** eval.json's `skills`: what loaded where and why, and which loaded skills fired (none without --skills active). */
async function skillsReport(withSkills: SkillsForRun | undefined, result: EvaluationResult) {
  if (!withSkills) return {};
  const { skillFirings } = await import('../../skills/index.js');
  return { skills: { ...withSkills.skills, fired: skillFirings(withSkills.skills, result.outcomes) } };
}

function queueLine(c: { jobs: number; queueRetries: number; failedJobs: number }): string {
  return `${c.jobs} episode jobs, ${c.queueRetries} run again by the queue (a worker lost), ${c.failedJobs} failed on every attempt`;
}

async function evaluateWithProgress(
  plan: EvaluationPlan,
  workers: number,
  envsPerWorker: number,
  executor?: EpisodeExecutor,
): Promise<EvaluationResult> {
  const bar = progress('eval');
  // the count from the start: a first episode that hangs on its env is then a line that waits, not silence
  bar.update(0, planJobs(plan).length, 'starting');
  let successes = 0;
  const result = await evaluate(plan, {
    workers,
    envsPerWorker,
    executor,
    onEpisode: (o, done, total) => {
      if (o.success) successes++;
      bar.update(done, total, `${successes} ok`); // the rate and the ETA come with the line (pace)
    },
  });
  bar.done();
  return result;
}

function toReport(suite: string, perturbation: string, episodesPerTask: number, r: EvaluationResult) {
  type TaskReport = {
    success: number;
    episodes: number;
    rate: number;
    ci95: [number, number];
    infra_failures: number;
    infra_retries: number;
    physics_divergences: number;
  };
  const tasks: Record<string, TaskReport> = {};
  for (const [name, t] of Object.entries(r.tasks)) {
    tasks[name] = {
      success: t.successes,
      episodes: t.episodes,
      rate: t.rate,
      ci95: [t.low, t.high],
      infra_failures: t.infraFailures,
      infra_retries: t.infraRetries,
      physics_divergences: t.physicsDivergences,
    };
  }
  const a = r.attribution;
  return {
    suite,
    perturbation,
    episodes_per_task: episodesPerTask,
    tasks,
    macro_success: r.macroSuccess,
    executed_steps: a.executedSteps,
    unmodified_policy_actions: a.unmodifiedPolicyActions,
    unmodified_policy_share: a.unmodifiedPolicyShare,
    unmodified_policy_share_in_successes: a.unmodifiedPolicyShareInSuccesses,
    successes_without_recovery: a.successesWithoutRecovery,
    milestones_during_recovery: a.milestonesDuringRecovery,
    physics_divergences: r.physicsDivergences,
    infra_failures: r.infraFailures,
    infra_retries: r.infraRetries,
    recoveries: r.recoveries,
    episodes_per_min: r.episodesPerMinute,
    mean_batch_size: r.meanBatchSize ?? 1,
  };
}

function formatTable(r: EvaluationResult): string {
  const width = Math.max(...Object.keys(r.tasks).map((k) => k.length), 4);
  const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : 'n/a').padStart(6);
  const notes = (t: EvaluationResult['tasks'][string]) =>
    `${t.physicsDivergences ? `  (${t.physicsDivergences} physics divergence${t.physicsDivergences > 1 ? 's' : ''})` : ''}${t.infraFailures ? `  (${t.infraFailures} infra)` : ''}`;
  const rows = Object.entries(r.tasks).map(
    ([name, t]) =>
      `  ${name.padEnd(width)}  ${`${t.successes}/${t.episodes}`.padStart(7)}  ${pct(t.rate)}  [${pct(t.low)}, ${pct(t.high)}]${notes(t)}`,
  );
  const a = r.attribution;
  const share = (x: number) => (Number.isFinite(x) ? pct(x).trim() : 'n/a');
  return [
    `  ${'task'.padEnd(width)}  ${'success'.padStart(7)}  ${'rate'.padStart(6)}  Wilson 95%`,
    ...rows,
    `  macro success ${pct(r.macroSuccess).trim()}; recoveries ${r.recoveries}; physics divergences ${r.physicsDivergences}; infra failures ${r.infraFailures} (${r.infraRetries} re-run at the same seed); ${r.episodesPerMinute.toFixed(1)} episodes/min`,
    `  policy's unmodified actions ${share(a.unmodifiedPolicyShare)} of ${a.executedSteps} executed steps (${share(a.unmodifiedPolicyShareInSuccesses)} in successes); ` +
      `successes without recovery ${a.successesWithoutRecovery}/${a.successes}; milestones during recovery ${a.milestonesDuringRecovery}`,
    ...infraReasons(r),
  ].join('\n');
}

/** Why episodes were lost to the infrastructure, each distinct reason once with its count. */
function infraReasons(r: EvaluationResult): string[] {
  return Object.entries(infraFailureReasons(r.outcomes)).map(([reason, n]) => `  infra failure ×${n}: ${reason}`);
}
