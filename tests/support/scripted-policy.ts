// A Policy test double whose behaviour each test scripts: it computes actions from the state, and can
// be told to return NaN, throw, or take a while. Its calls are recorded for assertions.
import { f32, type NdArray, type Observation } from '../../protocol/ndarray.js';
import type { Policy, PolicyMetadata, PolicyResult } from '../../zinfra/policy/policy.js';

export const HORIZON = 10;
export const ACTION_DIM = 7;

export interface Script {
  delayMs?: number;
  nan?: boolean;
  throwMessage?: string;
}

export class ScriptedPolicy implements Policy {
  script: Script = {};
  readonly batchSizes: number[] = [];

  async metadata(): Promise<PolicyMetadata> {
    return {
      policyId: 'scripted',
      modelVersion: 'v1',
      actionHorizon: HORIZON,
      actionDim: ACTION_DIM,
      observationKeys: ['observation/state'],
    };
  }

  async infer(batch: readonly Observation[]): Promise<PolicyResult[]> {
    this.batchSizes.push(batch.length);
    if (this.script.delayMs) await new Promise((r) => setTimeout(r, this.script.delayMs));
    if (this.script.throwMessage) throw new Error(this.script.throwMessage);
    return batch.map((obs) => ({ actions: expectedActions(obs, this.script.nan), policyTiming: { infer_ms: 0 } }));
  }

  async close(): Promise<void> {}
}

/** actions[h][d] = state[d % 8] * (h + 1): a wrong decode of the state shows in the result. */
export function expectedActions(obs: Observation, nan = false): NdArray<'<f4'> {
  const state = (obs['observation/state'] as NdArray<'<f4'>).data;
  const out = new Float32Array(HORIZON * ACTION_DIM);
  for (let h = 0; h < HORIZON; h++) for (let d = 0; d < ACTION_DIM; d++) out[h * ACTION_DIM + d] = state[d % state.length]! * (h + 1);
  if (nan) out[3] = Number.NaN;
  return f32([HORIZON, ACTION_DIM], out);
}

export function stateObservation(values: number[]): Observation {
  return { 'observation/state': f32([values.length], Float32Array.from(values)), prompt: 'pick up the cube' };
}
