// A policy test double: constant chunks of one action, answered at once, never (hang), or with an
// error (a lost server), switchable mid-run.
import { PolicyUnavailable } from '../../../zinfra/policy/errors.js';
import type { Policy, PolicyMetadata, PolicyResult } from '../../../zinfra/policy/policy.js';
import type { Observation } from '../../../protocol/ndarray.js';

export type ScriptedMode = 'answer' | 'hang' | 'fail';

export class ScriptedPolicy implements Policy {
  mode: ScriptedMode = 'answer';
  calls = 0;
  /** The keys of the last observation asked about, and the observation itself. */
  lastKeys: string[] = [];
  last: Observation | undefined;
  private readonly chunk: Float32Array;

  constructor(
    action: readonly number[],
    private readonly horizon = 10,
  ) {
    this.chunk = new Float32Array(horizon * 7);
    for (let h = 0; h < horizon; h++) this.chunk.set(action, h * 7);
  }

  async metadata(): Promise<PolicyMetadata> {
    return { policyId: 'scripted', modelVersion: '1', actionHorizon: this.horizon, actionDim: 7, observationKeys: [] };
  }

  infer(batch: readonly Observation[]): Promise<PolicyResult[]> {
    this.calls++;
    this.lastKeys = Object.keys(batch[0] ?? {});
    this.last = batch[0];
    if (this.mode === 'hang') return new Promise(() => undefined);
    if (this.mode === 'fail') return Promise.reject(new PolicyUnavailable('scripted policy server is down'));
    return Promise.resolve(
      batch.map(() => ({ actions: { dtype: '<f4' as const, shape: [this.horizon, 7], data: this.chunk.slice() }, policyTiming: {} })),
    );
  }

  async close(): Promise<void> {}
}
