// A worker thread of the rollout runtime: several simulators stepping concurrently (while one waits
// for its chunk, the others step), one policy connection shared by all, episodes taken from the
// dispatcher one at a time per simulator.
import { parentPort, workerData } from 'node:worker_threads';
import { createEnv } from '../../sim/index.js';
import { openPolicy } from '../policy/open-policy.js';
import { recordPathFor, type EvaluationPlan } from './evaluation.js';
import type { FromWorker, ToWorker } from './rollout.js';
import { runEpisode } from './run-episode.js';

const { plan, envs: count } = workerData as { plan: EvaluationPlan; envs: number };
const port = parentPort!;
const policy = await openPolicy(plan.policy);
const envs = await Promise.all(Array.from({ length: count }, () => createEnv()));
const send = (m: FromWorker) => port.postMessage(m);

port.on('message', (m: ToWorker) => {
  if ('shutdown' in m) {
    void shutdown();
    return;
  }
  const { job, slot } = m;
  void runEpisode(envs[slot]!, policy, { task: job.task, seed: job.seed, perturbation: plan.perturbation }, {
    executeSteps: plan.executeSteps,
    recordPath: recordPathFor(plan, job),
    policyLabel: plan.policy,
  }).then((outcome) => send({ outcome, slot, index: job.index }));
});
for (let slot = 0; slot < count; slot++) send({ want: slot });

async function shutdown(): Promise<void> {
  await policy.close();
  for (const env of envs) await env.close();
  port.close();
}
