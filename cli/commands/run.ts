// `zetta run`: the main job on the embedded default. Thin: flags in, the run experiment
// (experiments/run) does the work, the terminal shows it (cli/run).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FULL_RUN, QUICK_RUN, headline, runExperiment, type RunReport, type RunSettings } from '../../experiments/run/index.js';
import { requireSkillStore } from '../../skills/active-skills.js';
import { printJsonLine, UsageError, type Command } from '../command.js';
import { flagHelp, printHelp } from '../flags/help.js';
import { openQueueFlag, queue, recordings, withQueueErrors } from '../flags/queue.js';
import { readFlags } from '../flags/read.js';
import { skills } from '../flags/governance.js';
import { autoApprove, resume, skillsDb } from '../flags/skills.js';
import {
  campaigns,
  devEpisodes,
  envsPerWorker,
  episodes,
  expertEpisodes,
  fromScratch,
  generations,
  json,
  out,
  quick,
  tasksPerCampaign,
  wireRequests,
  workers,
} from '../flags/table.js';
import { runSummaryLines } from '../run/summary.js';
import { closingLines, terminalObserver } from '../run/terminal.js';

/** A count left out takes the full run's value, or the quick run's with --quick. */
const full = (key: keyof RunSettings) => ({ defaultNote: String(FULL_RUN[key]) });

const FLAGS = {
  out: out.with({ help: "where the run's artifacts go", defaultNote: 'runs/<timestamp>' }),
  episodes: episodes.with({ help: 'baseline episodes per task and condition', ...full('episodes') }),
  expertEpisodes: expertEpisodes.with(full('expertEpisodes')),
  wireRequests: wireRequests.with(full('wireRequests')),
  campaigns: campaigns.with({ help: 'evolution campaigns at most, on the weakest tasks', ...full('campaigns') }),
  tasksPerCampaign: tasksPerCampaign.with({ defaultNote: '1' }),
  devEpisodes: devEpisodes.with({ help: "each campaign's development episodes per generation", ...full('devEpisodes') }),
  generations: generations.with({ help: "each campaign's generations at most", ...full('generations') }),
  workers: workers.with(full('workers')),
  envsPerWorker: envsPerWorker.with({ help: 'simulators per worker', ...full('envsPerWorker') }),
  skills: skills.with({
    help: 'active: the governance arms and the campaigns run the default critic composed\nwith every active skill of --skills-db whose guard holds for the task',
  }),
  skillsDb: skillsDb.with({
    help: "the skill store: each campaign's promotion goes in as a pending skill; the\nfinal system (and --skills active) loads its active skills",
  }),
  autoApprove,
  fromScratch,
  resume,
  quick,
  queue,
  recordings,
  json: json.with({
    help: 'last line of stdout: {"baseline_macro", "critic_alone_macro", "critic_macro",\n"final_macro", "synergy", "transfer", "policy_action_share", "report", "ok", ...}',
  }),
};

const HELP = `usage: zetta run [--out DIR] [--episodes N] [--expert-episodes N] [--wire-requests N]
                 [--campaigns N] [--tasks-per-campaign K] [--dev-episodes N] [--generations G] [--workers K] [--envs-per-worker E]
                 [--skills none|active] [--skills-db FILE] [--auto-approve] [--from-scratch] [--quick]
                 [--queue redis://HOST:PORT] [--json]
       zetta run --resume DIR [--auto-approve] [--json]

The main job on the embedded default, end to end, on a CPU:
  1. wire      one policy served by the Node ONNX server and by the Python shim over real ZeroMQ
               sockets; the same LIBERO-sized observations through both; their chunks must agree
  2. expert    the scripted expert on every task: the upper bound
  3. baseline  the frozen embedded base policy alone on every task, nominal (held-out seeds from 1000)
  4. governance under the position-shift, object-change, disturbance and sensor-noise-delay
               perturbations, at the same seeds: the policy alone, the default (observable) critic
               alone with each trivial policy (null:open, null:closed, null:random:0), and both;
               synergy = both − max(policy alone, critic alone), with paired bootstrap intervals
  5. evolution a campaign on each of the --campaigns tasks where policy + critic does worst (under the
               task's weakest perturbation; side by side where the cores allow more than one
               rollout pool, or with --queue): cluster its failures, diagnose, synthesize and gate
               a bundle (critic-alone cap, held-out seeds 1000-1039 at α over every held-out
               test it may spend), then confirm on fresh seeds 2000-2019; with --tasks-per-campaign K
               a campaign also covers the next K − 1 weakest tasks under its perturbation
  6. promotion each promoted bundle becomes a pending skill in --skills-db; with --auto-approve the
               operator \`auto\` approves them, otherwise the run stops and says how to decide
               (zetta console) and go on (zetta run --resume DIR)
  7. reach     each skill the run approved, alone on the final system's base, tried on every other
               task under each perturbation at paired development seeds (from 150000; 4 a task
               and perturbation, 2 with --quick): it loads where it rescued more than it broke,
               its critic alone under the cap (zetta skills reach); a lag answer loads everywhere
  8. final     on fresh seeds that chose nothing in the run (from 3000: above the governance,
               held-out and confirmation seeds), the governance arms twice: the default critic, and
               the final system with every active skill of the store composed onto it where its
               guard (or its reach trial) holds; zero-shot transfer on the tasks no campaign ran on, paired by seed
With --from-scratch the campaigns start from the empty bundle where the policy alone does worst, the
perturbations taking turns (weakest first, each on its weakest task no campaign has yet; a task the
policy solved neither in governance nor in a generation's development episodes, run first as a probe,
goes last: the search has no success to contrast its failures with); the final
system is only what they promoted (its store is DIR/skills.db, so nothing evolved before enters),
and the final stage sets its arms beside the hand-written default's at the same fresh seeds.
Writes DIR/report.json (stage by stage), DIR/report.md, DIR/report.html (self-contained, with plots)
and every episode as MCAP under DIR/episodes.

${flagHelp(FLAGS)}`;

export const runCommand: Command = withQueueErrors({
  name: 'run',
  summary: 'run the main job on the embedded default, end to end, with a report',
  help: HELP,
  async run(argv) {
    const f = readFlags(argv, FLAGS);
    if (f === 'help') return printHelp(HELP);
    const previous = f.resume === undefined ? undefined : resumedReport(resolve(f.resume), argv);
    if (previous?.settings.fromScratch ?? f.fromScratch) refuseHandWritten(argv, f.skills);
    const base = previous?.settings ?? (f.quick ? QUICK_RUN : FULL_RUN);
    const settings: RunSettings = previous?.settings ?? {
      ...base,
      wireRequests: f.wireRequests ?? base.wireRequests,
      expertEpisodes: f.expertEpisodes ?? base.expertEpisodes,
      episodes: f.episodes ?? base.episodes,
      campaigns: f.campaigns ?? base.campaigns,
      tasksPerCampaign: f.tasksPerCampaign ?? base.tasksPerCampaign ?? 1,
      devEpisodes: f.devEpisodes ?? base.devEpisodes,
      generations: f.generations ?? base.generations,
      workers: f.workers ?? base.workers,
      envsPerWorker: f.envsPerWorker ?? base.envsPerWorker,
      fromScratch: f.fromScratch,
      // said now, not after the first stages
      skillsDb: f.skills === 'active' ? requireSkillStore(resolve(f.skillsDb)) : undefined,
    };
    const started = new Date();
    const dir = previous?.out ?? resolve(f.out ?? join('runs', started.toISOString().replace(/[:.]/g, '-')));
    const say = (line: string) => process.stderr.write(`${line}\n`);
    const options = {
      ...settings,
      out: dir,
      started,
      skillStore: settings.fromScratch ? join(dir, 'skills.db') : resolve(f.skillsDb),
      autoApprove: f.autoApprove || (previous?.settings?.autoApprove ?? false),
    };
    // the run's folder scopes the job ids: --resume DIR with the same --queue collects what finished
    const coordinator = await openQueueFlag(f.queue, dir, f.recordings, (line) => say(`queue: ${line}`));
    const { report, files } = await runExperiment(
      { ...options, executor: coordinator?.executor, ...(previous ? { resume: previous } : {}) },
      terminalObserver(say, settings.fromScratch === true),
    ).finally(() => coordinator?.close());
    for (const line of closingLines(report, files.html)) say(line);
    process.stdout.write(`${runSummaryLines(report, files.html).join('\n')}\n`);
    if (f.json)
      printJsonLine({ ...headline(report, files.html), ok: report.ok, awaiting: report.awaiting ?? null, report_json: files.json });
    return report.ok ? 0 : 1;
  },
});

/** The report of the run to resume; with --resume, only --auto-approve, --skills-db and --json may be given. */
function resumedReport(dir: string, argv: readonly string[]): RunReport & { settings: NonNullable<RunReport['settings']> } {
  const allowed = new Set(['--resume', '--auto-approve', '--skills-db', '--json']);
  const extra = argv.find((a) => a.startsWith('--') && !allowed.has(a.split('=')[0]!));
  if (extra)
    throw new UsageError(`${extra.split('=')[0]} cannot be changed with --resume: the run goes on with the settings it started with`);
  const path = join(dir, 'report.json');
  if (!existsSync(path))
    throw new UsageError(`--resume ${dir}: no report.json there (the folder of a run that stopped or was interrupted)`);
  const report = JSON.parse(readFileSync(path, 'utf8')) as RunReport;
  if (!report.settings)
    throw new UsageError(`--resume ${dir}: that run's report has no settings (it was made by an older zetta); run it again`);
  // a run from before several campaigns per run ran one
  return { ...report, settings: { ...report.settings, campaigns: report.settings.campaigns ?? 1 }, out: dir };
}

/** From scratch nothing evolved or written before may enter: not the active skills, not another store. */
function refuseHandWritten(argv: readonly string[], skillsMode: string | undefined): void {
  if (skillsMode === 'active')
    throw new UsageError('--from-scratch cannot take --skills active: the campaigns and the final system start from the empty bundle');
  if (argv.some((a) => a.split('=')[0] === '--skills-db'))
    throw new UsageError('--from-scratch keeps its skills in DIR/skills.db, a store of its own; leave out --skills-db');
}
