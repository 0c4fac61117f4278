// `zetta run`: the main job on the embedded default. It runs the most complete pipeline that exists
// and writes a report; each stage's result lands in report.json as soon as the stage ends, so an
// interrupted run keeps what it finished.
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomic, writeJsonAtomic } from '../../zinfra/atomic-write.js';
import { EMBEDDED_POLICY_PATH } from '../../zinfra/policy/open-policy.js';
import { intFlag, parseFlags, printJsonLine, type Command } from '../command.js';
import { progress } from '../progress.js';
import { BASELINE_CONDITIONS, PERTURBED_CONDITIONS, runBaselineStage } from '../run/baseline-stage.js';
import { runEvolutionStage } from '../run/evolution-stage.js';
import { runExpertStage } from '../run/expert-stage.js';
import { renderMarkdown, type RunReport } from '../run/report.js';
import { runWireStage } from '../run/wire-stage.js';

const HELP = `usage: zetta run [--out DIR] [--episodes N] [--expert-episodes N] [--wire-requests N]
                 [--dev-episodes N] [--generations G] [--workers K] [--envs-per-worker E] [--quick] [--json]

The main job on the embedded default, end to end, on a CPU:
  1. wire      one policy served by the Node ONNX server and by the Python shim over real ZeroMQ
               sockets; the same LIBERO-sized observations through both; their chunks must agree
  2. expert    the scripted expert on every task: the upper bound
  3. baseline  the frozen embedded base policy on every task, nominal and under the position-shift,
               object-change, disturbance and sensor-noise-delay perturbations (held-out seeds from 1000)
  4. critic    the same, perturbed, governed by the default runtime critic
  5. evolution one campaign on the task and perturbation where the critic does worst: cluster its
               failures, diagnose, synthesize and gate a bundle; held-out seeds 1-20, exact McNemar
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
      for (const [stage, critic, conditions] of [['baseline', 'none', BASELINE_CONDITIONS], ['critic', 'default', PERTURBED_CONDITIONS]] as const) {
        const bar = progress(`  ${stage}`);
        const result = await runBaselineStage({
          ...pool,
          critic,
          conditions,
          recordDir: join(out, 'episodes', stage),
          onProgress: (condition, d, t) => bar.update(d, t, condition),
        });
        bar.done();
        report.stages[stage] = result;
        save();
        for (const [name, c] of Object.entries(result.conditions)) say(`  ${stage.padEnd(9)} ${name.padEnd(15)} macro success ${(100 * c.macro_success).toFixed(1)}%`);
      }
      say('  evolution (one campaign on the weakest task and perturbation under the critic)');
      report.stages.evolution = await runEvolutionStage(report.stages.critic!, {
        root: join(out, 'evolution'),
        devEpisodes: intFlag(values['dev-episodes'], 'dev-episodes', quick ? 4 : 30, 1),
        heldout: quick ? '1-4' : '1-20',
        generations: intFlag(values.generations, 'generations', quick ? 1 : 2, 1),
        workers: pool.workers,
        envsPerWorker: pool.envsPerWorker,
        log: (line) => say(`    ${line}`),
      });
      save();
      const evo = report.stages.evolution;
      if (evo) say(`  evolution ${evo.task} / ${evo.perturbation}: ${evo.campaign.promoted ? `promoted, held-out ${evo.campaign.heldout.parent_success} → ${evo.campaign.heldout.candidate_success} of ${evo.campaign.heldout.episodes} (p = ${evo.campaign.heldout.p_value})` : 'nothing promoted'}`);
    } else {
      report.skipped = [`baseline: ${EMBEDDED_POLICY_PATH} is not in this checkout`];
      say(`  baseline  skipped (${EMBEDDED_POLICY_PATH} missing)`);
    }

    report.finished = new Date().toISOString();
    report.ok = Object.values(report.stages).every((s) => !s || s.ok);
    save();
    say(`${report.ok ? 'ok' : 'FAILED'}: ${join(out, 'report.md')}`);
    if (values.json) printJsonLine(report);
    return report.ok ? 0 : 1;
  },
};
