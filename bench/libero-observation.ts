// A LIBERO-sized policy observation: two 224×224×3 uint8 images, an 8-float state and a prompt,
// as openpi's LIBERO client sends them. Deterministic from the seed.
import { encodeMessage } from '../protocol/messages.js';
import { f32, u8, type Observation } from '../protocol/ndarray.js';

export function liberoObservation(seed = 1): Observation {
  const image = new Uint8Array(224 * 224 * 3);
  for (let i = 0; i < image.length; i++) image[i] = (i * 31 + seed) & 0xff;
  const wrist = image.slice().reverse();
  const state = Float32Array.from({ length: 8 }, (_, i) => Math.sin(i + seed) * 0.3);
  return {
    'observation/image': u8([224, 224, 3], image),
    'observation/wrist_image': u8([224, 224, 3], wrist),
    'observation/state': f32([8], state),
    prompt: 'put the red cube in the bowl',
  };
}

/** The infer request a benchmark client sends for `obs`, as bytes on the wire. */
export function encodeBenchRequest(obs: Observation): Buffer {
  return encodeMessage({ type: 'infer', id: 1, session_id: 'bench', episode_id: 'bench', step: 0, deadline_ms: 5000, obs });
}
