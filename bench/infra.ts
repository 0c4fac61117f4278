// The decision-latency benchmark: a policy server whose every call takes a fixed time (a stand-in
// for a VLA on a GPU) drives the embedded suite twice in the same run:
//   sync  — one blocking request per action, as an LLM-per-decision agent harness does;
//   zetta — the asynchronous pipeline: the loop ticks at 20 Hz, the next chunk is requested while
//           the current one executes, and a step with no action ready holds (counted as a full
//           control period of waiting, so holds are never free).
// Both reach the policy over real ZeroMQ sockets.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEnv } from '../sim/tabletop/index.js';
import { world as tabletop } from '../sim/tabletop/tabletop-world.js';
import { PolicyClient } from '../zinfra/policy/zmq/client.js';
import { DelayedPolicy } from './delayed-policy.js';
import { OnnxPolicy } from '../zinfra/policy/onnx/onnx-policy.js';
import { PolicyServer } from '../zinfra/policy/zmq/server.js';
import { runEpisode, type RunEpisodeOptions } from '../zinfra/runtime/run-episode.js';
import { benchPolicyModel } from './demo-mlp.js';
import { summarize, type Summary } from '../measure/percentiles.js';

export interface InfraBenchOptions {
  readonly latencyMs: number;
  readonly episodes: number;
  readonly steps: number;
  readonly task: string;
  readonly onProgress?: (done: number, total: number) => void;
}

export interface InfraBenchResult {
  policy_latency_ms: number;
  policy: string;
  steps_per_arm: number;
  sync_ms_per_action: number;
  zetta_ms_per_action: number;
  ratio: number;
  late_chunks: number;
  zetta_holds: number;
  sync_wait_ms: Summary;
  zetta_wait_ms: Summary;
}

const CONTROL_PERIOD_MS = 50;

export async function benchInfra(options: InfraBenchOptions): Promise<InfraBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'zetta-infra-'));
  const { path, label } = benchPolicyModel(dir);
  const backend = await OnnxPolicy.load(path);
  const server = await PolicyServer.start(new DelayedPolicy(backend, options.latencyMs), { bind: `ipc://${join(dir, 'policy.sock')}` });
  const client = await PolicyClient.connect({ endpoint: server.endpoint, defaultDeadlineMs: 10 * options.latencyMs + 1000 });
  const env = await createEnv();
  const total = 2 * options.episodes;
  let done = 0;
  try {
    const encoder = tabletop.policyEncoder();
    const arm = async (episodeOptions: Omit<RunEpisodeOptions, 'policyLabel' | 'onDecision' | 'stepLimit' | 'toPolicyObservation'>) => {
      const waits: number[] = [];
      let late = 0;
      let holds = 0;
      for (let e = 0; e < options.episodes; e++) {
        const out = await runEpisode(
          env,
          client,
          { task: options.task, seed: 1000 + e },
          {
            ...episodeOptions,
            toPolicyObservation: (obs, task) => encoder.encode(obs, task),
            policyLabel: label,
            stepLimit: options.steps,
            onDecision: (ms, source) => waits.push(source === 'hold' ? Math.max(ms, CONTROL_PERIOD_MS) : ms),
          },
        );
        late += out.lateChunks;
        holds += out.holdActions;
        options.onProgress?.(++done, total);
      }
      return { waits, late, holds };
    };
    const sync = await arm({ executeSteps: 1 });
    const zetta = await arm({
      executeSteps: 10,
      timing: {
        mode: 'realtime',
        prefetchThreshold: Math.ceil(options.latencyMs / CONTROL_PERIOD_MS) + 2,
        merge: 'replace',
        deadlineMs: 4 * options.latencyMs,
      },
    });
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const syncMean = mean(sync.waits);
    const zettaMean = mean(zetta.waits);
    return {
      policy_latency_ms: options.latencyMs,
      policy: label,
      steps_per_arm: sync.waits.length,
      sync_ms_per_action: syncMean,
      zetta_ms_per_action: zettaMean,
      ratio: syncMean / zettaMean,
      late_chunks: zetta.late,
      zetta_holds: zetta.holds,
      sync_wait_ms: summarize(sync.waits),
      zetta_wait_ms: summarize(zetta.waits),
    };
  } finally {
    await env.close();
    await client.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
