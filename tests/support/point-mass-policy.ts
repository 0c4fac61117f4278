// A reaching policy for the point-mass world as a real ONNX model: a proportional controller toward
// the perceived goal (observation/goal), written as a two-layer MLP (ReLU splits each axis into its
// two signs). It drives straight at the goal, so a wall between start and goal stops it.
import { writeMlpOnnx, type MlpWeights } from '../../models/build/mlp-onnx.js';
import { POINT_MASS_POLICY_KEY } from '../../sim/point-mass/point-mass-world.js';

const HORIZON = 10;
const ACTION_DIM = 7;
/** Normalized action per metre of error (1 = 5 cm per step): full speed beyond 25 cm. */
const GAIN = 4;

export function writeReachPolicy(path: string): string {
  const w1 = Float32Array.of(1, -1, 0, 0, 0, 0, 1, -1); // row i = input i: [dx, −dx, dy, −dy]
  const w2 = new Float32Array(4 * HORIZON * ACTION_DIM);
  const b2 = new Float32Array(HORIZON * ACTION_DIM);
  for (let h = 0; h < HORIZON; h++) {
    const o = h * ACTION_DIM;
    w2[0 * HORIZON * ACTION_DIM + o] = GAIN;
    w2[1 * HORIZON * ACTION_DIM + o] = -GAIN;
    w2[2 * HORIZON * ACTION_DIM + o + 1] = GAIN;
    w2[3 * HORIZON * ACTION_DIM + o + 1] = -GAIN;
    b2[o + 6] = -1;
  }
  const weights: MlpWeights = {
    layers: [
      { inDim: 2, outDim: 4, w: w1, b: new Float32Array(4) },
      { inDim: 4, outDim: HORIZON * ACTION_DIM, w: w2, b: b2 },
    ],
    horizon: HORIZON,
    actionDim: ACTION_DIM,
  };
  writeMlpOnnx(path, weights, { inputName: POINT_MASS_POLICY_KEY, policyId: 'point-mass-reach' });
  return path;
}
