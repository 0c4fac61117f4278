// The RecoveryExecutor runs one recovery program at a time, one action per control step, from
// features only. It is the only writer of recovery actions; the envelope still limits them.
//
// Re-entry contract. After its tool steps (or a fallback) the program enters re-entry: it holds
// still until (a) the failure evidence is cleared — the triggering rule's condition no longer holds,
// which the control loop passes in as `evidenceClear` (`critic.isClear(ruleIndex)`) — and (b) the
// state has been stable for `reentry.stable_steps` consecutive steps (eef speed and finger motion
// below the program's thresholds). Then `tick` returns RECOVERY_REENTER without writing an action:
// control is back with the policy *this* step, and the loop must drop the stale chunk (planned
// before the recovery moved the robot) and request a fresh one.
//
// Actuation lag. A program with `lag_steps` L > 1 drives a robot whose commands take effect L − 1
// steps late: a tool servoing on the observed hand would keep commanding motion that is already on
// its way, overshoot and oscillate. The executor therefore shows its tools the hand where the
// program's last L − 1 commands will have taken it (a Smith predictor on the translation), and
// restores the frame afterwards; `until` conditions and re-entry still read what is observed.
//
// Budget: every tick that writes an action spends one step of `program.budget`; the tick after the
// last one ends the program (RECOVERY_REENTER with outcome 'exhausted', or RECOVERY_ABORT when
// `on_exhausted` is 'abort'). So `tick` returns a terminal code by call budget + 1 at the latest,
// whatever the frames say.
import { TRANS_SCALE_M, writeHold } from '../action.js';
import { FeatureFrame } from '../features/frame.js';
import { TRUE } from '../rules/truth.js';
import { FALLBACK_ABORT, FALLBACK_HOLD, FALLBACK_SKIP, type CompiledProgram, type CompiledStep, type RecoveryLibrary } from './compile.js';
import { EEF, gripperFor } from './motion.js';
import { MAX_LAG_STEPS } from './schema.js';

/** An action was written into `out`; the recovery continues. */
export const RECOVERY_ACTING = 0;
/** Done: control returns to the policy now (no action written); drop the stale chunk, fetch a fresh one. */
export const RECOVERY_REENTER = 1;
/** Done: the program asks for the episode to be aborted (no action written). */
export const RECOVERY_ABORT = 2;
export type RecoveryTick = typeof RECOVERY_ACTING | typeof RECOVERY_REENTER | typeof RECOVERY_ABORT;

export type RecoveryOutcome = 'idle' | 'running' | 'resumed' | 'exhausted' | 'aborted' | 'cancelled';

const PHASE_STEPS = 0;
const PHASE_REENTRY = 1;
const PHASE_DONE = 2;

const SPEED = FeatureFrame.index('derived.eef_speed');
const WIDTH_RATE = FeatureFrame.index('derived.gripper_width_rate');
const ACTUATION_LAG = FeatureFrame.index('derived.actuation_lag');
const MOTION_EXPLAINED = FeatureFrame.index('derived.motion_explained');
/**
 * `lag_steps: "measured"` acts on the measured lag only where the commands explain the hand's motion
 * this well (a clean robot: 0.88–0.95). Sensor noise in the state lowers the share and makes the
 * estimate flicker; compensating at it there cost 3.6 points under sensor-noise-delay.
 */
const MEASURED_LAG_MIN_EXPLAINED = 0.85;
const NO_STEPS: readonly CompiledStep[] = [];

export class RecoveryExecutor {
  private program: CompiledProgram | null = null;
  private phase = PHASE_DONE;
  private seq: readonly CompiledStep[] = NO_STEPS;
  private index = 0;
  private stepTicks = 0;
  private stable = 0;
  /** Actions written by the current (or last) program. */
  ticks = 0;
  /** Steps whose `until` did not hold within their budget, in the current (or last) program. */
  failedSteps = 0;
  outcome: RecoveryOutcome = 'idle';
  /** The program's last translations (x, y, z per tick, normalized), a ring of MAX_LAG_STEPS. */
  private readonly sent = new Float64Array(3 * MAX_LAG_STEPS);
  private readonly observed = new Float64Array(3);

  constructor(readonly library: RecoveryLibrary) {}

  get running(): boolean {
    return this.program !== null && this.phase !== PHASE_DONE;
  }

  /** Id of the running program, or null: what the governor's `decide` takes as `running`. */
  get runningId(): string | null {
    return this.running ? this.program!.id : null;
  }

  /** In the re-entry phase (tool steps finished, waiting for evidence to clear and stability). */
  get reentering(): boolean {
    return this.running && this.phase === PHASE_REENTRY;
  }

  /** The step now acting, as a path in the recovery file (for logs), or null. */
  get currentStep(): string | null {
    return this.running && this.phase === PHASE_STEPS && this.index < this.seq.length ? this.seq[this.index]!.path : null;
  }

  /** Starts (or switches to) program `id`, from its first step. Throws on an unknown id. */
  start(id: string): void {
    const p = this.library.get(id);
    this.program = p;
    this.phase = PHASE_STEPS;
    this.ticks = this.failedSteps = this.stable = 0;
    this.sent.fill(0);
    this.outcome = 'running';
    this.enter(p.steps);
  }

  /** The governor pre-empted it (hold, abort, or another recovery). */
  cancel(): void {
    if (!this.running) return;
    this.phase = PHASE_DONE;
    this.outcome = 'cancelled';
  }

  /** One control step. See the header for the codes and the re-entry contract. */
  tick(frame: FeatureFrame, evidenceClear: boolean, out: Float32Array): RecoveryTick {
    const p = this.program;
    if (p === null || this.phase === PHASE_DONE) return this.outcome === 'aborted' ? RECOVERY_ABORT : RECOVERY_REENTER;
    const v = frame.values;
    const r = p.reentry;
    this.stable = v[SPEED]! < r.max_speed && Math.abs(v[WIDTH_RATE]!) < r.max_width_rate ? this.stable + 1 : 0;
    if (this.ticks >= p.budget) return this.finish(p.onExhausted === 'abort' ? 'aborted' : 'exhausted');
    if (this.phase === PHASE_STEPS) this.advance(v);
    if (this.phase === PHASE_DONE) return RECOVERY_ABORT; // only a fallback 'abort' ends it here
    if (this.phase === PHASE_REENTRY) {
      if (evidenceClear && this.stable >= r.stable_steps) return this.finish('resumed');
      writeHold(out, gripperFor('keep', v));
    } else {
      this.runTool(p.lagSteps === 'measured' ? measuredLag(v) : p.lagSteps, frame, out);
      this.stepTicks++;
    }
    this.remember(out);
    this.ticks++;
    return RECOVERY_ACTING;
  }

  /** The current step's tool, seeing the hand where the commands in flight will take it. */
  private runTool(lag: number, frame: FeatureFrame, out: Float32Array): void {
    const tool = this.seq[this.index]!.tool;
    if (lag <= 1) return tool.run(frame, out);
    const v = frame.values;
    const observed = this.observed;
    for (let i = 0; i < 3; i++) observed[i] = v[EEF[i]!]!;
    for (let k = 1; k < lag && k <= this.ticks; k++) {
      const at = 3 * ((this.ticks - k) % MAX_LAG_STEPS);
      for (let i = 0; i < 3; i++) v[EEF[i]!]! += this.sent[at + i]! * TRANS_SCALE_M;
    }
    try {
      tool.run(frame, out);
    } finally {
      for (let i = 0; i < 3; i++) v[EEF[i]!] = observed[i]!;
    }
  }

  private remember(out: Float32Array): void {
    const at = 3 * (this.ticks % MAX_LAG_STEPS);
    for (let i = 0; i < 3; i++) this.sent[at + i] = out[i]!;
  }

  /**
   * Moves past finished steps until one should act now, or the phase changes. Each pass moves
   * forward in a finite tree of steps, so the loop ends.
   */
  private advance(v: Float64Array): void {
    while (this.phase === PHASE_STEPS) {
      if (this.index >= this.seq.length) {
        this.phase = PHASE_REENTRY;
        return;
      }
      const s = this.seq[this.index]!;
      // The stop condition is evaluated every tick of its step so its windows stay contiguous.
      const done = s.until !== null && s.until.fn(v) === TRUE;
      if (done || (s.until === null && this.stepTicks >= s.budget)) this.next();
      else if (this.stepTicks >= s.budget) this.fail(s);
      else return;
    }
  }

  private fail(s: CompiledStep): void {
    this.failedSteps++;
    switch (s.fallback) {
      case FALLBACK_HOLD:
        this.phase = PHASE_REENTRY;
        return;
      case FALLBACK_ABORT:
        this.phase = PHASE_DONE;
        this.outcome = 'aborted';
        return;
      case FALLBACK_SKIP:
        this.next();
        return;
      default:
        // Plan B replaces the rest of the program; after it, re-entry.
        this.enter(s.fallbackSteps);
    }
  }

  private enter(seq: readonly CompiledStep[]): void {
    this.seq = seq;
    this.index = -1;
    this.next();
  }

  private next(): void {
    this.index++;
    this.stepTicks = 0;
    const s = this.seq[this.index];
    const resets = s?.until?.resets;
    if (resets) for (let k = 0; k < resets.length; k++) resets[k]!();
  }

  private finish(outcome: RecoveryOutcome): RecoveryTick {
    this.phase = PHASE_DONE;
    this.outcome = outcome;
    return outcome === 'aborted' ? RECOVERY_ABORT : RECOVERY_REENTER;
  }
}

/**
 * The critic's online lag as `lag_steps` (its 0 is a prompt robot, lag_steps 1); 1 until measured,
 * and where the commands explain too little of the motion to trust it.
 */
function measuredLag(v: Float64Array): number {
  const lag = v[ACTUATION_LAG]!;
  const trusted = v[MOTION_EXPLAINED]! >= MEASURED_LAG_MIN_EXPLAINED;
  return Number.isFinite(lag) && trusted ? Math.min(MAX_LAG_STEPS, lag + 1) : 1;
}
