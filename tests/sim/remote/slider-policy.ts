// A reaching policy for the test's slider server as a real ONNX model: a proportional controller on
// the perceived target offset (`observation/offset`), full speed beyond 12.5 cm, never raising the
// slider, so the bump stops it. Two layers: ReLU splits the offset into its two signs.
import { writeMlpOnnx } from '../../../models/build/mlp-onnx.js';

const HORIZON = 10;
const ACTION_DIM = 7;
const GAIN = 8;

export function writeSliderPolicy(path: string): string {
  const w2 = new Float32Array(2 * HORIZON * ACTION_DIM);
  const b2 = new Float32Array(HORIZON * ACTION_DIM);
  for (let h = 0; h < HORIZON; h++) {
    w2[h * ACTION_DIM] = GAIN; // +offset → +dx
    w2[HORIZON * ACTION_DIM + h * ACTION_DIM] = -GAIN; // −offset → −dx
    b2[h * ACTION_DIM + 6] = -1; // gripper open
  }
  writeMlpOnnx(
    path,
    {
      layers: [
        { inDim: 1, outDim: 2, w: Float32Array.of(1, -1), b: new Float32Array(2) },
        { inDim: 2, outDim: HORIZON * ACTION_DIM, w: w2, b: b2 },
      ],
      horizon: HORIZON,
      actionDim: ACTION_DIM,
    },
    { inputName: 'observation/offset', policyId: 'slider-reach' },
  );
  return path;
}
