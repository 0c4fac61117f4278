// Steps 1–2 of docs/DESIGN.md's "One control step", between observing and env.step: the policy's a_t, then — with
// a critic — what the governor makes of it (critic/critic-runtime.ts), envelope last. Kept apart from the
// loop so the loop reads as observe → choose → step → record.
import type { WorldFeatureInput } from '../../critic/index.js';
import type { Observation as EnvObservation } from '../../sim/env.js';
import type { ActionSource } from '../../critic/index.js';
import type { ChunkAligner } from '../../critic/index.js';
import { STEP_ABORT, STEP_HOLD, STEP_RECOVERY, STEP_REENTER, type CriticRuntime } from '../../critic/index.js';

/** The action pipeline as the step sees it. */
export interface AskPolicy {
  /** This step's action; `fresh` drops the queued chunk first; `align` places a chunk asked for now. */
  next(
    obs: EnvObservation,
    step: number,
    fresh: boolean,
    align?: ChunkAligner,
  ): Promise<{ action: Float32Array; source: 'chunk' | 'hold' }>;
  /** The next call asks the policy for a fresh chunk (none queued, none in flight). */
  chunkDue(): boolean;
}

export const EMPTY_ACTION = new Float32Array(0);

/** What one step executes; one object per episode, overwritten every step. */
export interface Chosen {
  action: Float32Array;
  source: ActionSource;
  /** The policy's a_t this step, or null when it was not asked (a recovery drove). */
  proposed: Float32Array | null;
  /** `proposed` came from a chunk (not the pipeline's own hold while a chunk was late). */
  fromChunk: boolean;
  /** A recovery ended this step and control returned to the policy with a fresh chunk. */
  reentered: boolean;
}

/**
 * Steps 1–2 of docs/DESIGN.md's "One control step": the policy's a_t from the pipeline (not asked while a recovery
 * drives: its chunk would be stale; nor, when the bundle waits out a lag, while motion commanded
 * before a chunk boundary is still in flight: the loop holds instead; when it aligns chunks to the
 * lag, a chunk asked for starts past what is in flight), then, with a critic, rules →
 * governor → (execute | clamp | hold | recovery) → envelope. Returns false when the critic aborts
 * the episode.
 */
export async function chooseAction(
  obs: EnvObservation,
  step: number,
  ask: AskPolicy,
  critic: CriticRuntime | undefined,
  features: () => WorldFeatureInput | null,
  out: Chosen,
): Promise<boolean> {
  out.proposed = null;
  out.fromChunk = false;
  out.reentered = false;
  out.source = 'recovery';
  critic?.observe(obs.state);
  // Waiting out a lag: the fresh chunk is asked for once the motion in flight has landed.
  if (!critic?.recovering && !(ask.chunkDue() && critic?.waitsOutLag())) {
    const next = await ask.next(obs, step, false, critic?.chunkAligner());
    out.proposed = next.action;
    out.fromChunk = next.source === 'chunk';
    out.source = out.fromChunk ? 'policy' : 'hold';
  }
  if (!critic) {
    out.action = out.proposed!;
    return true;
  }
  const code = critic.decide(obs.state, out.proposed, features());
  if (code === STEP_ABORT) return false;
  if (code === STEP_REENTER) {
    // Re-entry contract: the chunk was planned before the recovery moved the robot; drop it and
    // execute the first action of a fresh one, planned from this observation.
    const fresh = await ask.next(obs, step, true, critic.chunkAligner());
    out.proposed = fresh.action;
    out.fromChunk = fresh.source === 'chunk';
    critic.resume(out.proposed);
    out.reentered = true;
    out.source = out.fromChunk ? 'policy' : 'hold';
  } else if (code === STEP_RECOVERY) out.source = 'recovery';
  else if (code === STEP_HOLD) out.source = 'hold';
  out.action = critic.finish(obs.state);
  return true;
}
