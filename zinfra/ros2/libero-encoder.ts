// The observation an openpi LIBERO policy (π0, π0.5 behind `serve_policy.py`) reads: the 8-D robot
// state under `observation/state` and the instruction under `prompt`; the node adds the cameras
// under their configured keys (`observation/image`, `observation/wrist_image`, 224×224 rgb8). For a
// policy that knows no task catalog, unlike the embedded one.
import type { Observation as EnvObservation } from '../../sim/env.js';
import type { PolicyEncoder } from '../../sim/world.js';
import type { Observation } from '../../protocol/ndarray.js';

export function liberoEncoder(): PolicyEncoder {
  const state = new Float32Array(8);
  const out: Record<string, unknown> = { 'observation/state': { dtype: '<f4', shape: [8], data: state }, prompt: '' };
  return {
    encode(obs: EnvObservation): Observation {
      state.set(obs.state);
      out.prompt = obs.prompt;
      return out as Observation;
    },
  };
}
