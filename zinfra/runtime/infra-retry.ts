// An episode ended by the infrastructure (a lost or late policy server, a dead simulator) says
// nothing about the task, so it is run again at the same seed, a bounded number of times: a success
// table must not depend on how busy the machine was. The re-runs are counted, never hidden.
import type { Policy } from '../policy/policy.js';
import type { EpisodeOutcome } from './run-episode.js';

/** Re-runs of one episode after infrastructure failures, unless the plan says otherwise. */
export const DEFAULT_INFRA_RETRIES = 2;

/** How long a re-run waits at most for a lost policy to be back before it starts. */
const READY_WAIT_MS = 10_000;

export interface RetriedOutcome extends EpisodeOutcome {
  /** Times this episode was run again after an infrastructure failure. */
  readonly infraRetries: number;
}

/** Policies that reconnect by themselves (PolicyClient) can say when they are back. */
interface Reconnecting {
  ready(timeoutMs: number): Promise<void>;
}

export async function withInfraRetries(
  policy: Policy,
  maxRetries: number,
  runOnce: () => Promise<EpisodeOutcome>,
): Promise<RetriedOutcome> {
  let retries = 0;
  for (;;) {
    const outcome = await runOnce();
    if (outcome.infraFailure === null || retries >= maxRetries) return { ...outcome, infraRetries: retries };
    retries++;
    await untilReady(policy);
  }
}

async function untilReady(policy: Policy): Promise<void> {
  const reconnecting = policy as Partial<Reconnecting>;
  if (typeof reconnecting.ready !== 'function') return;
  // Still down after the wait: the re-run fails fast and the last failure is what is reported.
  await reconnecting.ready(READY_WAIT_MS).catch(() => undefined);
}
