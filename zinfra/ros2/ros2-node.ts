// The ROS 2 node: Zetta between a policy and a robot. Each control tick (driven at control_hz by
// node-loop.ts on a robot, or by a test in simulated time): the latch (e-stop, pause, a critic's
// abort) and the watchdog may hold the robot first; otherwise the latest robot state becomes the
// runtime's observation, the action pipeline gives the policy's a_t, the critic governs it (rules,
// governor, recovery, envelope last — the same chooseAction as every simulated run), and the result
// is published as a twist or a trajectory plus the gripper command. Everything is recorded as a
// ROS 2 bag; /diagnostics goes out at 1 Hz and ~/events every tick.
import type { Observation as EnvObservation } from '../../sim/env.js';
import type { PerceivedFeatures, PolicyEncoder } from '../../sim/world.js';
import type { Policy } from '../policy/policy.js';
import type { NdArray, Observation } from '../../protocol/ndarray.js';
import { ActionPipeline } from '../runtime/action-pipeline.js';
import { EMPTY_ACTION, chooseAction, type AskPolicy, type Chosen } from '../runtime/choose-action.js';
import { BagRecorder } from './bag-recorder.js';
import type { NodeClock } from './clock.js';
import { CommandOutput } from './command-output.js';
import type { Ros2Config } from './config.js';
import { ControlLatch } from './control-latch.js';
import type { Publisher, RosGraph } from './graph.js';
import { INPUT_TYPES, OUTPUT_TYPES, type DiagnosticArray, type JointState, type StringMessage } from './messages.js';
import { diagnostics, type PolicyLink, type TickEvent } from './node-status.js';
import type { RobotGovernance } from './robot-critic.js';
import { RobotInputs } from './robot-inputs.js';
import { Watchdog } from './watchdog.js';
import { declareNodeParameters } from './node-parameters.js';

export interface Ros2NodeOptions {
  readonly config: Ros2Config;
  readonly graph: RosGraph;
  readonly clock: NodeClock;
  readonly policy: Policy;
  readonly policyLabel: string;
  /** The task world's policy encoding (World.policyEncoder). */
  readonly encoder: PolicyEncoder;
  /** The task world's observed features from what the robot perceives (World.perception). */
  readonly features: PerceivedFeatures;
  readonly governance: RobotGovernance;
  /** realtime: never wait for the policy (a robot); lockstep: wait for each chunk (a simulated robot in simulated time). */
  readonly timing: 'realtime' | 'lockstep';
  readonly instruction: string;
}

export type TickKind = 'command' | 'hold';

export interface EpisodeStart {
  /** The names of the PoseArray's poses this episode, when they differ from the config's. */
  readonly objects?: readonly string[];
  readonly label?: string;
  /** The prompt the policy gets this episode (default: the node's instruction). */
  readonly instruction?: string;
  /** Where to record; by default `<recording.dir>/<label>.mcap` when recording is enabled. */
  readonly recordPath?: string | null;
}

const DIAGNOSTICS_PERIOD_MS = 1000;

export class Ros2Node {
  readonly latch = new ControlLatch();
  readonly watchdog: Watchdog;
  readonly link: PolicyLink = { lastError: null, lastLatencyMs: 0, answered: 0 };
  readonly inputs: RobotInputs;
  readonly outputs: CommandOutput;
  /** Governed steps of this episode (the policy's `t`). */
  step = 0;
  private readonly pipeline: ActionPipeline;
  private readonly chosen: Chosen = { action: EMPTY_ACTION, source: 'policy', proposed: null, fromChunk: false, reentered: false };
  private readonly ask: AskPolicy;
  private readonly featureInput = () => this.featureFrame;
  private featureFrame: ReturnType<PerceivedFeatures['update']> = null;
  private recorder: BagRecorder | null = null;
  private diagnosticsPub!: Publisher<DiagnosticArray>;
  private eventsPub!: Publisher<StringMessage>;
  private readonly event: StringMessage = { data: '' };
  /** What the envelope lets through when there is no critic (with one, the critic's `sent`). */
  private readonly noCriticSent = new Float32Array(7);
  private lastDiagnosticsAt = -Infinity;
  private lastDecision = 'none yet';
  private episodeLabel = 'episode';

  constructor(readonly options: Ros2NodeOptions) {
    const { config, clock } = options;
    this.watchdog = new Watchdog(config.safety.stale_state_ms, config.safety.chunk_timeout_ms);
    this.inputs = new RobotInputs(config, clock, options.instruction);
    const tap = (topic: string, type: string, m: unknown) => this.recorder?.record(topic, type, m, clock.now());
    this.outputs = new CommandOutput(config, clock, tap);
    this.pipeline = new ActionPipeline((obs) => this.requestChunk(obs), {
      actionDim: 7,
      executeSteps: config.execute_steps,
      prefetchThreshold: options.timing === 'lockstep' ? 0 : config.prefetch_threshold,
      merge: options.timing === 'lockstep' ? 'replace' : config.merge,
      deadlineMs: options.timing === 'lockstep' ? Infinity : config.safety.chunk_deadline_ms,
      mode: options.timing,
      now: () => clock.now(),
    });
    this.ask = {
      next: async (o, step, fresh, align) => {
        if (fresh) this.pipeline.invalidate();
        return this.pipeline.next(this.encode(o), step, align);
      },
      chunkDue: () => this.pipeline.chunkDue,
    };
  }

  /** Subscribes, advertises, offers the services and declares the parameters. */
  start(): void {
    const { graph, config } = this.options;
    const tap = (topic: string, type: string, m: unknown) => this.recorder?.record(topic, type, m, this.options.clock.now());
    this.inputs.subscribe(graph, tap);
    if (config.outputs.command.type === OUTPUT_TYPES.trajectory) this.trackJoints(graph, config.outputs.command.joints);
    this.outputs.advertise(graph);
    this.diagnosticsPub = graph.advertise(OUTPUT_TYPES.diagnostics, '/diagnostics', 'reliable');
    this.eventsPub = graph.advertise(OUTPUT_TYPES.events, '~/events', 'reliable');
    graph.serveTrigger('~/estop', () => {
      this.latch.estopNow();
      this.holdNow('estop');
      return { success: true, message: 'e-stop latched: holding until ~/resume' };
    });
    graph.serveTrigger('~/pause', () => {
      this.latch.pause();
      return { success: true, message: 'paused: holding until ~/resume' };
    });
    graph.serveTrigger('~/resume', () => {
      const cleared = this.latch.resume();
      // Whatever was queued was planned before the stop: the policy is asked afresh.
      this.pipeline.invalidate();
      return { success: true, message: cleared ? `resumed (cleared ${cleared})` : 'was not holding' };
    });
    declareNodeParameters(graph, config, this.watchdog, this.outputs);
  }

  /** Starts an episode: the critic, the pipeline and the step count start over; the bag opens. */
  async beginEpisode(start: EpisodeStart = {}): Promise<void> {
    const { config, governance, clock } = this.options;
    this.step = 0;
    this.episodeLabel = start.label ?? `episode-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    this.inputs.setObjects(start.objects ?? this.inputs.objectNames, start.instruction ?? this.options.instruction);
    this.options.features.begin(config.task.id, this.inputs.objectNames);
    this.pipeline.begin();
    this.outputs.begin();
    governance.critic?.reset();
    governance.envelope.reset();
    this.watchdog.begin(clock.now());
    const path =
      start.recordPath === undefined
        ? config.recording.enabled
          ? `${config.recording.dir}/${this.episodeLabel}.mcap`
          : null
        : start.recordPath;
    this.recorder = path ? await BagRecorder.create(path, this.metadata()) : null;
  }

  /** Ends the episode; returns the bag's path (null when not recording). */
  async endEpisode(summary: Readonly<Record<string, string>> = {}): Promise<string | null> {
    const r = this.recorder;
    this.recorder = null;
    if (!r) return null;
    await r.close({ steps: String(this.step), ...summary });
    return r.path;
  }

  /** One control period. Resolves once the command (or hold) is published. */
  async tick(): Promise<TickKind> {
    const now = this.options.clock.now();
    if (now - this.lastDiagnosticsAt >= DIAGNOSTICS_PERIOD_MS) this.publishDiagnostics(now);
    const latched = this.latch.reason;
    if (latched) return this.holdNow(latched);
    if (this.watchdog.stateTooOld(this.inputs.stateAge())) return this.holdNow(this.watchdog.reason!);
    const obs = this.inputs.observation(this.step);
    this.featureFrame = this.options.features.update(obs, this.inputs.objectsAt > -Infinity);
    const { critic, envelope } = this.options.governance;
    let proceed: boolean;
    try {
      proceed = await chooseAction(obs, this.step, this.ask, critic, this.featureInput, this.chosen);
    } catch (err) {
      // Lockstep only (real time never throws): a failed policy call holds; the next tick asks again.
      this.link.lastError ??= `${(err as Error).name}: ${(err as Error).message}`;
      return this.holdNow(`policy: ${this.link.lastError}`);
    }
    if (!proceed) {
      this.latch.abort();
      return this.holdNow('critic-abort');
    }
    const c = this.chosen;
    let sent = c.action;
    if (!critic) {
      envelope.enforce(c.action, obs.state, this.noCriticSent);
      sent = this.noCriticSent;
    }
    this.outputs.publish(sent);
    this.watchdog.afterStep(this.options.clock.now(), c.source === 'recovery' || c.fromChunk);
    this.lastDecision = c.source;
    this.publishEvent(now, sent);
    this.step++;
    return 'command';
  }

  /** The active recovery program's id, or null. */
  get recovery(): string | null {
    const critic = this.options.governance.critic;
    return critic?.recovering ? (critic.describe(false).decision.recovery ?? 'recovery') : null;
  }

  /** Publishes a hold now (zero twist, or the measured joint positions), outside the tick. */
  holdRobot(why: string): void {
    this.holdNow(why);
  }

  async close(): Promise<void> {
    this.holdNow('node closing');
    await this.endEpisode({ ended: 'node closed' });
    await this.options.graph.close();
  }

  private holdNow(why: string): TickKind {
    this.outputs.hold();
    this.lastDecision = `hold: ${why}`;
    const now = this.options.clock.now();
    this.publishEventText({ t_ms: now, step: this.step, proposed: null, sent: null, source: 'hold', hold: why });
    return 'hold';
  }

  private encode(obs: EnvObservation): Observation {
    const out = this.options.encoder.encode(obs, this.options.config.task.id) as Record<string, NdArray | string>;
    const images = this.inputs.images;
    for (let i = 0; i < images.length; i++) if (images[i]!.image) out[images[i]!.key] = images[i]!.image!;
    return out;
  }

  private async requestChunk(obs: Observation): Promise<NdArray<'<f4'>> {
    const clock = this.options.clock;
    const sent = clock.now();
    try {
      const [result] = await this.options.policy.infer([obs]);
      this.link.lastLatencyMs = clock.now() - sent;
      this.link.answered++;
      this.link.lastError = null;
      return result!.actions;
    } catch (err) {
      this.link.lastError = `${(err as Error).name}: ${(err as Error).message}`;
      throw err;
    }
  }

  /** A trajectory adds the action's deltas to the measured joint positions. */
  private trackJoints(graph: RosGraph, joints: readonly string[]): void {
    const out = this.outputs.jointPositions;
    graph.subscribe<JointState>(INPUT_TYPES.jointState, this.options.config.inputs.joint_state.topic, 'sensor-data', (m) => {
      for (let i = 0; i < joints.length; i++) {
        const k = m.name.indexOf(joints[i]!);
        if (k >= 0) out[i] = m.position[k]!;
      }
    });
  }

  private publishEvent(now: number, sent: Float32Array): void {
    const c = this.chosen;
    const critic = this.options.governance.critic;
    const described = critic?.describe(c.reentered);
    this.publishEventText({
      t_ms: now,
      step: this.step,
      proposed: c.proposed && c.fromChunk ? Array.from(c.proposed) : null,
      sent: Array.from(sent),
      source: c.source,
      latency_ms: this.inputs.stateAge(),
      ...(described
        ? { proposals: described.proposals.map((p) => ({ ruleId: p.ruleId, proposal: p.proposal })), decision: described.decision }
        : {}),
    });
  }

  private publishEventText(e: TickEvent): void {
    this.event.data = JSON.stringify(e);
    this.eventsPub.publish(this.event);
    this.recorder?.record(`/${this.options.graph.nodeName}/events`, OUTPUT_TYPES.events, this.event, e.t_ms);
  }

  private publishDiagnostics(now: number): void {
    this.lastDiagnosticsAt = now;
    const g = this.options.governance;
    const msg = diagnostics(
      {
        nodeName: this.options.graph.nodeName,
        policyLabel: this.options.policyLabel,
        criticLabel: g.label,
        link: this.link,
        pipeline: this.pipeline.stats,
        recovery: this.recovery,
        recoveries: g.critic?.recoveriesStarted ?? 0,
        envelopeHits: g.critic?.envelopeHits ?? 0,
        lastDecision: this.lastDecision,
        watchdog: this.watchdog.reason,
        watchdogTrips: this.watchdog.trips,
        stateAgeMs: this.inputs.stateAge(),
        latch: this.latch.reason,
        step: this.step,
        controlHz: this.options.config.control_hz,
        cameras: Object.fromEntries(this.inputs.images.map((c) => [c.key, { received: c.image !== null, error: c.error }])),
      },
      now,
    );
    this.diagnosticsPub.publish(msg);
    this.recorder?.record('/diagnostics', OUTPUT_TYPES.diagnostics, msg, now);
  }

  private metadata(): Record<string, string> {
    const { config, policyLabel, governance, instruction } = this.options;
    return {
      episode: this.episodeLabel,
      task: config.task.id,
      instruction,
      policy: policyLabel,
      critic: governance.label,
      control_hz: String(config.control_hz),
      timing: this.options.timing,
    };
  }
}
