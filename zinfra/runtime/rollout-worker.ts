// A worker thread of the rollout runtime: several simulators stepping concurrently (while one waits
// for its chunk, the others step), one policy connection shared by all, episodes taken from the
// dispatcher one at a time per simulator. The critic bundle is loaded here from its path.
import { parentPort, workerData } from 'node:worker_threads';
import { createEnv } from '../../sim/index.js';
import { openPolicy } from '../policy/open-policy.js';
import { runJob, type EvaluationPlan } from './evaluation.js';
import { openCritic } from './open-critic.js';
import type { FromWorker, ToWorker } from './rollout.js';

const { plan, envs: count } = workerData as { plan: EvaluationPlan; envs: number };
const port = parentPort!;
const policy = await openPolicy(plan.policy);
const envs = await Promise.all(Array.from({ length: count }, () => createEnv()));
// One critic per simulator: a critic carries its episode's windows and recovery state.
const critics = envs.map(() => openCritic(plan.critic));
const send = (m: FromWorker) => port.postMessage(m);

port.on('message', (m: ToWorker) => {
  if ('shutdown' in m) {
    void shutdown();
    return;
  }
  const { job, slot } = m;
  void runJob(envs[slot]!, policy, critics[slot], plan, job).then((outcome) => send({ outcome, slot, index: job.index }));
});
for (let slot = 0; slot < count; slot++) send({ want: slot });

async function shutdown(): Promise<void> {
  await policy.close();
  for (const env of envs) await env.close();
  port.close();
}
