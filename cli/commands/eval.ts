// `zetta eval`: success of a policy on the embedded suite, per task with a Wilson 95% interval, and
// with --arms the three governance arms of a critic (eval-arms.ts).
import { join, resolve } from 'node:path';
import { getTask, listTasks, resolvePerturbation, type SuiteName } from '../../sim/index.js';
import { writeJsonAtomic } from '../../zinfra/atomic-write.js';
import { POLICY_SPEC_HELP, checkPolicy, isRemotePolicySpec } from '../../zinfra/policy/open-policy.js';
import { evaluate, infraFailureReasons, type EvaluationPlan, type EvaluationResult } from '../../zinfra/runtime/evaluation.js';
import { criticLabel, openCritic, resolveCriticSpec, type CriticPlan } from '../../zinfra/runtime/open-critic.js';
import { intFlag, parseFlags, printJsonLine, UsageError, type Command } from '../command.js';
import { progress } from '../progress.js';
import { runArmsCommand } from './eval-arms.js';

const SUITES = ['spatial', 'object', 'goal', 'long', 'all'] as const;

const HELP = `usage: zetta eval --suite S [--tasks a,b] [--perturb FILE|NAME] [--episodes N] [--seed S]
                  [--policy SPEC] [--critic none|default|FILE] [--skills none] [--workers K] [--envs-per-worker E]
                  [--execute-steps k] [--arms]
                  [--out DIR] [--no-record] [--json]

Runs a policy on the embedded tabletop suite and reports success per task with a Wilson 95%
interval. Chunks are executed as the LIBERO reference client does: k actions of each, then the
policy is asked again. Every episode is recorded as MCAP under DIR/episodes/ for later replay.
The policy's share is honest: executed steps whose action is exactly the policy's own a_t, over
every executed step (clamps, envelope changes, holds and recoveries count against it). A physics
divergence is a task failure; lost or overloaded policy servers are infrastructure failures: the
episode is run again at the same seed (twice at most, counted as infra retries), and one that still
fails leaves the success denominator, with its reason printed under the table.

  --suite S            ${SUITES.join(' | ')}
  --tasks a,b          only these tasks (ids as \`zetta sim tasks\` lists them)
  --perturb FILE|NAME  a perturbation file, or a shipped one (sim/perturbations/NAME.json); default nominal
  --episodes N         episodes per task (default 50)
  --seed S             first seed; episode i uses S + i (default 1000, disjoint from training seeds)
  --policy SPEC        ${POLICY_SPEC_HELP} (default embedded)
  --critic C           the runtime critic: none (default), default (the bundle shipped for the
                       embedded suite, critic/bundles/default), or a bundle directory / manifest
                       file. The embedded suite authorizes the privileged features bundles read.
  --skills none        promoted skills (only none until skills land)
  --workers K          worker threads (default 1)
  --envs-per-worker E  simulators stepping concurrently in each worker (default 1); with more than
                       one simulator in all, a local policy is served to them by one batching server
  --execute-steps k    actions executed per chunk before replanning (default 5)
  --arms               governance arms at the same seeds (needs --critic): the policy alone, the
                       critic alone (each trivial policy null:open, null:closed, null:random:0 under
                       the critic; per task the best counts) and both; prints per task and macro
                       synergy = both − max(policy alone, critic alone) with paired bootstrap 95%
                       intervals, and per arm the policy's unmodified share of executed steps (all,
                       and in successes), successes without recovery, milestones reached during
                       recovery, physics divergences. Writes DIR/arms.json (episodes under
                       DIR/episodes/<arm>/); progress per arm on stderr
  --out DIR            where episodes and eval.json go (default runs/eval-<timestamp>)
  --no-record          do not record episodes
  --json               last line: {"suite", "perturbation", "episodes_per_task", "tasks": {NAME:
                       {"success", "episodes", "physics_divergences"}}, "macro_success",
                       "unmodified_policy_share", "unmodified_policy_share_in_successes",
                       "successes_without_recovery", "milestones_during_recovery", "physics_divergences",
                       "infra_failures", "infra_retries", "critic", "recoveries"}; with --arms: {"arms": {"policy_alone",
                       "critic_alone", "both"} (each with its "attribution"), "controls", "tasks": {NAME:
                       {"policy_alone", "critic_alone", "both", "synergy"}}, "macro"}, every figure as
                       {"value", "ci95"}`;

function selectTasks(suite: string | undefined, tasks: string | undefined): string[] {
  if (tasks) {
    return tasks.split(',').map((t) => {
      try {
        return getTask(t.trim()).id;
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
    });
  }
  if (!suite) throw new UsageError('--suite S (or --tasks a,b) is required');
  if (!(SUITES as readonly string[]).includes(suite)) throw new UsageError(`--suite must be one of ${SUITES.join(', ')}, got "${suite}"`);
  return (suite === 'all' ? listTasks() : listTasks(suite as SuiteName)).map((t) => t.id);
}

function requireNone(flag: string, value: string | undefined): void {
  if (value !== undefined && value !== 'none') {
    throw new UsageError(`--${flag} ${value}: only "none" is available in this version of zetta`);
  }
}

export const evalCommand: Command = {
  name: 'eval',
  summary: 'success rate of a policy on the embedded suite, per task with Wilson intervals',
  help: HELP,
  async run(argv) {
    const { values } = parseFlags(argv, {
      suite: { type: 'string' },
      tasks: { type: 'string' },
      perturb: { type: 'string' },
      episodes: { type: 'string' },
      seed: { type: 'string' },
      policy: { type: 'string', default: 'embedded' },
      critic: { type: 'string' },
      skills: { type: 'string' },
      workers: { type: 'string' },
      'envs-per-worker': { type: 'string' },
      'execute-steps': { type: 'string' },
      arms: { type: 'boolean', default: false },
      out: { type: 'string' },
      'no-record': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    });
    if (values.help) {
      process.stdout.write(`${HELP}\n`);
      return 0;
    }
    if (values.arms && (values.critic === undefined || values.critic === 'none')) {
      // One line, no hint: the fix is in the message.
      process.stderr.write('zetta eval: --arms needs --critic C (the bundle whose governance is measured, e.g. --critic default)\n');
      return 2;
    }
    const tasks = selectTasks(values.suite, values.tasks);
    requireNone('skills', values.skills);
    const critic = loadCriticFlag(values.critic);
    const perturbation = values.perturb ? loadPerturbationFlag(values.perturb) : undefined;
    const episodes = intFlag(values.episodes, 'episodes', 50, 1);
    const out = resolve(values.out ?? join('runs', `eval-${new Date().toISOString().replace(/[:.]/g, '-')}`));
    const plan: EvaluationPlan = {
      tasks,
      episodesPerTask: episodes,
      firstSeed: intFlag(values.seed, 'seed', 1000, 0),
      perturbation,
      policy: values.policy!,
      executeSteps: intFlag(values['execute-steps'], 'execute-steps', 5, 1),
      recordDir: values['no-record'] ? undefined : join(out, 'episodes'),
      critic: critic?.plan,
    };
    const workers = intFlag(values.workers, 'workers', 1, 1);
    const envsPerWorker = intFlag(values['envs-per-worker'], 'envs-per-worker', 1, 1);
    const suite = values.suite ?? 'custom';
    // A server that is not there is said now, in one line, not from inside a worker.
    if (isRemotePolicySpec(plan.policy)) await checkPolicy(plan.policy);
    if (values.arms) {
      return runArmsCommand({ ...plan, critic: critic!.plan }, { workers, envsPerWorker, out, json: values.json!, suite, criticLabel: critic!.label });
    }
    const result = await evaluateWithProgress(plan, workers, envsPerWorker);
    const report = { ...toReport(suite, values.perturb ?? 'nominal', episodes, result), critic: critic?.label ?? 'none' };
    writeJsonAtomic(join(out, 'eval.json'), { ...report, episodes: result.outcomes });
    process.stdout.write(`${formatTable(result)}\n`);
    process.stderr.write(`episodes and eval.json in ${out}\n`);
    if (values.json) printJsonLine(report);
    return 0;
  },
};

async function evaluateWithProgress(plan: EvaluationPlan, workers: number, envsPerWorker: number): Promise<EvaluationResult> {
  const bar = progress('eval');
  const started = performance.now();
  let successes = 0;
  const result = await evaluate(plan, {
    workers,
    envsPerWorker,
    onEpisode: (o, done, total) => {
      if (o.success) successes++;
      const perMin = done / ((performance.now() - started) / 60_000);
      bar.update(done, total, `${successes} ok, ${perMin.toFixed(1)} episodes/min`);
    },
  });
  bar.done();
  return result;
}

/** Resolves and loads the bundle here, so a bad one is a usage error before any episode runs. */
function loadCriticFlag(value: string | undefined): { plan: CriticPlan; label: string } | undefined {
  try {
    const plan = resolveCriticSpec(value);
    return plan ? { plan, label: criticLabel(openCritic(plan)) } : undefined;
  } catch (err) {
    throw new UsageError(`--critic ${value}: ${(err as Error).message}`);
  }
}

function loadPerturbationFlag(value: string) {
  try {
    return resolvePerturbation(value);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

function toReport(suite: string, perturbation: string, episodesPerTask: number, r: EvaluationResult) {
  type TaskReport = { success: number; episodes: number; rate: number; ci95: [number, number]; infra_failures: number; infra_retries: number; physics_divergences: number };
  const tasks: Record<string, TaskReport> = {};
  for (const [name, t] of Object.entries(r.tasks)) {
    tasks[name] = { success: t.successes, episodes: t.episodes, rate: t.rate, ci95: [t.low, t.high], infra_failures: t.infraFailures, infra_retries: t.infraRetries, physics_divergences: t.physicsDivergences };
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
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`.padStart(6);
  const notes = (t: EvaluationResult['tasks'][string]) =>
    `${t.physicsDivergences ? `  (${t.physicsDivergences} physics divergence${t.physicsDivergences > 1 ? 's' : ''})` : ''}${t.infraFailures ? `  (${t.infraFailures} infra)` : ''}`;
  const rows = Object.entries(r.tasks).map(
    ([name, t]) => `  ${name.padEnd(width)}  ${`${t.successes}/${t.episodes}`.padStart(7)}  ${pct(t.rate)}  [${pct(t.low)}, ${pct(t.high)}]${notes(t)}`,
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
