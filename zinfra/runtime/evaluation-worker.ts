// A worker thread of an evaluation: one simulator and one policy connection, episodes handed in one
// at a time by evaluation.ts, outcomes posted back.
import { parentPort, workerData } from 'node:worker_threads';
import { createEnv } from '../../sim/index.js';
import { openPolicy } from '../policy/open-policy.js';
import { recordPathFor, type EpisodeJob, type EvaluationPlan } from './evaluation.js';
import { runEpisode } from './run-episode.js';

const plan = workerData as EvaluationPlan;
const port = parentPort!;
const env = await createEnv();
const policy = await openPolicy(plan.policy);

port.on('message', (job: EpisodeJob) => {
  void runEpisode(env, policy, { task: job.task, seed: job.seed, perturbation: plan.perturbation }, {
    executeSteps: plan.executeSteps,
    recordPath: recordPathFor(plan, job),
    policyLabel: plan.policy,
  }).then((outcome) => port.postMessage({ outcome }));
});
port.postMessage({ ready: true });
