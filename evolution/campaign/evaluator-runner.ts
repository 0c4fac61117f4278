// The rollout runner campaigns use: zinfra's evaluator (in this thread, or worker threads with a
// batching policy server), with the candidate's bundle as the runtime critic.
import { evaluate, type EpisodeExecutor } from '../../measure/evaluation.js';
import type { WorldRef } from '../../sim/worlds.js';
import { resolveCriticSpec } from '../../zinfra/runtime/open-critic.js';
import type { RolloutRunner } from './rollouts.js';

export interface EvaluatorRunnerOptions {
  /** The world episodes run in (default: the embedded tabletop). */
  readonly world?: WorldRef;
  /** A `--policy` spec (embedded, onnx:FILE, zmq://…). */
  readonly policy: string;
  readonly executeSteps: number;
  readonly workers: number;
  readonly envsPerWorker: number;
  /** Runs the episodes elsewhere (the Redis job queue of zinfra/queue) instead of in this process. */
  readonly executor?: EpisodeExecutor | undefined;
}

export function evaluatorRunner(o: EvaluatorRunnerOptions): RolloutRunner {
  return {
    policyLabel: o.policy,
    async run(req, onEpisode) {
      const seeds = [...req.seeds].sort((a, b) => a - b);
      if (seeds.some((s, i) => s !== seeds[0]! + i))
        throw new Error('evaluatorRunner: seeds must be contiguous (the evaluator runs first + i)');
      await evaluate(
        {
          world: o.world,
          tasks: [req.task],
          episodesPerTask: seeds.length,
          firstSeed: seeds[0]!,
          perturbation: req.perturbation,
          policy: req.policy ?? o.policy,
          executeSteps: o.executeSteps,
          recordDir: req.record === false ? undefined : req.recordDir,
          // a simulated world's features are the critic's only; openCritic drops the authorization for a world that withholds it
          critic: req.bundleDir === null ? undefined : resolveCriticSpec(req.bundleDir, true),
        },
        { workers: o.workers, envsPerWorker: o.envsPerWorker, executor: o.executor, onEpisode: (outcome) => onEpisode(outcome) },
      );
    },
  };
}
