// The MLP (8 → 256 → 256 → 10×7, seeded random weights) that the wire check and the benchmarks
// serve, written as ONNX for Node and as .npz for the Python shim, and the model a benchmark drives
// the suite with: the embedded base policy when this checkout has it, else that untrained MLP.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { randomMlp, writeMlpNpz, writeMlpOnnx } from '../models/build/mlp-onnx.js';
import { EMBEDDED_POLICY_PATH } from '../zinfra/policy/open-policy.js';

const STATE_KEY = 'observation/state';

export interface DemoMlpFiles {
  readonly onnx: string;
  /** Written only when asked for. */
  readonly npz: string | undefined;
}

export function writeDemoMlp(dir: string, o: { readonly seed: number; readonly policyId: string; readonly npz?: boolean }): DemoMlpFiles {
  const weights = randomMlp({ inputDim: 8, hidden: [256, 256], horizon: 10, actionDim: 7, seed: o.seed });
  const onnx = join(dir, `${o.policyId}.onnx`);
  writeMlpOnnx(onnx, weights, { inputName: STATE_KEY, policyId: o.policyId });
  const npz = o.npz ? join(dir, `${o.policyId}.npz`) : undefined;
  if (npz) writeMlpNpz(npz, weights, STATE_KEY);
  return { onnx, npz };
}

export function benchPolicyModel(dir: string): { path: string; label: string } {
  if (existsSync(EMBEDDED_POLICY_PATH)) return { path: EMBEDDED_POLICY_PATH, label: 'embedded' };
  return { path: writeDemoMlp(dir, { seed: 1, policyId: 'untrained-mlp' }).onnx, label: 'untrained-mlp' };
}
