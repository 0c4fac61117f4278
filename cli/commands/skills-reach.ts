// `zetta skills reach ID`: a reach trial. The skill alone on the base bundle, against the base, on
// every task of the world but the one it was made on, under each perturbation named, at paired
// development seeds; the verdicts go into the store, and from then on decide where it loads.
import { join, resolve } from 'node:path';
import { writeEmptyBundle } from '../../evolution/index.js';
import { PERTURBED_CONDITIONS } from '../../experiments/run/baseline-stage.js';
import { resolvePerturbation } from '../../sim/perturbation/builtin.js';
import { loadWorld } from '../../sim/worlds.js';
import { REACH_FIRST_SEED, runReachTrial, SkillStore, type ReachVerdict } from '../../skills/index.js';
import { resolveCriticSpec } from '../../zinfra/runtime/open-critic.js';
import { printJsonLine, UsageError, type Command } from '../command.js';
import { baseCritic, criticAloneCap } from '../flags/evolution.js';
import { text } from '../flags/flag.js';
import { policy } from '../flags/governance.js';
import { flagHelp, printHelp } from '../flags/help.js';
import { world, worldTaskIds } from '../flags/scene.js';
import { existingDb } from '../flags/skills.js';
import { envsPerWorker, episodes, executeSteps, json, out, seed, tasks, workers } from '../flags/table.js';
import { progress } from '../progress.js';
import { readArgs } from './skills-args.js';

const FLAGS = {
  db: existingDb,
  world,
  tasks: tasks.with({ help: "the tasks to try it on (default every task of the world but its campaign's)" }),
  perturbs: text('perturbs', {
    metavar: 'a,b',
    help: `perturbations, shipped names or files (default ${PERTURBED_CONDITIONS.join(', ')}; other worlds: nominal)`,
  }),
  episodes: episodes.default(4),
  seed: seed.with({ help: 'first seed; episode i uses S + i' }).default(REACH_FIRST_SEED, `${REACH_FIRST_SEED}, development seeds`),
  policy,
  critic: baseCritic.with({ help: 'the base bundle it is tried on: default, none (the empty bundle) or a directory' }),
  criticAloneCap: criticAloneCap.with({ help: 'the highest success (0..1) the critic-alone arm may reach with the skill' }),
  workers: workers.default(2),
  envsPerWorker: envsPerWorker.default(4),
  executeSteps: executeSteps.default(5),
  out: out.with({ help: 'where the composed bundle goes', defaultNote: 'runs/reach-<timestamp>' }),
  json: json.with({ help: 'last line: {"skill", "verdicts": [{"task", "loads", "reason", "evidence"}]}' }),
};

const HELP = `usage: zetta skills reach ID [--db FILE] [--tasks a,b] [--perturbs a,b] [--episodes N] [--seed S]
                          [--policy SPEC] [--critic B] [--critic-alone-cap R] [--workers K] [--envs-per-worker E] [--json]

A reach trial: where does a skill help beyond the tasks its campaign ran on? The skill is composed
alone onto the base bundle and offered to each task whatever its family; the policy runs each task
with and without it at the same seeds under each perturbation, and the trivial policies run under it.
Per task it loads where it rescued more paired episodes than it broke and its critic-alone arm stayed
under the cap. The verdicts go into the store (append-only; the latest trial of a task decides) and
from then on outrank the skill's family guard on those tasks, both ways. The seeds are development
seeds: a trial chooses where a skill loads, and claims nothing about how much it helps there.

${flagHelp(FLAGS)}`;

export const skillsReachCommand: Command = {
  name: 'skills reach',
  summary: 'a reach trial: the tasks a skill helps on, recorded in the store',
  help: HELP,
  async run(argv) {
    const a = readArgs(argv, FLAGS, 'the skill ID');
    if (a === 'help') return printHelp(HELP);
    const { arg: id, flags: f } = a;
    const record = SkillStore.using(f.db, (s) => s.get(id), { create: false });
    if (record.state !== 'active') throw new UsageError(`skill ${record.id} is ${record.state}: only an active skill is tried`);
    const w = await loadWorld(f.world);
    const source = record.content.guard.tags.source_task;
    const taskIds = f.tasks
      ? worldTaskIds(w, f.tasks)
      : w
          .tasks()
          .map((t) => t.id)
          .filter((t) => t !== source);
    const names = f.perturbs ? f.perturbs.split(',').map((p) => p.trim()) : w.name === 'tabletop' ? [...PERTURBED_CONDITIONS] : ['nominal'];
    const conditions = names.map((name) => ({ name, perturbation: perturbationOf(name) }));
    const outDir = resolve(f.out ?? join('runs', `reach-${new Date().toISOString().replace(/[:.]/g, '-')}`));
    const base = resolveCriticSpec(f.critic) ?? { bundle: writeEmptyBundle(join(outDir, 'base')), privileged: true };
    let bar = progress('reach');
    let last = '';
    const verdicts = await runReachTrial(
      {
        db: f.db,
        skill: record.id,
        world: w,
        worldRef: f.world,
        base,
        tasks: taskIds,
        conditions,
        episodes: f.episodes,
        firstSeed: f.seed,
        policy: f.policy,
        executeSteps: f.executeSteps,
        dir: join(outDir, 'skills'),
        criticAloneCap: f.criticAloneCap,
      },
      {
        workers: f.workers,
        envsPerWorker: f.envsPerWorker,
        onProgress: (what, done, total) => {
          if (what !== last) {
            bar.done();
            bar = progress(what);
            last = what;
          }
          bar.update(done, total);
        },
      },
    );
    bar.done();
    SkillStore.using(f.db, (s) =>
      s.recordReach(record.id, verdicts, { actor: 'zetta skills reach', reason: `reach trial at seeds ${f.seed}+` }),
    );
    process.stdout.write(`${formatReach(record.id, verdicts)}\n`);
    if (f.json) printJsonLine({ skill: record.id, verdicts });
    return 0;
  },
};

function perturbationOf(name: string) {
  if (name === 'nominal') return undefined;
  try {
    return resolvePerturbation(name);
  } catch (err) {
    throw new UsageError(`--perturbs: ${(err as Error).message}`);
  }
}

export function formatReach(id: string, verdicts: readonly ReachVerdict[]): string {
  const loads = verdicts.filter((v) => v.loads).length;
  return [
    `skill ${id}: loads on ${loads} of ${verdicts.length} tasks tried`,
    '',
    '| task | loads | both, without → with | rescued | broken | critic alone |',
    '|---|---|---|---|---|---|',
    ...verdicts.map(
      (v) =>
        `| ${v.task} | ${v.loads ? 'yes' : 'no'} | ${v.evidence.without} → ${v.evidence.with} of ${v.evidence.episodes} | ${v.evidence.b} | ${v.evidence.c} | ${(100 * v.evidence.critic_alone).toFixed(0)}% |`,
    ),
  ].join('\n');
}
