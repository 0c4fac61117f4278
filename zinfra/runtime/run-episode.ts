// One episode of the control loop: observe, take the next action of the current chunk (asking the
// policy for a fresh chunk when it runs out), let the critic govern it (critic/critic-runtime.ts: rules,
// governor, recovery, envelope last), step the env, then tell the step observers (step-observer.ts:
// the episode's recording when it has a path, its tally, any the caller adds). Failures of the
// plumbing (a lost or overloaded policy server, a dead simulator) end the episode as an
// infrastructure failure, which never counts as a task failure; a physics divergence is where the
// arm was driven, so it is a task failure of whatever drove it.
import type { Env, Observation as EnvObservation } from '../../sim/env.js';
import { SimPhysicsError, SimUnavailable } from '../../sim/errors.js';
import { ClientClosed, DeadlineExceeded, Overloaded, PolicyUnavailable, RemoteError } from '../policy/errors.js';
import type { Policy } from '../policy/policy.js';
import type { Observation } from '../../protocol/ndarray.js';
import type { EpisodeSummary } from '../recording/episode-record.js';
import { ActionPipeline, type MergeRule } from './action-pipeline.js';
import { EMPTY_ACTION, chooseAction, type AskPolicy, type Chosen } from './choose-action.js';
import type { CriticRuntime } from '../../critic/index.js';
import { EpisodeRecorder } from './episode-recorder.js';
import type { EpisodeSpec } from './episode-spec.js';
import { EpisodeTally } from './episode-tally.js';
import type { LoopStep, StepObserver } from './step-observer.js';

export type { EpisodeSpec };

export interface RunEpisodeOptions {
  /** k: actions executed from each chunk before the policy is asked again. */
  readonly executeSteps: number;
  /**
   * How the loop meets the policy. lockstep (default): the world waits for each chunk, as in
   * simulation. realtime: the loop ticks at the control rate whatever the policy does, asks for the
   * next chunk when `prefetchThreshold` actions remain, and holds when none is ready.
   */
  readonly timing?: { readonly mode: 'lockstep' } | RealtimeTiming;
  /** Where to write the episode's MCAP file; nothing is recorded without it. */
  readonly recordPath?: string | undefined;
  /** Labels written into the recording's header. */
  readonly policyLabel: string;
  readonly criticLabel?: string;
  /** Ends the episode after this many steps even if the task allows more. */
  readonly stepLimit?: number;
  /** Called with how long each step waited for its action (ms), for latency measurements. */
  readonly onDecision?: (waitMs: number, source: 'chunk' | 'hold') => void;
  /**
   * The runtime critic (reset here at the start of every episode, so one serves many episodes in
   * turn). Without it the loop executes the policy's actions as they come.
   */
  readonly critic?: CriticRuntime | undefined;
  /** Turns the env's observation into the policy's (the world's encoding: World.policyEncoder). */
  readonly toPolicyObservation: (obs: EnvObservation, task: string) => Observation;
  /** More observers of every step, called after the episode's own recording and tally. */
  readonly observers?: readonly StepObserver[];
}

export interface RealtimeTiming {
  readonly mode: 'realtime';
  readonly prefetchThreshold: number;
  readonly merge: MergeRule;
  /** A request unanswered this long is abandoned and asked again. */
  readonly deadlineMs: number;
}

/** What an episode's recording summary says, and what the runtime knows besides. */
export interface EpisodeOutcome extends EpisodeSummary {
  readonly task: string;
  readonly seed: number;
  readonly holdActions: number;
  readonly policyCalls: number;
  /** Time the loop spent blocked waiting for the policy. */
  readonly policyWaitMs: number;
  /** Requests abandoned past their deadline (real time). */
  readonly lateChunks: number;
  readonly resetDigest: string;
  readonly recordPath: string | null;
  /** Recovery programs started (0 without a critic). */
  readonly recoveries: number;
  /** Steps on which the safety envelope changed the action. */
  readonly envelopeHits: number;
  /** The critic's decisions per rule id that caused them (see CriticRuntime.firings); {} without a critic. */
  readonly firings: Readonly<Record<string, number>>;
  /** Recovery programs started, per program id; {} without a critic. */
  readonly programStarts: Readonly<Record<string, number>>;
  /** The critic ended the episode (a rule's abort, or a program's). */
  readonly aborted: boolean;
}

export async function runEpisode(env: Env, policy: Policy, spec: EpisodeSpec, options: RunEpisodeOptions): Promise<EpisodeOutcome> {
  const started = performance.now();
  const critic = options.critic;
  const toPolicy = options.toPolicyObservation;
  let reset: Awaited<ReturnType<Env['reset']>>;
  try {
    reset = await env.reset(spec);
  } catch (err) {
    // A simulator that is gone at reset (a remote env server that died) ends the episode as the
    // infrastructure's failure too; anything else is rethrown.
    if (classifyFailure(err) !== 'infra') throw err;
    return unstartedOutcome(spec, `${(err as Error).name}: ${(err as Error).message}`, performance.now() - started);
  }
  const envSpec = env.spec();
  const timing = options.timing ?? { mode: 'lockstep' };
  const pipeline = new ActionPipeline(
    async (obs) => (await policy.infer([obs]))[0]!.actions,
    timing.mode === 'lockstep'
      ? {
          actionDim: envSpec.actionDim,
          executeSteps: options.executeSteps,
          prefetchThreshold: 0,
          merge: 'replace',
          deadlineMs: Infinity,
          mode: 'lockstep',
        }
      : {
          actionDim: envSpec.actionDim,
          executeSteps: options.executeSteps,
          prefetchThreshold: timing.prefetchThreshold,
          merge: timing.merge,
          deadlineMs: timing.deadlineMs,
          mode: 'realtime',
        },
  );
  pipeline.begin();
  const tick = timing.mode === 'realtime' ? pacer(1000 / envSpec.controlHz) : undefined;
  const tally = new EpisodeTally();
  const observers = stepObservers(tally, options);
  const start = { spec, env, envSpec, reset, critic };
  // Only the hooks an observer has are awaited: an episode without a recording takes no extra turn here.
  for (const observer of observers) if (observer.onStart) await observer.onStart(start);

  critic?.reset();
  // The critic's frame builder keeps privileged features out unless the run authorizes them.
  const features = () => env.features();
  const ask: AskPolicy = {
    async next(o, step, fresh, align) {
      if (fresh) pipeline.invalidate(); // drop the queued actions and any request in flight
      const asked = performance.now();
      const next = await pipeline.next(toPolicy(o, spec.task), step, align);
      options.onDecision?.(performance.now() - asked, next.source);
      return next;
    },
    chunkDue: () => pipeline.chunkDue,
  };
  const chosen: Chosen = { action: EMPTY_ACTION, source: 'policy', proposed: null, fromChunk: false, reentered: false };
  const current: LoopStep = { index: 0, observation: reset.obs, chosen };
  const watching = observers.length;
  let obs = reset.obs;
  let steps = 0;
  let success = false;
  let milestones: readonly string[] = [];
  let infraFailure: string | null = null;
  let physicsDivergence = false;
  let aborted = false;
  try {
    const maxSteps = Math.min(envSpec.maxSteps, options.stepLimit ?? Infinity);
    while (steps < maxSteps) {
      await tick?.(steps);
      // observe (obs) → the policy's a_t → critic, governor, recovery, envelope → env.step → observers
      if (!(await chooseAction(obs, steps, ask, critic, features, chosen))) {
        aborted = true;
        break;
      }
      current.index = steps;
      current.observation = obs;
      // Indexed loops: no iterator per step on the hot path.
      for (let i = 0; i < watching; i++) observers[i]!.onAction?.(current);
      const result = await env.step(chosen.action);
      for (let i = 0; i < watching; i++) observers[i]!.onStep(current, result);
      steps++;
      obs = result.obs;
      milestones = result.info.milestones;
      success = result.info.success;
      if (result.done) break;
    }
  } catch (err) {
    const kind = classifyFailure(err);
    if (kind === 'bug') {
      for (const observer of observers) await observer.onAbandon?.();
      throw err;
    }
    // A policy that emits NaN, or an arm driven into diverging physics, has failed the task; the
    // rest is the infrastructure's fault.
    if (kind === 'infra') infraFailure = `${(err as Error).name}: ${(err as Error).message}`;
    if (kind === 'physics') physicsDivergence = true;
    success = false;
  }
  const summary: EpisodeSummary = {
    success: infraFailure === null && success,
    steps,
    milestones: [...milestones],
    infraFailure,
    physicsDivergence,
    policyActions: tally.policyActions,
    unmodifiedPolicyActions: tally.unmodifiedPolicyActions,
    recoveryActions: tally.recoveryActions,
    milestonesDuringRecovery: tally.milestonesDuringRecovery,
    wallMs: performance.now() - started,
  };
  for (const observer of observers) await observer.onEnd?.(summary);
  return {
    task: spec.task,
    seed: spec.seed,
    ...summary,
    holdActions: tally.holds,
    policyCalls: pipeline.stats.requests,
    policyWaitMs: pipeline.stats.waitMs,
    lateChunks: pipeline.stats.lateChunks,
    resetDigest: reset.info.resetDigest,
    recordPath: options.recordPath ?? null,
    recoveries: critic?.recoveriesStarted ?? 0,
    envelopeHits: critic?.envelopeHits ?? 0,
    firings: critic ? Object.fromEntries(critic.firings) : {},
    programStarts: critic ? Object.fromEntries(critic.programStarts) : {},
    aborted,
  };
}

/** The episode's observers: its recording (with a path), its tally, then the caller's own. */
function stepObservers(tally: EpisodeTally, options: RunEpisodeOptions): StepObserver[] {
  const recording = options.recordPath
    ? [new EpisodeRecorder(options.recordPath, { policy: options.policyLabel, critic: options.criticLabel ?? 'none' })]
    : [];
  return [...recording, tally, ...(options.observers ?? [])];
}

/** An episode the infrastructure ended before its first step. */
function unstartedOutcome(spec: EpisodeSpec, infraFailure: string, wallMs: number): EpisodeOutcome {
  return {
    task: spec.task,
    seed: spec.seed,
    success: false,
    steps: 0,
    milestones: [],
    infraFailure,
    physicsDivergence: false,
    policyActions: 0,
    unmodifiedPolicyActions: 0,
    recoveryActions: 0,
    milestonesDuringRecovery: 0,
    wallMs,
    holdActions: 0,
    policyCalls: 0,
    policyWaitMs: 0,
    lateChunks: 0,
    resetDigest: '',
    recordPath: null,
    recoveries: 0,
    envelopeHits: 0,
    firings: {},
    programStarts: {},
    aborted: false,
  };
}

/**
 * Whose fault an exception in the loop is: `infra` (a lost, overloaded or timed-out policy server, a
 * dead simulator; never counted as a task failure), `policy` (it emitted non-finite actions: the
 * task failed), `physics` (the simulation diverged where the arm was driven: the task failed too),
 * or `bug` (anything else, e.g. a misconfigured observation: rethrown so it is seen and fixed).
 */
export function classifyFailure(err: unknown): 'infra' | 'policy' | 'physics' | 'bug' {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'NON_FINITE_ACTIONS') return 'policy';
  if (err instanceof PolicyUnavailable || err instanceof DeadlineExceeded || err instanceof Overloaded || err instanceof ClientClosed)
    return 'infra';
  if (err instanceof RemoteError && err.code !== 'INVALID_OBSERVATION') return 'infra';
  if (err instanceof SimUnavailable) return 'infra';
  if (err instanceof SimPhysicsError) return 'physics';
  return 'bug';
}

/** Sleeps until step n's tick of a fixed-rate clock started at the first call (no drift accumulates). */
function pacer(periodMs: number): (step: number) => Promise<void> {
  let t0: number | undefined;
  return async (step) => {
    t0 ??= performance.now();
    const wait = t0 + step * periodMs - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
  };
}
