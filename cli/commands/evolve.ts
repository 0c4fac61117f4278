// `zetta evolve`: one evolution campaign in a world, the embedded suite by default (flags → evolution/runCampaign).
import { resolve } from 'node:path';
import { DEFAULT_GATES, ManifestMismatchError, evaluatorRunner, runCampaign, type CampaignSummary } from '../../evolution/index.js';
import { ArtifactFormatError } from '../../evolution/campaign/artifact-format.js';
import { ArtifactHashError } from '../../evolution/campaign/artifacts.js';
import { loadWorld } from '../../sim/worlds.js';
import { EMBEDDED_POLICY_PATH } from '../../zinfra/policy/open-policy.js';
import { InputError, printJsonLine, UsageError, type Command } from '../command.js';
import {
  baseCritic,
  confirmSeeds,
  criticAloneCap,
  diagnoser,
  heldoutSeeds,
  maxCandidates,
  maxExtraSafetyEvents,
  root,
} from '../flags/evolution.js';
import { policy, skills } from '../flags/governance.js';
import { resolveCriticSpec } from '../../zinfra/runtime/open-critic.js';
import { skillsForRun } from '../active-skills.js';
import { flagHelp, printHelp } from '../flags/help.js';
import { readFlags } from '../flags/read.js';
import { text } from '../flags/flag.js';
import { chosenWorld, env, perturb, world } from '../flags/scene.js';
import { checkRemoteEnvParallelism, isRemoteEnvFailure } from '../../sim/remote/index.js';
import { promoteTo, skillsDb } from '../flags/skills.js';
import { openQueueFlag, queue, recordings, withQueueErrors } from '../flags/queue.js';
import { defaultActor } from './skills-args.js';
import { devEpisodes, envsPerWorker, executeSteps, generations, json, suite, workers } from '../flags/table.js';

const REQUIRED = '--suite, --task and --root are required';

const FLAGS = {
  world,
  env,
  suite: suite
    .with({ help: "the task's suite (the tabletop's: spatial | object | goal | long), or all for tasks of several suites" })
    .required(REQUIRED),
  // checked against the world once it is loaded
  task: text('task', {
    metavar: 'T',
    help: [
      'a task id of the world (see zetta sim tasks for the tabletop), or several: a,b,c runs one',
      'campaign over all of them (every seed on each task; the gates pool the tasks, and the',
      'regression and held-out gates refuse fewer successes on any one task)',
    ].join('\n'),
  }).required(REQUIRED),
  root: root.required(REQUIRED),
  perturb,
  devEpisodes: devEpisodes.default(50),
  heldoutSeeds,
  confirmSeeds,
  generations: generations.default(3),
  diagnoser,
  policy,
  critic: baseCritic,
  skills: skills.with({
    help: 'active: generation 1 starts from --critic composed with every active skill\nwhose guard holds for the task (the composed bundle is frozen like any base)',
  }),
  skillsDb,
  maxCandidates,
  maxExtraSafetyEvents,
  criticAloneCap,
  workers: workers.default(1, '1; results are identical for any K'),
  envsPerWorker: envsPerWorker.default(1),
  executeSteps: executeSteps.default(5),
  promoteTo,
  queue: queue.with({
    help: 'run the rollouts as jobs on a Redis queue, taken by `zetta worker` processes;\nthe same command again resumes from Redis and the root, running no finished episode twice',
  }),
  recordings,
  json: json.with({
    help: [
      'last line: {"campaign_id", "promoted", "bundle_sha256", "heldout": {"parent_success",',
      '"candidate_success", "episodes", "p_value"}, "confirmation": {same fields} | null,',
      '"generations", "decisions", "report"}; with --promote-to also "skill": {"id", "state",',
      '"created"} | null',
    ].join('\n'),
  }),
};

const HELP = `usage: zetta evolve [--world W | --env zmq://HOST:PORT] --suite S --task T --root DIR [--perturb FILE|NAME] [--dev-episodes 50]
                    [--heldout-seeds 1000-1019] [--confirm-seeds 2000-2019] [--generations 3] [--diagnoser builtin|llm]
                    [--policy SPEC] [--critic default|none|DIR] [--skills none|active] [--skills-db FILE] [--max-candidates 3] [--max-extra-safety-events 0] [--critic-alone-cap 0.1]
                    [--workers K] [--envs-per-worker E] [--execute-steps k] [--promote-to DB] [--queue redis://HOST:PORT] [--json]

Runs an evolution campaign: development rollouts, failure clustering, diagnosis, candidate bundles
(rules + recovery programs) fitted by shadow replay, then the paired, regression, critic-alone (the
candidate with trivial policies must stay under a cap) and held-out gates (one-sided exact McNemar:
up to two tests a generation, for the candidates with the strongest development evidence, the first
at 2/3 of the generation's share of α and the second at 1/3). A promoted bundle is
finally compared with the base on fresh confirmation seeds that chose nothing: that p-value is the
campaign's claim. The policy is never changed.
Everything lives under DIR: the frozen manifest, the seed preregistration, every artifact with its
sha256, the promoted bundle and report.html. Run the same command again to resume a campaign that was interrupted.
With --promote-to DB a promoted bundle becomes a pending skill in that store (zetta skills add).

${flagHelp(FLAGS)}`;

export const evolveCommand: Command = withQueueErrors({
  name: 'evolve',
  summary: 'an evolution campaign: cluster failures, diagnose, synthesize and gate a critic bundle',
  help: HELP,
  async run(argv) {
    const f = readFlags(argv, FLAGS);
    if (f === 'help') return printHelp(HELP);
    const worldRef = chosenWorld(f, argv);
    // An env server that is not there, or whose spec does not validate, is told in one line.
    const w = await loadWorld(worldRef).catch((err: unknown) => {
      throw isRemoteEnvFailure(err) ? new UsageError((err as Error).message) : err;
    });
    usage(() => checkRemoteEnvParallelism(w, f.workers * f.envsPerWorker));
    const tasks = campaignTaskList(f.task, f.suite, (t) => usage(() => w.task(t).suite));
    if (tasks.length > 1 && f.skills === 'active')
      throw new UsageError('--skills active composes skills per task: give one --task, or compose the bundle first');
    const withSkills = await skillsForRun(f.skills, f.skillsDb, resolveCriticSpec(f.critic), w, tasks, resolve(f.root, 'skills'));
    // the campaign root scopes the job ids: a restarted coordinator finds its jobs again
    const coordinator = await openQueueFlag(f.queue, resolve(f.root), f.recordings, (line) => process.stderr.write(`evolve: ${line}\n`));
    const summary = await runCampaign({
      world: w,
      root: resolve(f.root),
      suite: f.suite,
      task: tasks[0]!,
      tasks,
      perturbation: f.perturb ?? null,
      policy: { spec: f.policy, file: policyFile(f.policy) },
      baseBundle: withSkills?.plan.byTask?.[tasks[0]!] ?? f.critic,
      heldout: f.heldoutSeeds,
      confirmation: f.confirmSeeds,
      devEpisodes: f.devEpisodes,
      generations: f.generations,
      gates: {
        ...DEFAULT_GATES,
        max_candidates: f.maxCandidates,
        max_extra_safety_events: f.maxExtraSafetyEvents,
        critic_alone_cap: f.criticAloneCap,
      },
      executeSteps: f.executeSteps,
      runner: evaluatorRunner({
        world: worldRef,
        policy: f.policy,
        executeSteps: f.executeSteps,
        workers: f.workers,
        envsPerWorker: f.envsPerWorker,
        executor: coordinator?.executor,
      }),
      diagnoser: f.diagnoser,
      log: (line) => process.stderr.write(`evolve: ${line}\n`),
    })
      .catch((err: unknown) => {
        throw rootProblem(err, resolve(f.root));
      })
      .finally(() => coordinator?.close());
    process.stderr.write(`evolve: report in ${summary.report}\n`);
    const skill = f.promoteTo === undefined ? undefined : await promoteSkill(summary, f.promoteTo);
    if (f.json) printJsonLine(skill === undefined ? summary : { ...summary, skill });
    else process.stdout.write(`${summaryLine(summary)}\n`);
    return 0;
  },
});

/** --task a,b,c: the campaign's tasks, each in --suite (or any suite with --suite all), none twice. */
function campaignTaskList(text: string, suite: string, suiteOf: (task: string) => string): string[] {
  const tasks = text.split(',').map((t) => t.trim());
  if (tasks.some((t) => t === '')) throw new UsageError(`--task ${text}: an empty task id`);
  const twice = tasks.find((t, i) => tasks.indexOf(t) !== i);
  if (twice !== undefined) throw new UsageError(`--task ${text}: ${twice} is named twice`);
  for (const t of tasks) {
    const taskSuite = suiteOf(t);
    if (suite !== 'all' && taskSuite !== suite) throw new UsageError(`task ${t} is in suite ${taskSuite}, not ${suite}`);
  }
  return tasks;
}

/** --promote-to: the promoted bundle as a pending skill (null when nothing was promoted). */
async function promoteSkill(summary: CampaignSummary, db: string): Promise<{ id: string; state: string; created: boolean } | null> {
  if (!summary.promoted) {
    process.stderr.write(`evolve: nothing promoted, so nothing added to ${db}\n`);
    return null;
  }
  const { promoteCampaign } = await import('../../skills/index.js');
  const r = await promoteCampaign(summary.root, db, { actor: defaultActor(), reason: '' });
  process.stderr.write(
    `evolve: ${r.created ? 'added pending skill' : 'already in the store:'} ${r.skill.id} (${r.skill.content.name}) to ${db}\n`,
  );
  return { id: r.skill.id, state: r.skill.state, created: r.created };
}

function summaryLine(summary: CampaignSummary): string {
  const c = summary.confirmation;
  const confirmed = c
    ? `; confirmation ${c.parent_success} → ${c.candidate_success} of ${c.episodes}, p = ${c.p_value.toPrecision(3)}`
    : '';
  const verdict = summary.promoted ? `promoted ${summary.bundle_sha256?.slice(0, 12)} (${summary.bundle_dir})` : 'nothing promoted';
  return `${verdict}; held-out ${summary.heldout.parent_success} → ${summary.heldout.candidate_success ?? '-'} of ${summary.heldout.episodes}${confirmed}`;
}

/** The local file behind a policy spec (hashed into the manifest), or null for a remote policy. */
function policyFile(spec: string): string | null {
  if (spec === 'embedded') return EMBEDDED_POLICY_PATH;
  if (spec.startsWith('onnx:')) return resolve(spec.slice(5));
  return spec.endsWith('.onnx') ? resolve(spec) : null;
}

/**
 * A root that holds another campaign, or one whose files were damaged or changed, is the user's to
 * fix (a new --root, or the file put back): told in one line, exit code 2, like any bad input.
 */
function rootProblem(err: unknown, root: string): unknown {
  if (err instanceof ArtifactFormatError) return new InputError(err.message);
  if (err instanceof ManifestMismatchError || err instanceof ArtifactHashError) return new InputError(`--root ${root}: ${err.message}`);
  return err;
}

/** A lookup in the world whose failure is the user's (an unknown task): a usage error. */
function usage<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}
