// The reset digest: sha256 over the scene's MJCF, the initial physics state (bit-exact) and every
// sampled parameter. Two episodes with the same digest start from the same world.
import { createHash } from 'node:crypto';
import type { EpisodePlan } from './plan.js';

export function resetDigest(plan: EpisodePlan, xml: string, qpos: Float64Array, qvel: Float64Array): string {
  const h = createHash('sha256');
  h.update(JSON.stringify({ task: plan.task.id, seed: plan.seed, sampled: plan.sampled, swapped: plan.swapped }));
  h.update('\u0000');
  h.update(xml);
  h.update('\u0000');
  h.update(new Uint8Array(qpos.buffer, qpos.byteOffset, qpos.byteLength));
  h.update(new Uint8Array(qvel.buffer, qvel.byteOffset, qvel.byteLength));
  return h.digest('hex');
}
