// `zetta eval --arms`: the three governance arms at the same seeds (policy alone, critic alone with
// the best trivial policy per task, both), synergy with paired bootstrap intervals, and who drove
// the robot in each arm. Progress goes to stderr, one line per arm.
import { join } from 'node:path';
import { writeJsonAtomic } from '../../util/atomic-write.js';
import type { Attribution } from '../../measure/attribution.js';
import type { EpisodeExecutor } from '../../measure/evaluation.js';
import { formatArms } from '../../measure/arms-table.js';
import { runGovernanceArms, type ArmReport, type ArmRun, type ArmsPlan, type GovernanceArms } from '../../measure/governance-arms.js';
import type { Estimate } from '../../measure/paired-bootstrap.js';
import type { EpisodeOutcome } from '../../zinfra/runtime/run-episode.js';
import type { ActiveSkills, SkillFiring } from '../../skills/index.js';
import { printJsonLine } from '../command.js';
import { progress } from '../progress.js';

export interface ArmsCommandOptions {
  readonly workers: number;
  readonly envsPerWorker: number;
  readonly out: string;
  readonly json: boolean;
  readonly suite: string;
  readonly criticLabel: string;
  /** `--skills active`: what loaded where; the report adds which fired in each arm under the critic. */
  readonly skills?: ActiveSkills | undefined;
  /** `--queue`: every arm's episodes run on the Redis job queue. */
  readonly executor?: EpisodeExecutor | undefined;
}

export async function runArmsCommand(plan: ArmsPlan, o: ArmsCommandOptions): Promise<number> {
  const armName = (r: ArmRun) =>
    r.arm === 'policy' ? `policy alone (${r.policy})` : r.arm === 'critic' ? `critic alone (${r.policy})` : `both (${r.policy} + critic)`;
  let bar = progress('arm');
  const governed: { run: ArmRun; outcomes: readonly EpisodeOutcome[] }[] = [];
  const arms = await runGovernanceArms(plan, {
    workers: o.workers,
    envsPerWorker: o.envsPerWorker,
    executor: o.executor,
    onArmStart: (run, i, total) => {
      process.stderr.write(`arm ${i + 1}/${total}: ${armName(run)}\n`);
      bar = progress(armName(run));
    },
    onEpisode: (_run, _o, done, total) => bar.update(done, total),
    onArmDone: (run, r) => {
      bar.done();
      if (run.critic) governed.push({ run, outcomes: r.outcomes });
      process.stderr.write(
        `arm done: ${armName(run)}: macro success ${(100 * r.macroSuccess).toFixed(1)}%, ${r.outcomes.length} episodes, ${(r.wallMs / 1000).toFixed(1)} s\n`,
      );
    },
  });
  const fired = o.skills ? await firedPerArm(o.skills, governed) : undefined;
  const report = {
    suite: o.suite,
    critic_label: o.criticLabel,
    ...toArmsReport(arms),
    ...(o.skills ? { skills: { ...o.skills, fired } } : {}),
  };
  writeJsonAtomic(join(o.out, 'arms.json'), report);
  process.stdout.write(`${formatArms(arms)}\n`);
  if (fired)
    process.stdout.write(`skills in the both arm:\n${(await import('../../skills/index.js')).formatSkillFirings(fired['both']!)}\n`);
  process.stderr.write(`arms.json${plan.recordDir ? ' and episodes' : ''} in ${o.out}\n`);
  if (o.json) printJsonLine(report);
  return 0;
}

/** Which loaded skills fired in each governed arm: "both", and "critic_alone <control>" per control. */
async function firedPerArm(
  skills: ActiveSkills,
  governed: readonly { run: ArmRun; outcomes: readonly EpisodeOutcome[] }[],
): Promise<Record<string, SkillFiring[]>> {
  const { skillFirings } = await import('../../skills/index.js');
  return Object.fromEntries(
    governed.map(({ run, outcomes }) => [run.arm === 'both' ? 'both' : `critic_alone ${run.policy}`, skillFirings(skills, outcomes)]),
  );
}

const estimate = (e: Estimate) => ({ value: e.value, ci95: [e.low, e.high] });

function attributionReport(a: Attribution) {
  return {
    episodes: a.episodes,
    successes: a.successes,
    executed_steps: a.executedSteps,
    unmodified_policy_actions: a.unmodifiedPolicyActions,
    unmodified_policy_share: a.unmodifiedPolicyShare,
    unmodified_policy_share_in_successes: a.unmodifiedPolicyShareInSuccesses,
    successes_without_recovery: a.successesWithoutRecovery,
    recoveries: a.recoveries,
    milestones_during_recovery: a.milestonesDuringRecovery,
    physics_divergences: a.physicsDivergences,
    infra_failures: a.infraFailures,
  };
}

function armReport(a: ArmReport) {
  const tasks = Object.fromEntries(
    Object.entries(a.tasks).map(([k, t]) => [
      k,
      {
        success: t.successes,
        episodes: t.episodes,
        rate: t.rate,
        infra_failures: t.infraFailures,
        physics_divergences: t.physicsDivergences,
      },
    ]),
  );
  return {
    policy: a.policy,
    critic: a.critic,
    macro_success: a.macroSuccess,
    tasks,
    attribution: attributionReport(a.attribution),
    wall_ms: a.wallMs,
  };
}

/** The arms as the JSON line and arms.json carry them (snake_case, like eval.json). */
export function toArmsReport(a: GovernanceArms) {
  const tasks = Object.fromEntries(
    Object.entries(a.perTask).map(([k, t]) => [
      k,
      {
        policy_alone: estimate(t.policy),
        critic_alone: { ...estimate(t.critic), control: t.critic.control },
        both: estimate(t.both),
        synergy: estimate(t.synergy),
        controls: t.controls,
      },
    ]),
  );
  return {
    perturbation: a.perturbation,
    policy: a.policy,
    critic: a.critic,
    critic_hash: a.criticHash,
    seeds: a.seeds,
    episodes_per_task: a.seeds.length,
    arms: { policy_alone: armReport(a.arms.policy), critic_alone: armReport(a.arms.critic), both: armReport(a.arms.both) },
    controls: Object.fromEntries(Object.entries(a.controls).map(([k, r]) => [k, armReport(r)])),
    tasks,
    macro: {
      policy_alone: estimate(a.macro.policy),
      critic_alone: estimate(a.macro.critic),
      both: estimate(a.macro.both),
      synergy: estimate(a.macro.synergy),
    },
    bootstrap: a.bootstrap,
  };
}
