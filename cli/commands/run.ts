// `zetta run`: the main job on the embedded default. It runs the most complete pipeline that exists
// and writes a report; each stage's result lands in report.json as soon as the stage ends, so an
// interrupted run keeps what it finished.
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomic, writeJsonAtomic } from '../../zinfra/atomic-write.js';
import { EMBEDDED_POLICY_PATH } from '../../zinfra/policy/open-policy.js';
import { intFlag, parseFlags, printJsonLine, type Command } from '../command.js';
import { progress } from '../progress.js';
import { PERTURBED_CONDITIONS, runBaselineStage } from '../run/baseline-stage.js';
import { runEvolutionStage } from '../run/evolution-stage.js';
import { armsLine, runGovernanceStage, signedPoints } from '../run/governance-stage.js';
import { runExpertStage } from '../run/expert-stage.js';
import { renderMarkdown, type RunReport } from '../run/report.js';
import { runWireStage } from '../run/wire-stage.js';
import { runSummaryLines } from '../run/summary.js';

const HELP = `usage: zetta run [--out DIR] [--episodes N] [--expert-episodes N] [--wire-requests N]
                 [--dev-episodes N] [--generations G] [--workers K] [--envs-per-worker E] [--quick] [--json]

The main job on the embedded default, end to end, on a CPU:
  1. wire      one policy served by the Node ONNX server and by the Python shim over real ZeroMQ
               sockets; the same LIBERO-sized observations through both; their chunks must agree
  2. expert    the scripted expert on every task: the upper bound
  3. baseline  the frozen embedded base policy alone on every task, nominal (held-out seeds from 1000)
  4. governance under the position-shift, object-change, disturbance and sensor-noise-delay
               perturbations, at the same seeds: the policy alone, the default (observable) critic
               alone with each trivial policy (null:open, null:closed, null:random:0), and both;
               synergy = both − max(policy alone, critic alone), with paired bootstrap intervals
  5. evolution one campaign on the task and perturbation where policy + critic does worst: cluster its
               failures, diagnose, synthesize and gate a bundle (critic-alone cap, held-out seeds
               1000-1019 at α over the generations), then confirm on fresh seeds 2000-2019
Writes DIR/report.json (stage by stage), DIR/report.md, and every episode as MCAP under DIR/episodes.

  --out DIR               where the run's artifacts go (default runs/<timestamp>)
  --episodes N            baseline episodes per task and condition (default 10)
  --expert-episodes N     expert episodes per task (default 5)
  --wire-requests N       observations sent through each policy server (default 200)
  --dev-episodes N        the campaign's development episodes per generation (default 30)
  --generations G         the campaign's generations at most (default 2)
  --workers K             rollout worker threads (default 2)
  --envs-per-worker E     simulators per worker (default 4)
  --quick                 a smoke run: 2 episodes everywhere, 20 wire requests, a 1-generation campaign
  --json                  last line of stdout: the report as one JSON object`;

export const runCommand: Command = {
  name: 'run',
  summary: 'run the main job on the embedded default, end to end, with a report',
  help: HELP,
  async run(argv) {
    const { values } = parseFlags(argv, {
      out: { type: 'string' },
      episodes: { type: 'string' },
      'expert-episodes': { type: 'string' },
      'wire-requests': { type: 'string' },
      'dev-episodes': { type: 'string' },
      generations: { type: 'string' },
      workers: { type: 'string' },
      'envs-per-worker': { type: 'string' },
      quick: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    });
    if (values.help) {
      process.stdout.write(`${HELP}\n`);
      return 0;
    }
    const quick = values.quick!;
    const started = new Date();
    const out = resolve(values.out ?? join('runs', started.toISOString().replace(/[:.]/g, '-')));
    mkdirSync(out, { recursive: true });
    const report: RunReport = { started: started.toISOString(), out, stages: {} };
    const save = () => {
      writeJsonAtomic(join(out, 'report.json'), report);
      writeFileAtomic(join(out, 'report.md'), renderMarkdown(report));
    };
    const say = (line: string) => process.stderr.write(`${line}\n`);
    say(`zetta run → ${out}`);

    const wireBar = progress('  wire');
    report.stages.wire = await runWireStage(out, intFlag(values['wire-requests'], 'wire-requests', quick ? 20 : 200, 1), (d, t) => wireBar.update(d, t));
    wireBar.done();
    save();
    say(`  wire      ${report.stages.wire.ok ? 'ok' : 'FAILED'}`);

    const expertBar = progress('  expert');
    report.stages.expert = await runExpertStage(intFlag(values['expert-episodes'], 'expert-episodes', quick ? 2 : 5, 1), 1000, (d, t) => expertBar.update(d, t));
    expertBar.done();
    save();
    say(`  expert    macro success ${(100 * report.stages.expert.macro_success).toFixed(1)}%`);

    if (existsSync(EMBEDDED_POLICY_PATH)) {
      const pool = {
        policy: 'embedded',
        episodes: intFlag(values.episodes, 'episodes', quick ? 2 : 10, 1),
        firstSeed: 1000,
        workers: intFlag(values.workers, 'workers', 2, 1),
        envsPerWorker: intFlag(values['envs-per-worker'], 'envs-per-worker', 4, 1),
      };
      const baselineBar = progress('  baseline');
      report.stages.baseline = await runBaselineStage({
        ...pool,
        critic: 'none',
        conditions: ['nominal'],
        recordDir: join(out, 'episodes', 'baseline'),
        onProgress: (condition, d, t) => baselineBar.update(d, t, condition),
      });
      baselineBar.done();
      save();
      say(`  baseline  nominal         macro success ${(100 * report.stages.baseline.conditions.nominal!.macro_success).toFixed(1)}%`);

      const armBar = progress('  governance');
      let arm = '';
      report.stages.governance = await runGovernanceStage({
        ...pool,
        critic: 'default',
        conditions: PERTURBED_CONDITIONS,
        recordDir: join(out, 'episodes', 'governance'),
        onArm: (condition, run, i, n) => (arm = `${condition}: ${run.arm === 'critic' ? `critic alone (${run.policy})` : run.arm === 'policy' ? 'policy alone' : 'both'} ${i + 1}/${n}`),
        onProgress: (_c, d, t) => armBar.update(d, t, arm),
      });
      armBar.done();
      save();
      for (const [name, a] of Object.entries(report.stages.governance.conditions)) say(`  governance ${armsLine(name, a)}`);
      say(`  governance mean synergy ${signedPoints(report.stages.governance.mean_synergy)} points`);
      say('  evolution (one campaign on the weakest task and perturbation under the critic)');
      report.stages.evolution = await runEvolutionStage(report.stages.governance, {
        root: join(out, 'evolution'),
        devEpisodes: intFlag(values['dev-episodes'], 'dev-episodes', quick ? 4 : 30, 1),
        heldout: quick ? '1000-1003' : '1000-1019',
        confirmation: quick ? '2000-2003' : '2000-2019',
        generations: intFlag(values.generations, 'generations', quick ? 1 : 2, 1),
        workers: pool.workers,
        envsPerWorker: pool.envsPerWorker,
        log: (line) => say(`    ${line}`),
      });
      save();
      const evo = report.stages.evolution;
      const confirmed = (c: NonNullable<typeof evo>['campaign']['confirmation']) => (c ? `; confirmation ${c.parent_success} → ${c.candidate_success} of ${c.episodes} (p = ${c.p_value.toPrecision(3)})` : '');
      if (evo) say(`  evolution ${evo.task} / ${evo.perturbation}: ${evo.campaign.promoted ? `promoted, held-out ${evo.campaign.heldout.parent_success} → ${evo.campaign.heldout.candidate_success} of ${evo.campaign.heldout.episodes}${confirmed(evo.campaign.confirmation)}` : 'nothing promoted'}`);
    } else {
      report.skipped = [`baseline: ${EMBEDDED_POLICY_PATH} is not in this checkout`];
      say(`  baseline  skipped (${EMBEDDED_POLICY_PATH} missing)`);
    }

    report.finished = new Date().toISOString();
    report.ok = Object.values(report.stages).every((s) => !s || s.ok);
    save();
    for (const p of [...(report.stages.baseline?.problems ?? []), ...(report.stages.governance?.problems ?? [])]) say(`  problem: ${p}`);
    say(`${report.ok ? 'ok' : 'FAILED'}: ${join(out, 'report.md')}`);
    process.stdout.write(`${runSummaryLines(report, join(out, 'report.md')).join('\n')}\n`);
    if (values.json) printJsonLine(report);
    return report.ok ? 0 : 1;
  },
};
