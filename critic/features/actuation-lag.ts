// How late the robot's commands land, measured online from what the critic already sees: the
// translations it executed and the hand's displacement since. A robot whose commands take effect
// steps later (an actuation or sensing delay) has motion "in flight" at every moment: commanded,
// not yet visible in the state. A chunk planned from that state plans that motion again; the
// runtime can wait it out before asking (manifest `wait_out_lag`), or start the fresh chunk past the
// actions that plan it again (manifest `align_chunks_to_lag`, chunk-alignment.ts).
//
// Lag k (1: a command moves the hand by the next observation) is the k at which the command sent
// k steps ago best explains this step's displacement d_t: the largest share of the displacement
// explained by a gain times e_{t−k}, (Σ e_{t−k}·d_t)² / (Σ |e_{t−k}|² · Σ |d_t|²), over decayed sums.
// Commands before the episode count as zero (the robot starts at rest), so the first steps of
// motion already tell the lags apart: a hand that did not move while the first commands were sent
// is not explained by them. A policy's commands are smooth, so a bare correlation could not tell
// neighbouring lags apart until the motion changed; by then the first approach has overshot.
// The offline twin over recorded episodes is evolution/diagnosis/actuation-lag.ts.

/** Largest lag looked for, in control steps (the recovery schema compensates up to 8). */
export const MAX_LAG_STEPS = 8;
/** Per-step decay of the correlation scores: about 2.5 s of memory at 20 Hz, so a changing lag is followed. */
const DECAY = 0.98;
/** Steps with commanded motion needed before the lag is reported (before, NaN). */
const MIN_MOVING_STEPS = 3;
/** Share of the displacement the best lag must explain to be reported (noise alone explains little). */
const MIN_EXPLAINED = 0.5;
/** A command shorter than this (m) carries no direction worth correlating. */
const MIN_COMMAND_M = 1e-3;

export class ActuationLag {
  /** Executed translations (m), most recent first at `head`; a ring of MAX_LAG_STEPS. */
  private readonly sent = new Float64Array(3 * MAX_LAG_STEPS);
  /** Decayed Σ e_{t−k}·d_t and Σ |e_{t−k}|², by k; and Σ |d_t|². */
  private readonly cross = new Float64Array(MAX_LAG_STEPS + 1);
  private readonly sentEnergy = new Float64Array(MAX_LAG_STEPS + 1);
  private realizedEnergy = 0;
  private head = 0;
  private count = 0;
  private moving = 0;
  private lag = Number.NaN;
  private explained = Number.NaN;
  private handMoved = false;

  reset(): void {
    this.sent.fill(0);
    this.cross.fill(0);
    this.sentEnergy.fill(0);
    this.realizedEnergy = 0;
    this.head = this.count = this.moving = 0;
    this.lag = this.explained = Number.NaN;
    this.handMoved = false;
  }

  /**
   * One step: `executed` is the translation sent last step (m), `realized` the hand's displacement
   * since the step before (m). Updates the lag estimate.
   */
  observe(ex: number, ey: number, ez: number, rx: number, ry: number, rz: number): void {
    this.head = (this.head + MAX_LAG_STEPS - 1) % MAX_LAG_STEPS;
    const h = 3 * this.head;
    // a non-finite proposal (never executed: the envelope stops it) moved nothing
    const finite = Number.isFinite(ex + ey + ez);
    this.sent[h] = finite ? ex : 0;
    this.sent[h + 1] = finite ? ey : 0;
    this.sent[h + 2] = finite ? ez : 0;
    if (!finite) ex = ey = ez = 0;
    if (this.count < MAX_LAG_STEPS) this.count++;
    if (Math.hypot(ex, ey, ez) >= MIN_COMMAND_M) this.moving++;
    if (!Number.isFinite(rx + ry + rz)) return;
    if (Math.hypot(rx, ry, rz) >= MIN_COMMAND_M) this.handMoved = true;
    this.realizedEnergy = DECAY * this.realizedEnergy + rx * rx + ry * ry + rz * rz;
    for (let k = 1; k <= MAX_LAG_STEPS; k++) {
      const at = 3 * ((this.head + k - 1) % MAX_LAG_STEPS);
      const sx = this.sent[at]!,
        sy = this.sent[at + 1]!,
        sz = this.sent[at + 2]!;
      this.cross[k] = DECAY * this.cross[k]! + sx * rx + sy * ry + sz * rz;
      this.sentEnergy[k] = DECAY * this.sentEnergy[k]! + sx * sx + sy * sy + sz * sz;
    }
    if (this.moving < MIN_MOVING_STEPS) return;
    let best = 0;
    let bestExplained = 0;
    for (let k = 1; k <= MAX_LAG_STEPS; k++) {
      const c = this.cross[k]!;
      if (c <= 0) continue; // a command the hand moved against does not explain it
      const explained = (c * c) / (this.sentEnergy[k]! * this.realizedEnergy);
      if (explained > bestExplained) {
        bestExplained = explained;
        best = k;
      }
    }
    this.lag = best > 0 && bestExplained >= MIN_EXPLAINED ? best - 1 : Number.NaN;
    this.explained = bestExplained;
  }

  /**
   * True while the hand has not moved yet this episode, for at most MAX_LAG_STEPS steps of
   * commanded motion: such a hand may be blocked, or its first commands may not have landed yet,
   * and nothing tells the two apart until it moves. Past MAX_LAG_STEPS commanded steps the lag
   * would be longer than any looked for: the hand is blocked.
   */
  get unsettled(): boolean {
    return !this.handMoved && this.moving <= MAX_LAG_STEPS;
  }

  /** Steps by which commands land later than the next observation: 0 on a prompt robot, NaN until measured. */
  get steps(): number {
    return this.lag;
  }

  /**
   * Share (0–1) of the hand's recent displacement that the commands explain at the best lag; NaN
   * until measured. Near 1 on a clean robot; sensor noise in the state adds displacement that no
   * command explains, and lowers it.
   */
  get explainedShare(): number {
    return this.explained;
  }

  /** Writes into `out` the translation (m) whose effect the last observe() saw land: sent `lag` steps before the newest. */
  landing(out: Float64Array): Float64Array {
    const k = Math.min(this.lagOrZero(), this.count - 1);
    const at = 3 * ((this.head + Math.max(0, k)) % MAX_LAG_STEPS);
    out[0] = this.sent[at]!;
    out[1] = this.sent[at + 1]!;
    out[2] = this.sent[at + 2]!;
    return out;
  }

  /** Translation (m) commanded in the last `lag` steps observed, which the state does not show yet. */
  inFlight(): number {
    return this.recent(this.lagOrZero());
  }

  /**
   * The same, one step later: `pending` (m) was sent after the last observe(), so it and the
   * lag − 1 commands before it are in flight.
   */
  inFlightAfter(pending: number): number {
    const lag = this.lagOrZero();
    return lag === 0 ? 0 : pending + this.recent(lag - 1);
  }

  /** inFlight() as a vector (m), summed into `out`: where a fresh chunk starts (chunk-alignment.ts). */
  inFlightVector(out: Float64Array): Float64Array {
    return this.recentVector(this.lagOrZero(), out);
  }

  /** inFlightAfter() as a vector: `pending` (m, sent after the last observe()) plus the lag − 1 commands before it. */
  inFlightVectorAfter(px: number, py: number, pz: number, out: Float64Array): Float64Array {
    const lag = this.lagOrZero();
    if (lag === 0) return out.fill(0);
    this.recentVector(lag - 1, out);
    out[0] += px;
    out[1] += py;
    out[2] += pz;
    return out;
  }

  /** Σ of the n most recent commands in the ring, as a vector into `out`. */
  private recentVector(n: number, out: Float64Array): Float64Array {
    out[0] = out[1] = out[2] = 0;
    for (let j = 0; j < Math.min(n, this.count); j++) {
      const at = 3 * ((this.head + j) % MAX_LAG_STEPS);
      out[0] += this.sent[at]!;
      out[1] += this.sent[at + 1]!;
      out[2] += this.sent[at + 2]!;
    }
    return out;
  }

  private lagOrZero(): number {
    return Number.isNaN(this.lag) ? 0 : this.lag;
  }

  /** Σ of the lengths of the n most recent commands in the ring. */
  private recent(n: number): number {
    let total = 0;
    for (let j = 0; j < Math.min(n, this.count); j++) {
      const at = 3 * ((this.head + j) % MAX_LAG_STEPS);
      total += Math.hypot(this.sent[at]!, this.sent[at + 1]!, this.sent[at + 2]!);
    }
    return total;
  }
}
