// `zetta evolve`: one evolution campaign on the embedded suite (flags → evolution/runCampaign).
import { resolve } from 'node:path';
import {
  DEFAULT_GATES, builtinDiagnoser, evaluatorRunner, llmDiagnoser, llmSettingsFromEnv, parseSeedList, runCampaign,
  type Diagnoser,
} from '../../evolution/index.js';
import { getTask, resolvePerturbation } from '../../sim/index.js';
import { EMBEDDED_POLICY_PATH, POLICY_SPEC_HELP } from '../../zinfra/policy/open-policy.js';
import { intFlag, fractionFlag, parseFlags, printJsonLine, UsageError, type Command } from '../command.js';

const HELP = `usage: zetta evolve --suite S --task T --root DIR [--perturb FILE|NAME] [--dev-episodes 50]
                    [--heldout-seeds 1000-1019] [--confirm-seeds 2000-2019] [--generations 3] [--diagnoser builtin|llm]
                    [--policy SPEC] [--critic default|none|DIR] [--max-candidates 3] [--max-extra-safety-events 0] [--critic-alone-cap 0.1]
                    [--workers K] [--envs-per-worker E] [--execute-steps k] [--json]

Runs an evolution campaign: development rollouts, failure clustering, diagnosis, candidate bundles
(rules + recovery programs) fitted by shadow replay, then the paired, regression, critic-alone (the
candidate with trivial policies must stay under a cap) and held-out gates (one-sided exact McNemar at
α over the generations). A promoted bundle is finally compared with the base on fresh confirmation
seeds that chose nothing: that p-value is the campaign's claim. The policy is never changed.
Everything lives under DIR: the frozen manifest, the seed preregistration, every artifact with its
sha256, the promoted bundle and report.html. Run the same command again to resume a campaign that was interrupted.

  --suite S             the task's suite (spatial | object | goal | long)
  --task T              the task id (zetta sim tasks)
  --root DIR            the campaign's directory (created; reused to resume)
  --perturb FILE|NAME   a perturbation file or a shipped one; default nominal
  --dev-episodes N      development episodes per generation (default 50)
  --heldout-seeds LIST  held-out seeds, e.g. 1000-1019 or 1000,1004,1009-1012 (default 1000-1019: scenes the base
                        policy never trained on); never used for development
  --confirm-seeds LIST  fresh seeds for the final base-vs-promoted comparison (default 2000-2019; none: skip)
  --generations G       at most G generations (default 3)
  --diagnoser D         builtin (default) | llm (ZETTA_LLM_BASE_URL, ZETTA_LLM_MODEL, ZETTA_LLM_API_KEY)
  --policy SPEC         ${POLICY_SPEC_HELP} (default embedded)
  --critic B            the bundle generation 1 starts from (default: the shipped default bundle)
  --max-candidates N    candidates that may run development rollouts per generation (default 3)
  --max-extra-safety-events N
                        safety events (safety-rule firings, aborts, workspace stops) a candidate may add
                        over its parent in the regression and held-out gates (default 0)
  --critic-alone-cap R  highest success (0..1) the candidate may reach with null:open, null:closed or
                        null:random:0 on the development seeds (default 0.1)
  --workers K           rollout worker threads (default 1; results are identical for any K)
  --envs-per-worker E   simulators per worker (default 1)
  --execute-steps k     actions executed per chunk before replanning (default 5)
  --json                last line: {"campaign_id", "promoted", "bundle_sha256", "heldout": {"parent_success",
                        "candidate_success", "episodes", "p_value"}, "confirmation": {same fields} | null,
                        "generations", "decisions", "report"}`;

export const evolveCommand: Command = {
  name: 'evolve',
  summary: 'an evolution campaign: cluster failures, diagnose, synthesize and gate a critic bundle',
  help: HELP,
  async run(argv) {
    const { values: v } = parseFlags(argv, {
      suite: { type: 'string' }, task: { type: 'string' }, root: { type: 'string' }, perturb: { type: 'string' },
      'dev-episodes': { type: 'string' }, 'heldout-seeds': { type: 'string' }, 'confirm-seeds': { type: 'string' }, 'critic-alone-cap': { type: 'string' }, generations: { type: 'string' },
      diagnoser: { type: 'string', default: 'builtin' }, policy: { type: 'string', default: 'embedded' }, critic: { type: 'string', default: 'default' },
      'max-candidates': { type: 'string' }, 'max-extra-safety-events': { type: 'string' }, workers: { type: 'string' }, 'envs-per-worker': { type: 'string' }, 'execute-steps': { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    if (!v.task || !v.suite || !v.root) throw new UsageError('--suite, --task and --root are required');
    const task = checkedTask(v.task, v.suite);
    const executeSteps = intFlag(v['execute-steps'], 'execute-steps', 5, 1);
    const summary = await runCampaign({
      root: resolve(v.root),
      suite: v.suite,
      task,
      perturbation: v.perturb ? { name: v.perturb, spec: usage(() => resolvePerturbation(v.perturb!)) } : null,
      policy: { spec: v.policy!, file: policyFile(v.policy!) },
      baseBundle: v.critic!,
      heldout: usage(() => parseSeedList(v['heldout-seeds'] ?? '1000-1019')),
      confirmation: v['confirm-seeds'] === 'none' ? [] : usage(() => parseSeedList(v['confirm-seeds'] ?? '2000-2019')),
      devEpisodes: intFlag(v['dev-episodes'], 'dev-episodes', 50, 1),
      generations: intFlag(v.generations, 'generations', 3, 1),
      gates: {
        ...DEFAULT_GATES,
        max_candidates: intFlag(v['max-candidates'], 'max-candidates', DEFAULT_GATES.max_candidates, 1),
        max_extra_safety_events: intFlag(v['max-extra-safety-events'], 'max-extra-safety-events', DEFAULT_GATES.max_extra_safety_events, 0),
        critic_alone_cap: fractionFlag(v['critic-alone-cap'], 'critic-alone-cap', DEFAULT_GATES.critic_alone_cap),
      },
      executeSteps,
      runner: evaluatorRunner({
        policy: v.policy!, executeSteps,
        workers: intFlag(v.workers, 'workers', 1, 1), envsPerWorker: intFlag(v['envs-per-worker'], 'envs-per-worker', 1, 1),
      }),
      diagnoser: diagnoser(v.diagnoser!),
      log: (line) => process.stderr.write(`evolve: ${line}\n`),
    });
    process.stderr.write(`evolve: report in ${summary.report}\n`);
    if (v.json) printJsonLine(summary);
    else {
      const c = summary.confirmation;
      const confirmed = c ? `; confirmation ${c.parent_success} → ${c.candidate_success} of ${c.episodes}, p = ${c.p_value.toPrecision(3)}` : '';
      process.stdout.write(`${summary.promoted ? `promoted ${summary.bundle_sha256?.slice(0, 12)} (${summary.bundle_dir})` : 'nothing promoted'}; held-out ${summary.heldout.parent_success} → ${summary.heldout.candidate_success ?? '-'} of ${summary.heldout.episodes}${confirmed}\n`);
    }
    return 0;
  },
};

function checkedTask(id: string, suite: string): string {
  const task = usage(() => getTask(id));
  if (task.suite !== suite) throw new UsageError(`task ${id} is in suite ${task.suite}, not ${suite}`);
  return task.id;
}

function diagnoser(kind: string): Diagnoser {
  if (kind === 'builtin') return builtinDiagnoser();
  if (kind === 'llm') return llmDiagnoser(usage(() => llmSettingsFromEnv()));
  throw new UsageError(`--diagnoser must be builtin or llm, got "${kind}"`);
}

/** The local file behind a policy spec (hashed into the manifest), or null for a remote policy. */
function policyFile(spec: string): string | null {
  if (spec === 'embedded') return EMBEDDED_POLICY_PATH;
  if (spec.startsWith('onnx:')) return resolve(spec.slice(5));
  return spec.endsWith('.onnx') ? resolve(spec) : null;
}

function usage<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}
