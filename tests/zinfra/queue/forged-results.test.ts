// Someone who can write to Redis but lacks the queue's key takes the coordinator's jobs and completes
// them with made-up outcomes (every episode a success). The coordinator counts none of them: each is
// an infrastructure failure saying its result is not signed, and never a success.
import { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisProcess } from '../../../bench/redis-process.js';
import type { EpisodeJob, EvaluationPlan } from '../../../zinfra/runtime/evaluation-plan.js';
import { planJobs } from '../../../zinfra/runtime/evaluation-plan.js';
import type { EpisodeOutcome } from '../../../zinfra/runtime/run-episode.js';
import { bullConnection } from '../../../zinfra/queue/connections.js';
import { PROTOCOL_VERSION, QUEUE_NAME } from '../../../zinfra/queue/job-schema.js';
import { lostEpisode } from '../../../zinfra/queue/lost-episode.js';
import { openQueueCoordinator, type QueueCoordinator } from '../../../zinfra/queue/queue-coordinator.js';
import { QueueKey } from '../../../zinfra/queue/queue-key.js';
import { parseRedisUrl } from '../../../zinfra/queue/redis-url.js';

let redis: RedisProcess;
let coordinator: QueueCoordinator;
let forger: Worker;

beforeAll(async () => {
  redis = await RedisProcess.start({ fsyncEveryWrite: false });
  const address = parseRedisUrl(redis.url);
  coordinator = await openQueueCoordinator({
    address,
    scope: 'forged-results',
    recordings: 'stream',
    key: new QueueKey('the-coordinators-own-key'),
  });
  // completes every job with a success, signed with a key of its own choosing
  const itsKey = new QueueKey('a-key-the-forger-made-up');
  forger = new Worker(
    QUEUE_NAME,
    async (job) => {
      const episode = (job.data as { job: EpisodeJob }).job;
      const outcome = { ...lostEpisode(episode, '', 0), success: true, infraFailure: null, steps: 30 };
      const result = {
        protocol: PROTOCOL_VERSION,
        outcome,
        recordingKey: null,
        recordingBytes: 0,
        recordingSha256: null,
        worker: 'forger:1',
      };
      return { ...result, signature: itsKey.sign('result', job.id!, result) };
    },
    { connection: bullConnection(address) },
  );
  await forger.waitUntilReady();
}, 60_000);

afterAll(async () => {
  await forger?.close();
  await coordinator?.close();
  await redis?.stop();
});

describe('results written by someone without the queue key', () => {
  it('are not counted: each episode is an infrastructure failure, none a success', async () => {
    const plan: EvaluationPlan = {
      tasks: ['spatial/left_cube_in_bowl'],
      episodesPerTask: 3,
      firstSeed: 0,
      policy: 'embedded',
      executeSteps: 5,
    };
    const outcomes: EpisodeOutcome[] = [];
    await coordinator.executor(plan, planJobs(plan), (outcome) => outcomes.push(outcome));
    expect(outcomes).toHaveLength(3);
    for (const o of outcomes) {
      expect(o.success).toBe(false);
      expect(o.infraFailure).toContain("not signed with this queue's key");
    }
  }, 60_000);
});
