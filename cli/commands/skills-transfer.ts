// `zetta skills transfer --source TASKS --targets TASKS`: do the skills campaigns found on some tasks
// help on tasks no campaign touched? The three governance arms with and without them, same seeds.
import { join, resolve } from 'node:path';
import { loadWorld } from '../../sim/worlds.js';
import { measureTransfer, type Drove, type TargetTransfer, type TransferResult } from '../../skills/transfer.js';
import { formatSkillFirings, formatSkillsLoaded } from '../../skills/index.js';
import { writeJsonAtomic } from '../../util/atomic-write.js';
import { checkPolicy, isRemotePolicySpec } from '../../zinfra/policy/open-policy.js';
import { resolveCriticSpec } from '../../zinfra/runtime/open-critic.js';
import type { Rate } from '../../measure/success-rate.js';
import { printJsonLine, UsageError, type Command } from '../command.js';
import { baseCritic, criticAloneCap } from '../flags/evolution.js';
import { policy } from '../flags/governance.js';
import { flagHelp, printHelp } from '../flags/help.js';
import { readFlags } from '../flags/read.js';
import { perturb, world, worldTaskIds } from '../flags/scene.js';
import { db, sources, targets } from '../flags/skills.js';
import { envsPerWorker, episodes, executeSteps, json, noRecord, out, seed, workers } from '../flags/table.js';
import { progress } from '../progress.js';

const FLAGS = {
  db: db.with({ help: 'the skill store whose active skills are measured' }),
  source: sources,
  targets,
  world,
  perturb,
  episodes: episodes.default(20),
  seed: seed.with({ help: 'first seed; episode i uses S + i' }).default(1000, '1000, disjoint from training seeds'),
  policy,
  critic: baseCritic.with({ help: 'the base bundle the skills compose onto: default, or a bundle directory' }),
  criticAloneCap: criticAloneCap.with({ help: 'the highest success (0..1) the critic-alone arm may reach with the skills' }),
  workers: workers.default(2),
  envsPerWorker: envsPerWorker.default(4),
  executeSteps: executeSteps.default(5),
  out: out.with({ help: 'where transfer.json, the composed bundles and the episodes go', defaultNote: 'runs/transfer-<timestamp>' }),
  noRecord,
  json: json.with({ help: 'last line: transfer.json without its per-skill decisions' }),
};

const HELP = `usage: zetta skills transfer --source a,b --targets c,d [--db FILE] [--perturb P] [--episodes N] [--seed S]
                             [--policy SPEC] [--critic B] [--critic-alone-cap R] [--workers K] [--envs-per-worker E]
                             [--out DIR] [--no-record] [--json]

Zero-shot transfer, measured. The active skills whose campaigns ran on the source tasks are composed
(as --skills active composes them) onto the base bundle for each target task where their guard holds,
and the three governance arms (policy alone, critic alone with each trivial policy, both) run twice at
the same seeds: without the skills and with them. Per target: both arms' figures, the gain in the both
arm with Wilson 95% intervals and an exact one-sided McNemar p-value over the paired seeds, and
whether the skills kept the critic-alone arm under the cap. A target that any skill's campaign ran on
is refused: transfer is measured where no campaign looked.

${flagHelp(FLAGS)}`;

export const skillsTransferCommand: Command = {
  name: 'skills transfer',
  summary: 'skills from source tasks on target tasks no campaign used: three arms with and without them',
  help: HELP,
  async run(argv) {
    const f = readFlags(argv, FLAGS);
    if (f === 'help') return printHelp(HELP);
    const w = await loadWorld(f.world);
    const sources = worldTaskIds(w, f.source);
    const targets = worldTaskIds(w, f.targets);
    const critic = resolveCriticSpec(f.critic);
    if (!critic) throw new UsageError('--critic none: transfer composes skills onto a bundle; name one (e.g. default)');
    if (isRemotePolicySpec(f.policy)) await checkPolicy(f.policy);
    const outDir = resolve(f.out ?? join('runs', `transfer-${new Date().toISOString().replace(/[:.]/g, '-')}`));
    let bar = progress('transfer');
    const result = await measureTransfer(
      {
        db: f.db,
        world: w,
        sources,
        targets,
        dir: join(outDir, 'skills'),
        criticAloneCap: f.criticAloneCap,
        arms: {
          world: f.world,
          tasks: targets,
          episodesPerTask: f.episodes,
          firstSeed: f.seed,
          perturbation: f.perturb?.spec,
          policy: f.policy,
          executeSteps: f.executeSteps,
          critic,
          recordDir: f.noRecord ? undefined : join(outDir, 'episodes'),
          recordControls: false,
        },
      },
      {
        onPhase: (phase) => process.stderr.write(`transfer: the three arms ${phase}\n`),
        onComposed: (skills) => process.stderr.write(`${formatSkillsLoaded(skills)}\n`),
        arms: {
          workers: f.workers,
          envsPerWorker: f.envsPerWorker,
          onArmStart: (run, i, total) => {
            bar = progress(
              `arm ${i + 1}/${total} ${run.arm === 'critic' ? `critic alone (${run.policy})` : run.arm === 'both' ? 'both' : 'policy alone'}`,
            );
          },
          onEpisode: (_run, _o, done, total) => bar.update(done, total),
        },
      },
    );
    bar.done();
    writeJsonAtomic(join(outDir, 'transfer.json'), { ...result, perturbation: f.perturb?.name ?? 'nominal' });
    process.stdout.write(`${formatTransfer(result, f.perturb?.name ?? 'nominal')}\n`);
    process.stderr.write(`transfer.json in ${outDir}\n`);
    if (f.json)
      printJsonLine({
        ...result,
        perturbation: f.perturb?.name ?? 'nominal',
        skills: { db: result.skills.db, active: result.skills.active },
      });
    return 0;
  },
};

const pct = (x: number) => `${Math.round(100 * x)}%`;
const rate = (r: Rate) => `${pct(r.rate)} [${pct(r.low)}, ${pct(r.high)}]`;
const pts = (x: number) => `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(Math.round(100 * x))}`;

const share = (d: Drove) =>
  `${Number.isFinite(d.policy_share_in_successes) ? pct(d.policy_share_in_successes) : 'n/a'}, ${d.milestones_during_recovery} milestones in ${d.recoveries} recoveries`;

export function formatTransfer(r: TransferResult, perturbation: string): string {
  const seeds = r.seeds.length ? `seeds ${r.seeds[0]}–${r.seeds.at(-1)}` : 'no seeds';
  const row = (t: TargetTransfer) =>
    `| ${t.task} | ${t.loaded.length} | ${rate(t.without.both)} | ${rate(t.with.both)} | **${pts(t.gain)}** | ${t.p_value.toPrecision(2)} | ` +
    `${pct(t.with.critic_alone.rate)} (${t.with.critic_alone.control})${t.critic_alone_within_cap ? '' : ' **over the cap**'} | ${pts(t.without.synergy)} → ${pts(t.with.synergy)} |`;
  return [
    `Transfer from ${r.sources.join(', ')} under ${perturbation}, ${seeds} (both arm; critic-alone cap ${pct(r.critic_alone_cap)}):`,
    '',
    '| target | skills loaded | both, without skills | both, with skills | gain (pts) | McNemar p | critic alone with skills | synergy without → with |',
    '|---|---|---|---|---|---|---|---|',
    ...r.targets.map(row),
    '',
    "who drove the both arm (the policy's unmodified actions in successes; milestones first reached while a recovery drove, counted against the critic):",
    ...r.targets.map((t) => `  ${t.task}: without skills ${share(t.drove.without)}; with skills ${share(t.drove.with)}`),
    '',
    'skills in the both arm with skills:',
    formatSkillFirings(r.fired),
  ].join('\n');
}
