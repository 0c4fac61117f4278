// Stage of the run experiment (`zetta run`): the policy wire, end to end. One set of MLP weights is
// served by the Node ONNX server and by the Python shim (numpy); the same observations go through
// both over real ZeroMQ sockets, and their action chunks must agree.
import { join } from 'node:path';
import { writeDemoMlp } from '../../bench/demo-mlp.js';
import { liberoObservation } from '../../bench/libero-observation.js';
import { summarize } from '../../measure/percentiles.js';
import { PolicyClient } from '../../zinfra/policy/zmq/client.js';
import { OnnxPolicy } from '../../zinfra/policy/onnx/onnx-policy.js';
import { startPythonPolicyServer } from '../../zinfra/policy/python-shim/python-server-process.js';
import { PolicyServer } from '../../zinfra/policy/zmq/server.js';
import type { Observation } from '../../protocol/ndarray.js';

export interface WireStageResult {
  policy: { policyId: string; modelVersion: string; actionHorizon: number; actionDim: number };
  node: { requests: number; p50_ms: number; p99_ms: number };
  python: { requests: number; p50_ms: number; p99_ms: number; max_abs_diff_vs_node: number } | { skipped: string };
  ok: boolean;
}

/** float32 numpy and onnxruntime sum in different orders; they agree to well within this. */
const AGREEMENT_TOLERANCE = 1e-4;

export async function runWireStage(
  dir: string,
  requests: number,
  onProgress: (done: number, total: number) => void,
): Promise<WireStageResult> {
  const { onnx: onnxPath, npz: npzPath } = writeDemoMlp(dir, { seed: 1, policyId: 'demo-mlp', npz: true });
  const observations = Array.from({ length: requests }, (_, i) => liberoObservation(i));

  const policy = await OnnxPolicy.load(onnxPath);
  const server = await PolicyServer.start(policy, { bind: 'tcp://127.0.0.1:0' });
  try {
    const meta = await policy.metadata();
    const node = await drive(server.endpoint, observations, (d) => onProgress(d, requests * 2));
    const python = await drivePython(npzPath!, dir, observations, node.chunks, (d) => onProgress(requests + d, requests * 2));
    const pythonOk = 'skipped' in python || python.max_abs_diff_vs_node <= AGREEMENT_TOLERANCE;
    return {
      policy: { policyId: meta.policyId, modelVersion: meta.modelVersion, actionHorizon: meta.actionHorizon, actionDim: meta.actionDim },
      node: node.stats,
      python,
      ok: pythonOk && node.stats.requests === requests,
    };
  } finally {
    await server.close();
    await policy.close();
  }
}

async function drive(endpoint: string, observations: Observation[], onProgress: (done: number) => void) {
  const client = await PolicyClient.connect({ endpoint, timeoutMs: 10_000 });
  const latencies: number[] = [];
  const chunks: Float32Array[] = [];
  try {
    for (const [step, obs] of observations.entries()) {
      const reply = await client.request(obs, { episodeId: 'wire-check', step, deadlineMs: 5000 });
      latencies.push(reply.roundTripMs);
      chunks.push(reply.actions.data);
      onProgress(step + 1);
    }
  } finally {
    await client.close();
  }
  const s = summarize(latencies);
  return { stats: { requests: latencies.length, p50_ms: s.p50, p99_ms: s.p99 }, chunks };
}

async function drivePython(
  npzPath: string,
  dir: string,
  observations: Observation[],
  nodeChunks: Float32Array[],
  onProgress: (done: number) => void,
) {
  let shim: Awaited<ReturnType<typeof startPythonPolicyServer>>;
  try {
    shim = await startPythonPolicyServer({ policy: `npz-mlp:${npzPath}`, bind: `ipc://${join(dir, 'python-shim.sock')}` });
  } catch (err) {
    return { skipped: (err as Error).message.split('\n')[0]! };
  }
  try {
    const { stats, chunks } = await drive(shim.endpoint, observations, onProgress);
    let maxDiff = 0;
    chunks.forEach((c, i) => {
      const ref = nodeChunks[i]!;
      for (let k = 0; k < c.length; k++) maxDiff = Math.max(maxDiff, Math.abs(c[k]! - ref[k]!));
    });
    return { ...stats, max_abs_diff_vs_node: maxDiff };
  } finally {
    await shim.stop();
  }
}
