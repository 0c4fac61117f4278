// A worker thread of the rollout runtime: several simulators stepping concurrently (while one waits
// for its chunk, the others step), one policy connection shared by all, episodes taken from the
// dispatcher one at a time per simulator. The critic bundle is loaded here from its path.
import { parentPort, workerData } from 'node:worker_threads';
import { loadWorld } from '../../sim/worlds.js';
import { openPolicy } from '../policy/open-policy.js';
import { openSlot, runJob } from './episode-job.js';
import type { EvaluationPlan } from './evaluation-plan.js';
import type { FromWorker, ToWorker } from './rollout.js';

const { plan, envs: count } = workerData as { plan: EvaluationPlan; envs: number };
const port = parentPort!;
const policy = await openPolicy(plan.policy);
const world = await loadWorld(plan.world);
// One critic per simulator: a critic carries its episode's windows and recovery state.
const slots = await Promise.all(Array.from({ length: count }, () => openSlot(world, plan)));
const send = (m: FromWorker) => port.postMessage(m);

port.on('message', (m: ToWorker) => {
  if ('shutdown' in m) {
    void shutdown();
    return;
  }
  const { job, slot } = m;
  void runJob(slots[slot]!, policy, plan, job).then((outcome) => send({ outcome, slot, index: job.index }));
});
for (let slot = 0; slot < count; slot++) send({ want: slot });

async function shutdown(): Promise<void> {
  await policy.close();
  for (const s of slots) await s.env.close();
  port.close();
}
