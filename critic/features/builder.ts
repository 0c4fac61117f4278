// FrameBuilder: fills a FeatureFrame each step, in place, without allocating. It keeps the little
// history the features need (previous state, last executed action, short windows for chattering,
// oscillation and progress), so the control loop only hands it what it has this step.
//
// Per step the loop calls, in this order:
//   builder.fill(state, proposedAction, envFeatures, inRecovery)   → the frame the critic reads
//   … governor, recovery, envelope …
//   builder.commit(enforcedAction)                                 → what was actually sent
// `commit` matters because `command.*` realization features compare the motion that was *executed*
// (after clamp, recovery or envelope) with the motion that happened. Without a commit, the proposed
// action is taken as executed (right for a shadow replay of an ungoverned run).
import { ACTION_DIM, GRIPPER_INDEX, ROT_SCALE_RAD, STATE_DIM, TRANS_SCALE_M } from '../action.js';
import { FeatureFrame } from './frame.js';
import { CRITIC_ONLY_LAYOUT, type FeatureLayout } from './layout.js';
import { ActuationLag } from './actuation-lag.js';
import { PolicyHeading } from './policy-heading.js';
import { relativeRotationAngle } from './rotation.js';
import { FrameSlots } from './slots.js';
import { WorldFeatureReader, type WorldFeatureInput } from './world-reader.js';

export interface FrameBuilderOptions {
  /** The frame's layout: the critic's features and the world's (default: the critic's only). */
  readonly layout?: FeatureLayout;
  /** The run authorizes privileged features; otherwise they stay NaN. */
  readonly privileged: boolean;
  /** Control frequency, for the m/s and rad/s features (default 20, LIBERO). */
  readonly controlHz?: number;
  /** Steps in the chattering / oscillation / progress windows (default 20: one second). */
  readonly window?: number;
  /** z of the table plane in the robot base frame, for `derived.height` (default 0). */
  readonly tableZ?: number;
  /** A commanded translation at least this long (m) counts as "commanded motion" (default 0.005). */
  readonly stallMinCommandM?: number;
  /** Realized / commanded below this while motion was commanded is a stall (default 0.2). */
  readonly stallRatio?: number;
  /** Finger opening changing less than this per step counts as settled (default 2e-4 m). */
  readonly gripperSettleM?: number;
  /** A settled, closed gripper narrower than this closed on nothing (default 0.003 m). */
  readonly emptyWidthM?: number;
}

/** Below this a commanded translation has no direction worth comparing (m). */
const MIN_DIRECTION_M = 1e-4;

export class FrameBuilder {
  readonly frame: FeatureFrame;
  private readonly s = new FrameSlots();
  private readonly o: Required<Omit<FrameBuilderOptions, 'layout'>>;
  private readonly world: WorldFeatureReader;
  private readonly lag = new ActuationLag();
  private readonly heading = new PolicyHeading();
  private readonly landing = new Float64Array(3);

  private readonly prevState = new Float64Array(STATE_DIM);
  private readonly executed = new Float64Array(ACTION_DIM);
  private readonly olderTrans = new Float64Array(3);
  private olderGripper = Number.NaN;
  private hasPrev = false;
  private hasExecuted = false;
  private hasOlder = false;
  private prevWidth = Number.NaN;
  /** Since close was commanded, the closing fingers settled on something (wider than empty). */
  private held = false;
  /** The fingers have moved toward closed since close was commanded (it has landed, lag or not). */
  private closingSeen = false;

  private readonly flips: Uint8Array;
  private readonly reversals: Uint8Array;
  private readonly positions: Float64Array;
  private ringHead = 0;
  private ringCount = 0;
  private posHead = 0;
  private posCount = 0;

  private step = 0;
  /** The step whose state the lag estimate has seen (observe()); −1: none yet this episode. */
  private observedStep = -1;
  /** A command was sent (commit) that the lag estimate has not seen realized yet. */
  private sentUnobserved = false;
  private stalledSteps = 0;
  private recoveries = 0;
  private recoverySteps = 0;
  private sinceRecovery = 0;
  private policySteps = 0;
  private wasInRecovery = false;

  constructor(options: FrameBuilderOptions) {
    this.o = {
      privileged: options.privileged,
      controlHz: options.controlHz ?? 20,
      window: Math.max(1, Math.floor(options.window ?? 20)),
      tableZ: options.tableZ ?? 0,
      stallMinCommandM: options.stallMinCommandM ?? 0.005,
      stallRatio: options.stallRatio ?? 0.2,
      gripperSettleM: options.gripperSettleM ?? 2e-4,
      emptyWidthM: options.emptyWidthM ?? 0.003,
    };
    const layout = options.layout ?? CRITIC_ONLY_LAYOUT;
    this.frame = new FeatureFrame(layout);
    this.world = new WorldFeatureReader(layout, options.privileged);
    this.flips = new Uint8Array(this.o.window);
    this.reversals = new Uint8Array(this.o.window);
    // window + 1 positions: the oldest is exactly `window` steps before the newest.
    this.positions = new Float64Array(3 * (this.o.window + 1));
    this.reset();
  }

  get privilegedAuthorized(): boolean {
    return this.o.privileged;
  }

  /** Start of an episode: forget all history. */
  reset(): void {
    this.frame.clear();
    this.hasPrev = this.hasExecuted = this.hasOlder = this.wasInRecovery = false;
    this.olderGripper = this.prevWidth = Number.NaN;
    this.held = this.closingSeen = false;
    this.lag.reset();
    this.heading.reset();
    this.flips.fill(0);
    this.reversals.fill(0);
    this.ringHead = this.ringCount = this.posHead = this.posCount = 0;
    this.step = this.stalledSteps = this.recoveries = this.recoverySteps = 0;
    this.observedStep = -1;
    this.sentUnobserved = false;
    this.sinceRecovery = this.policySteps = 0;
  }

  /**
   * Fills and returns `this.frame` for this step. `state` is the 8-D robot state, `action` the
   * proposed 7-D a_t, `env` what the world's `features()` returned — a names/values frame or a
   * record (privileged features ignored unless authorized, undeclared names ignored, missing ones
   * NaN) — and `inRecovery` whether a recovery program drives this step.
   */
  fill(state: ArrayLike<number>, action: ArrayLike<number>, env: WorldFeatureInput | null | undefined, inRecovery: boolean): FeatureFrame {
    const v = this.frame.values;
    for (let i = 0; i < STATE_DIM; i++) v[this.s.state[i]!] = state[i]!;
    this.fillCommand(v, action);
    this.fillRealization(v, state);
    this.advanceWindows(v, state);
    this.fillDerived(v, state);
    this.fillEpisode(v, inRecovery);
    this.heading.update(action, inRecovery);
    v[this.s.headingX] = this.heading.x;
    v[this.s.headingY] = this.heading.y;
    this.fillWorld(v, env);
    for (let i = 0; i < STATE_DIM; i++) this.prevState[i] = state[i]!;
    // Until the loop commits what it really sent, assume the proposal was executed.
    for (let i = 0; i < ACTION_DIM; i++) this.executed[i] = action[i]!;
    this.hasPrev = this.hasExecuted = true;
    this.step++;
    return this.frame;
  }

  /**
   * This step's state has arrived: the lag estimate learns how the last executed command was
   * realized. fill() does it where nobody did; the control loop does it first, before the policy is
   * asked, so that a chunk asked for now is waited for or placed with the lag this very observation
   * tells (on the first steps of motion, the lag is known one observation sooner).
   */
  observe(state: ArrayLike<number>): void {
    if (this.observedStep === this.step) return;
    this.observedStep = this.step;
    this.sentUnobserved = false;
    if (!this.hasPrev || !this.hasExecuted) return;
    const e = this.executed;
    this.lag.observe(
      e[0]! * TRANS_SCALE_M,
      e[1]! * TRANS_SCALE_M,
      e[2]! * TRANS_SCALE_M,
      state[0]! - this.prevState[0]!,
      state[1]! - this.prevState[1]!,
      state[2]! - this.prevState[2]!,
    );
  }

  /**
   * Translation (m) commanded but not yet visible in the state when the next command is sent: what
   * a chunk asked for now would plan again. 0 on a robot without measured lag.
   */
  motionInFlight(): number {
    if (!this.sentUnobserved) return this.lag.inFlight();
    const e = this.executed;
    return this.lag.inFlightAfter(Math.hypot(e[0]!, e[1]!, e[2]!) * TRANS_SCALE_M);
  }

  /** Steps by which commands land late, as measured so far (0 until measured: nothing to align). */
  measuredLagSteps(): number {
    const lag = this.lag.steps;
    return Number.isNaN(lag) ? 0 : lag;
  }

  /** motionInFlight() as a vector (m) into `out`: where a chunk planned now should start. */
  motionInFlightVector(out: Float64Array): Float64Array {
    if (!this.sentUnobserved) return this.lag.inFlightVector(out);
    const e = this.executed;
    return this.lag.inFlightVectorAfter(e[0]! * TRANS_SCALE_M, e[1]! * TRANS_SCALE_M, e[2]! * TRANS_SCALE_M, out);
  }

  /** The action actually sent to the env this step (after governor, recovery and envelope). */
  commit(executed: ArrayLike<number>): void {
    for (let i = 0; i < ACTION_DIM; i++) this.executed[i] = executed[i]!;
    this.hasExecuted = true;
    this.sentUnobserved = true;
  }

  private fillCommand(v: Float64Array, a: ArrayLike<number>): void {
    const s = this.s;
    let finite = 1;
    for (let i = 0; i < ACTION_DIM; i++) {
      const x = a[i]!;
      v[s.action[i]!] = x;
      if (!Number.isFinite(x)) finite = 0;
    }
    v[s.finite] = finite;
    v[s.transM] = Math.hypot(a[0]!, a[1]!, a[2]!) * TRANS_SCALE_M;
    v[s.rotRad] = Math.hypot(a[3]!, a[4]!, a[5]!) * ROT_SCALE_RAD;
    const g = a[GRIPPER_INDEX]!;
    v[s.gripperClose] = Number.isNaN(g) ? Number.NaN : g > 0 ? 1 : 0;
    const prevG = this.hasExecuted ? this.executed[GRIPPER_INDEX]! : Number.NaN;
    v[s.prevGripper] = prevG;
    v[s.gripperFlip] = Number.isNaN(g) || Number.isNaN(prevG) ? Number.NaN : g > 0 !== prevG > 0 ? 1 : 0;
  }

  /** How the last executed action was realized: direction cosine, ratio, stall. */
  private fillRealization(v: Float64Array, state: ArrayLike<number>): void {
    const s = this.s;
    this.observe(state);
    if (!this.hasPrev || !this.hasExecuted) {
      v[s.prevTransM] = v[s.realizedM] = v[s.dirCos] = v[s.ratio] = v[s.stalled] = Number.NaN;
      v[s.actuationLag] = Number.NaN;
      v[s.motionInFlight] = 0;
      v[s.motionExplained] = Number.NaN;
      v[s.stalledSteps] = 0;
      return;
    }
    const e = this.executed;
    let cx = e[0]! * TRANS_SCALE_M,
      cy = e[1]! * TRANS_SCALE_M,
      cz = e[2]! * TRANS_SCALE_M;
    const rx = state[0]! - this.prevState[0]!,
      ry = state[1]! - this.prevState[1]!,
      rz = state[2]! - this.prevState[2]!;
    v[s.actuationLag] = this.lag.steps;
    v[s.motionInFlight] = this.lag.inFlight();
    v[s.motionExplained] = this.lag.explainedShare;
    // The motion is compared with the command landing now: on a lagging robot, the one sent
    // actuation_lag steps before the last (a non-finite proposal stays unknown).
    if (Number.isFinite(cx + cy + cz)) {
      const l = this.lag.landing(this.landing);
      cx = l[0]!;
      cy = l[1]!;
      cz = l[2]!;
    }
    const cmd = Math.hypot(cx, cy, cz);
    const real = Math.hypot(rx, ry, rz);
    v[s.prevTransM] = cmd;
    v[s.realizedM] = real;
    if (cmd < MIN_DIRECTION_M || Number.isNaN(cmd)) {
      v[s.dirCos] = v[s.ratio] = Number.NaN;
    } else {
      // No realized motion at all is treated as orthogonal (cosine 0), not as unknown.
      v[s.dirCos] = real > 1e-12 ? (cx * rx + cy * ry + cz * rz) / (cmd * real) : 0;
      v[s.ratio] = real / cmd;
    }
    // A hand that has not moved yet this episode may only be waiting for its first commands to land.
    const unknown = Number.isNaN(cmd) || Number.isNaN(real) || this.lag.unsettled;
    const stalled = unknown ? Number.NaN : cmd >= this.o.stallMinCommandM && real < this.o.stallRatio * cmd ? 1 : 0;
    v[s.stalled] = stalled;
    this.stalledSteps = stalled === 1 ? this.stalledSteps + 1 : 0;
    v[s.stalledSteps] = this.stalledSteps;
  }

  /** Chattering, oscillation and progress windows, advanced once per step. */
  private advanceWindows(v: Float64Array, state: ArrayLike<number>): void {
    const s = this.s;
    const w = this.o.window;
    if (this.hasExecuted) {
      const e = this.executed;
      const g = e[GRIPPER_INDEX]!;
      const flip = this.hasOlder && g > 0 !== this.olderGripper > 0 ? 1 : 0;
      const dot = e[0]! * this.olderTrans[0]! + e[1]! * this.olderTrans[1]! + e[2]! * this.olderTrans[2]!;
      const reversal = this.hasOlder && dot < -1e-6 ? 1 : 0;
      this.flips[this.ringHead] = flip;
      this.reversals[this.ringHead] = reversal;
      this.ringHead = (this.ringHead + 1) % w;
      if (this.ringCount < w) this.ringCount++;
      this.olderGripper = g;
      for (let i = 0; i < 3; i++) this.olderTrans[i] = e[i]!;
      this.hasOlder = true;
    }
    let flips = 0,
      reversals = 0;
    for (let i = 0; i < w; i++) {
      flips += this.flips[i]!;
      reversals += this.reversals[i]!;
    }
    v[s.gripperFlips] = flips;
    v[s.motionReversals] = reversals;
    this.pushPosition(state);
    v[s.netMotion] = this.posCount === w + 1 ? this.netMotion() : Number.NaN;
  }

  private pushPosition(state: ArrayLike<number>): void {
    const p = this.positions;
    const h = 3 * this.posHead;
    p[h] = state[0]!;
    p[h + 1] = state[1]!;
    p[h + 2] = state[2]!;
    this.posHead = (this.posHead + 1) % (this.o.window + 1);
    if (this.posCount < this.o.window + 1) this.posCount++;
  }

  /** Displacement from the oldest stored position (when full, the one at posHead) to the newest. */
  private netMotion(): number {
    const p = this.positions;
    const n = this.o.window + 1;
    const oldest = 3 * this.posHead;
    const newest = 3 * ((this.posHead + n - 1) % n);
    return Math.hypot(p[newest]! - p[oldest]!, p[newest + 1]! - p[oldest + 1]!, p[newest + 2]! - p[oldest + 2]!);
  }

  private fillDerived(v: Float64Array, st: ArrayLike<number>): void {
    const s = this.s;
    const hz = this.o.controlHz;
    const p = this.prevState;
    const width = Math.abs(st[6]!) + Math.abs(st[7]!);
    v[s.height] = st[2]! - this.o.tableZ;
    v[s.width] = width;
    if (this.hasPrev) {
      v[s.speed] = Math.hypot(st[0]! - p[0]!, st[1]! - p[1]!, st[2]! - p[2]!) * hz;
      v[s.vz] = (st[2]! - p[2]!) * hz;
      v[s.rotSpeed] = relativeRotationAngle(p[3]!, p[4]!, p[5]!, st[3]!, st[4]!, st[5]!) * hz;
    } else {
      v[s.speed] = v[s.vz] = v[s.rotSpeed] = Number.NaN;
    }
    const rate = width - this.prevWidth; // NaN on the first step
    v[s.widthRate] = rate;
    const closeCmd = this.hasExecuted ? (this.executed[GRIPPER_INDEX]! > 0 ? 1 : 0) : Number.NaN;
    const settled = Math.abs(rate) < this.o.gripperSettleM;
    const known = !Number.isNaN(closeCmd) && !Number.isNaN(rate);
    v[s.closing] = known ? (closeCmd === 1 && rate < -this.o.gripperSettleM ? 1 : 0) : Number.NaN;
    v[s.closed] = known ? (closeCmd === 1 && settled ? 1 : 0) : Number.NaN;
    const closedEmpty = closeCmd === 1 && settled && width < this.o.emptyWidthM;
    v[s.closedEmpty] = known ? (closedEmpty ? 1 : 0) : Number.NaN;
    // An open command ends a grasp; closing fingers that settle wider than empty hold something.
    // Fingers still wide open before a lagging close lands hold nothing.
    if (closeCmd !== 1) this.held = this.closingSeen = false;
    else if (rate < -this.o.gripperSettleM) this.closingSeen = true;
    else if (settled && width >= this.o.emptyWidthM && this.closingSeen) this.held = true;
    v[s.gripLost] = known ? (closedEmpty && this.held ? 1 : 0) : Number.NaN;
    this.prevWidth = width;
  }

  private fillEpisode(v: Float64Array, inRecovery: boolean): void {
    const s = this.s;
    if (inRecovery) {
      if (!this.wasInRecovery) {
        this.recoveries++;
        this.recoverySteps = 0;
      }
      this.sinceRecovery = 0;
    }
    v[s.step] = this.step;
    v[s.inRecovery] = inRecovery ? 1 : 0;
    v[s.recoverySteps] = inRecovery ? this.recoverySteps : 0;
    v[s.recoveries] = this.recoveries;
    v[s.sinceRecovery] = inRecovery ? 0 : this.recoveries === 0 ? this.step : this.sinceRecovery;
    v[s.policySteps] = this.policySteps;
    if (inRecovery) this.recoverySteps++;
    else {
      this.policySteps++;
      if (this.wasInRecovery) this.sinceRecovery = 0;
      this.sinceRecovery++;
    }
    this.wasInRecovery = inRecovery;
  }

  /** The world's features: observed ones always, privileged ones only when the run authorizes them. */
  private fillWorld(v: Float64Array, env: WorldFeatureInput | null | undefined): void {
    this.world.read(v, env);
  }
}
