// The critic's part of one control step, between "the policy proposed a_t" and "env.step": features,
// rules, the governor's decision, the recovery executor, and the safety envelope last. Roles stay
// strict: the critic proposes, the governor decides, only the executor writes recovery actions, the
// envelope limits whatever comes out, and the control loop alone talks to the env and the policy.
//
// The step is split in two around the one thing that may need to wait — a fresh chunk on re-entry —
// so nothing in here awaits: decide() returns STEP_REENTER, the loop drops the stale chunk and asks
// the policy afresh, and resume() takes that fresh action. finish() then applies the envelope.
// Per step this allocates nothing; describe() (recording only) does.
import { copyAction, scaleMotion, writeHold } from './action.js';
import { SafetyEnvelope, limitNames } from './envelope.js';
import { FrameBuilder } from './features/builder.js';
import type { WorldFeatureInput } from './features/world-reader.js';
import { Governor, type Decision } from './governor.js';
import { RECOVERY_ABORT, RECOVERY_REENTER, RecoveryExecutor } from './recovery/executor.js';
import { TemporalCritic } from './temporal-critic.js';
import type { CriticBundle } from './bundles/bundle.js';
import { alignmentOffset } from './features/chunk-alignment.js';
import type { ChunkAligner } from './features/chunk-alignment.js';
import type { CriticProposal, GovernorDecision } from './step-records.js';

/** The governed action is the policy's a_t (executed or clamped). */
export const STEP_POLICY = 0;
/** A recovery program wrote the action. */
export const STEP_RECOVERY = 1;
/** The governor holds: no motion, gripper unchanged. */
export const STEP_HOLD = 2;
/** A recovery ended: drop the stale chunk, get a fresh a_t, pass it to resume(). */
export const STEP_REENTER = 3;
/** End the episode now (a rule or a program asked to abort). Nothing is executed. */
export const STEP_ABORT = 4;
/** What the firings call the holds that wait out a lag (manifest `wait_out_lag`; not a rule). */
export const WAIT_OUT_LAG = 'wait_out_lag';
/** What the firings call the chunk actions skipped as already in flight (manifest `align_chunks_to_lag`). */
export const ALIGN_CHUNKS_TO_LAG = 'align_chunks_to_lag';
/**
 * Motion in flight below this (m) is not worth a hold: a chunk planned a few centimetres short
 * corrects itself within the chunk, while every hold costs the episode a step of its budget.
 */
const MIN_MOTION_IN_FLIGHT_M = 0.03;
export type StepCode = typeof STEP_POLICY | typeof STEP_RECOVERY | typeof STEP_HOLD | typeof STEP_REENTER | typeof STEP_ABORT;

export interface CriticRuntimeOptions {
  readonly bundle: CriticBundle;
  /** The run authorizes privileged features (the bundle was loaded under the same authorization). */
  readonly privileged: boolean;
  /** The envelope's workspace box for the end effector (m, robot base frame). */
  readonly workspace: { readonly min: readonly [number, number, number]; readonly max: readonly [number, number, number] };
  readonly controlHz?: number;
}

export class CriticRuntime {
  /** The action the envelope let through: what env.step receives. Overwritten every step. */
  readonly sent = new Float32Array(7);
  /** Recoveries started this episode. */
  recoveriesStarted = 0;
  /** Steps on which the envelope changed the action. */
  envelopeHits = 0;
  /**
   * This episode's decisions per rule id that caused them: a recovery counts once when it starts, a
   * hold, clamp or abort once per step. What a run reports as "which rules (and skills) fired".
   */
  readonly firings = new Map<string, number>();
  /** Recovery programs started this episode, per program id. */
  readonly programStarts = new Map<string, number>();
  private readonly action = new Float32Array(7);
  private readonly idle = new Float32Array(7);
  private readonly builder: FrameBuilder;
  private readonly critic: TemporalCritic;
  private readonly governor: Governor;
  private readonly executor: RecoveryExecutor;
  private readonly envelope: SafetyEnvelope;
  private decision: Decision | null = null;
  private trigger = -1;
  /** The program started last (named in the re-entry record). */
  private lastProgram: string | null = null;
  /** This step holds to wait out an actuation lag (the policy was not asked). */
  private waitingOutLag = false;
  /** Where the chunk asked for last starts (one request is in flight at a time). */
  private readonly aligner: ChunkAligner;
  private readonly inFlightAtAsk = new Float64Array(3);
  private lagAtAsk = 0;

  constructor(readonly options: CriticRuntimeOptions) {
    const { bundle } = options;
    this.builder = new FrameBuilder({ layout: bundle.layout, privileged: options.privileged, controlHz: options.controlHz ?? 20 });
    this.critic = new TemporalCritic(bundle.rules);
    this.governor = new Governor({ duringRecovery: bundle.manifest.during_recovery });
    this.executor = new RecoveryExecutor(bundle.recoveries);
    this.envelope = new SafetyEnvelope({ workspaceMin: options.workspace.min, workspaceMax: options.workspace.max });
    this.aligner = {
      // the bundle's condition is asked here, once per chunk asked for, on the latest frame
      asked: () => {
        const when = bundle.alignChunksToLag;
        this.lagAtAsk = when?.(this.builder.frame.values) ? this.builder.measuredLagSteps() : 0;
        this.builder.motionInFlightVector(this.inFlightAtAsk);
      },
      offset: (chunk, horizon, dim) => {
        const skipped = alignmentOffset(this.inFlightAtAsk, chunk, horizon, dim, this.lagAtAsk);
        if (skipped > 0) count(this.firings, ALIGN_CHUNKS_TO_LAG, skipped);
        return skipped;
      },
    };
  }

  /** Start of an episode: every rule window, the governor's queue, the envelope's gripper state. */
  reset(): void {
    this.builder.reset();
    this.critic.reset();
    this.governor.reset();
    this.envelope.reset();
    this.executor.cancel();
    this.decision = null;
    this.trigger = -1;
    this.recoveriesStarted = this.envelopeHits = 0;
    this.firings.clear();
    this.programStarts.clear();
  }

  /**
   * This step's observation has arrived (first thing in a step, before the policy is asked): the
   * critic's lag estimate takes it in, so a wait or a chunk alignment decided now uses it.
   */
  observe(state: ArrayLike<number>): void {
    this.builder.observe(state);
  }

  /** A recovery program drives the robot: the loop does not ask the policy this step. */
  get recovering(): boolean {
    return this.executor.running;
  }

  /**
   * At a chunk boundary: hold this step instead of asking the policy, because the bundle waits out
   * a lag (where its condition holds on the last frame) and motion commanded earlier has not shown
   * in the state yet (a chunk planned now would plan it again). Each hold lets one command land, so
   * the wait ends by itself.
   */
  waitsOutLag(): boolean {
    const when = this.options.bundle.waitOutLag;
    if (when === null || this.executor.running) return false;
    return this.builder.motionInFlight() >= MIN_MOTION_IN_FLIGHT_M && when(this.builder.frame.values);
  }

  /**
   * Where the bundle aligns chunks to the lag (manifest `align_chunks_to_lag`): what places a chunk
   * asked for now past the motion already in flight, where the bundle's condition holds when it is
   * asked. Its skipped actions appear in the firings as `align_chunks_to_lag`; the actions executed
   * stay the policy's own.
   */
  chunkAligner(): ChunkAligner | undefined {
    return this.options.bundle.alignChunksToLag !== null ? this.aligner : undefined;
  }

  /**
   * Features → rules → governor → (execute | clamp | hold | recovery). `proposed` is the policy's
   * a_t, or null while a recovery drives (the critic then sees "hold" as the proposal).
   */
  decide(state: ArrayLike<number>, proposed: ArrayLike<number> | null, features: WorldFeatureInput | null): StepCode {
    let a = proposed;
    if (a === null) {
      writeHold(this.idle, this.envelope.gripper);
      a = this.idle;
    }
    // the policy is asked every step but while a recovery drives or while a lag is waited out
    this.waitingOutLag = proposed === null && !this.executor.running;
    if (this.waitingOutLag) count(this.firings, WAIT_OUT_LAG);
    const frame = this.builder.fill(state, a, features, this.executor.running);
    const result = this.critic.evaluate(frame);
    const d = this.governor.decide(result, this.executor.runningId);
    this.decision = d;
    if (d.cause && d.kind !== 'execute' && (d.kind !== 'recover' || d.start)) count(this.firings, d.cause.ruleId);
    if (this.executor.running && (d.kind !== 'recover' || d.start)) this.executor.cancel(); // pre-empted
    switch (d.kind) {
      case 'execute':
        copyAction(a, this.action);
        return proposed === null ? STEP_HOLD : STEP_POLICY;
      case 'clamp':
        scaleMotion(a, d.scale, this.action, d.xyScale);
        return proposed === null ? STEP_HOLD : STEP_POLICY;
      case 'hold':
        writeHold(this.action, this.envelope.gripper);
        return STEP_HOLD;
      case 'abort':
        return STEP_ABORT;
      case 'recover':
        return this.recover(d);
    }
  }

  /** Re-entry: the fresh chunk's first action is executed as the policy's. */
  resume(fresh: ArrayLike<number>): void {
    copyAction(fresh, this.action);
  }

  /** The envelope, always last; returns `sent`. Then the builder learns what was really executed. */
  finish(state: ArrayLike<number>): Float32Array {
    const hits = this.envelope.enforce(this.action, state, this.sent);
    if (hits !== 0) this.envelopeHits++;
    this.builder.commit(this.sent);
    return this.sent;
  }

  /** What the critic proposed and the governor decided this step, for the recording (allocates). */
  describe(reentered: boolean): { proposals: CriticProposal[]; decision: GovernorDecision } {
    const r = this.critic.result;
    const proposals: CriticProposal[] = [];
    for (let i = 0; i < r.count; i++) {
      const p = r.proposals[i]!;
      proposals.push({
        ruleId: p.ruleId,
        proposal: p.action === 'recovery' ? p.recovery! : p.action,
        priority: p.priority,
        safety: p.safety,
      });
    }
    const d = this.decision;
    const decided = d?.kind ?? 'execute';
    const kind = reentered ? 'reenter' : this.waitingOutLag && decided === 'execute' ? 'hold' : decided;
    const recovery = reentered ? this.lastProgram : (d?.recovery ?? null);
    const reasons: string[] = [];
    if (d?.cause) reasons.push(`rule ${d.cause.ruleId}${d.fromQueue ? ' (queued while a recovery ran)' : ''}`);
    if (this.waitingOutLag) reasons.push('waiting out the actuation lag before a fresh chunk');
    if (reentered) reasons.push(`recovery ${this.executor.outcome}`);
    if (this.envelope.lastHits) reasons.push(`envelope ${limitNames(this.envelope.lastHits).join('+')}`);
    return { proposals, decision: { kind, ...(recovery ? { recovery } : {}), ...(reasons.length ? { reason: reasons.join('; ') } : {}) } };
  }

  private recover(d: Decision): StepCode {
    if (d.start) {
      this.executor.start(d.recovery!);
      this.lastProgram = d.recovery;
      this.trigger = d.cause?.ruleIndex ?? -1;
      this.recoveriesStarted++;
      count(this.programStarts, d.recovery!);
    }
    const code = this.executor.tick(this.builder.frame, this.trigger < 0 || this.critic.isClear(this.trigger), this.action);
    if (code === RECOVERY_ABORT) return STEP_ABORT;
    if (code === RECOVERY_REENTER) return STEP_REENTER;
    return STEP_RECOVERY;
  }
}

function count(counts: Map<string, number>, key: string, by = 1): void {
  counts.set(key, (counts.get(key) ?? 0) + by);
}
