// Test doubles for the control loop with a critic: policies that peek at the simulator (as the
// scripted expert does) and fail in the ways a learned policy does under perturbations.
import { ScriptedExpert, type Perturbation, type TabletopEnv } from '../../sim/tabletop/index.js';
import type { Policy, PolicyMetadata, PolicyResult } from '../../zinfra/policy/policy.js';
import { f32, type Observation } from '../../protocol/ndarray.js';

const META: PolicyMetadata = { policyId: 'test', modelVersion: '1', actionHorizon: 1, actionDim: 7, observationKeys: [] };

/** The expert's actions for (task, seed) on the nominal scene, recorded once. */
export async function expertScript(env: TabletopEnv, task: string, seed: number, perturbation?: Perturbation): Promise<Float32Array[]> {
  await env.reset({ task, seed, ...(perturbation ? { perturbation } : {}) });
  const expert = ScriptedExpert.forEpisode(env.current);
  const actions: Float32Array[] = [];
  for (let t = 0; t < env.spec().maxSteps; t++) {
    const a = Float32Array.from(expert.act());
    actions.push(a);
    if ((await env.step(a)).done) break;
  }
  return actions;
}

/**
 * Replays a recorded script open loop, one action per call, whatever it observes: it does well on
 * the scene it was recorded on and fails when something moves (a disturbance), as a policy that
 * does not react to what it sees would. After the script, it holds with the last gripper command.
 * `calls` lists the env step at which each chunk was asked for.
 */
export class ReplayPolicy implements Policy {
  readonly calls: number[] = [];
  private i = 0;
  constructor(
    private readonly script: readonly Float32Array[],
    private readonly env?: TabletopEnv,
    private readonly horizon = 1,
  ) {}
  async metadata(): Promise<PolicyMetadata> {
    return { ...META, actionHorizon: this.horizon };
  }
  async infer(batch: readonly Observation[]): Promise<PolicyResult[]> {
    if (this.env) this.calls.push(this.env.observe().t);
    const chunk = new Float32Array(this.horizon * 7);
    for (let h = 0; h < this.horizon; h++) chunk.set(this.at(this.i + h), h * 7);
    this.i++; // one step per call: with k = 1 the script advances with the executed actions
    return batch.map(() => ({ actions: f32([this.horizon, 7], chunk), policyTiming: {} }));
  }
  async close(): Promise<void> {}
  private at(i: number): Float32Array {
    if (i < this.script.length) return this.script[i]!;
    const last = this.script[this.script.length - 1]!;
    return Float32Array.from([0, 0, 0, 0, 0, 0, last[6]!]);
  }
}

/** Always proposes the same action (e.g. NaN, or a push out of the workspace). */
export class ConstantPolicy implements Policy {
  constructor(private readonly action: readonly number[]) {}
  async metadata(): Promise<PolicyMetadata> {
    return META;
  }
  async infer(batch: readonly Observation[]): Promise<PolicyResult[]> {
    return batch.map(() => ({ actions: f32([1, 7], Float32Array.from(this.action)), policyTiming: {} }));
  }
  async close(): Promise<void> {}
}
