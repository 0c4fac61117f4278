import { describe, expect, it } from 'vitest';
import { ActuationLag, MAX_LAG_STEPS } from '../../critic/features/actuation-lag.js';
import { Rng } from '../../sim/math/rng.js';

/** Drives the estimator with smooth random commands that land `delay` steps late, plus position noise. */
function drive(delay: number, steps: number, noiseM = 0, seed = 7): ActuationLag {
  const lag = new ActuationLag();
  const rng = Rng.derive('lag', seed, 'commands');
  const sent: [number, number, number][] = [];
  let c: [number, number, number] = [0, 0, 0];
  for (let t = 0; t < steps; t++) {
    // a command that wanders (policies are smooth, so neighbouring lags correlate too)
    c = [0.8 * c[0] + 0.004 * rng.normal(), 0.8 * c[1] + 0.004 * rng.normal(), 0.8 * c[2] + 0.004 * rng.normal()];
    sent.push(c);
    const landed = sent[t - delay] ?? [0, 0, 0];
    lag.observe(c[0], c[1], c[2], landed[0] + noiseM * rng.normal(), landed[1] + noiseM * rng.normal(), landed[2] + noiseM * rng.normal());
  }
  return lag;
}

describe('ActuationLag', () => {
  it('is unknown until enough commanded motion was seen', () => {
    expect(drive(0, 2).steps).toBeNaN();
  });

  it('measures a prompt robot as 0 and a delayed one as its delay, through noise of the size of the motion', () => {
    expect(drive(0, 200).steps).toBe(0);
    expect(drive(2, 200).steps).toBe(2);
    expect(drive(4, 200).steps).toBe(4);
    expect(drive(2, 400, 0.004).steps).toBe(2);
  });

  it('follows a lag that changes', () => {
    const lag = new ActuationLag();
    const rng = Rng.derive('lag', 3, 'commands');
    const sent: number[] = [];
    let c = 0;
    for (let t = 0; t < 600; t++) {
      c = 0.8 * c + 0.004 * rng.normal();
      sent.push(c);
      const delay = t < 300 ? 0 : 3;
      lag.observe(c, 0, 0, sent[t - delay] ?? 0, 0, 0);
    }
    expect(lag.steps).toBe(3);
  });

  it('counts as in flight what was commanded in the last lag steps, and nothing on a prompt robot', () => {
    const delayed = drive(2, 200);
    const prompt = drive(0, 200);
    expect(prompt.inFlight()).toBe(0);
    expect(prompt.inFlightAfter(0.01)).toBe(0);
    expect(delayed.inFlight()).toBeGreaterThan(0);
    // one step later the pending command joins the newest one of the two
    expect(delayed.inFlightAfter(0.01)).toBeGreaterThan(0.01);
    expect(delayed.inFlightAfter(0.01)).toBeLessThan(0.01 + delayed.inFlight() + 1e-12);
  });

  it('sums what is in flight as a vector: the pending command and the lag − 1 before it', () => {
    const lag = new ActuationLag();
    const sent: number[] = [];
    for (let t = 0; t < 200; t++) {
      const c = 0.002 * Math.sin(t / 7) + 0.003; // moving +x, smooth, varying speed
      sent.push(c);
      lag.observe(c, -c, 0, sent[t - 3] ?? 0, -(sent[t - 3] ?? 0), 0);
    }
    expect(lag.steps).toBe(3);
    const v = lag.inFlightVectorAfter(0.01, -0.01, 0.002, new Float64Array(3));
    expect(v[0]).toBeCloseTo(0.01 + sent[199]! + sent[198]!, 12);
    expect(v[1]).toBeCloseTo(-(0.01 + sent[199]! + sent[198]!), 12);
    expect(v[2]).toBeCloseTo(0.002, 12);
    expect(Array.from(drive(0, 200).inFlightVectorAfter(0.01, 0.01, 0.01, new Float64Array(3)))).toEqual([0, 0, 0]);
  });

  it('names the command landing now: the newest on a prompt robot, the one sent lag steps before it on a lagging one', () => {
    const lag = new ActuationLag();
    const sent: number[] = [];
    for (let t = 0; t < 60; t++) {
      const c = 0.01 * (1 + (t % 7)); // distinct lengths, always moving
      sent.push(c);
      lag.observe(c, 0, 0, sent[t - 2] ?? 0, 0, 0);
    }
    expect(lag.steps).toBe(2);
    expect(lag.landing(new Float64Array(3))[0]).toBe(sent[57]);
    const prompt = drive(0, 200);
    const out = prompt.landing(new Float64Array(3));
    expect(Math.hypot(out[0]!, out[1]!, out[2]!)).toBeGreaterThan(0);
  });

  it('says how much of the motion the commands explain: nearly all on a clean robot, less under sensor noise', () => {
    expect(drive(2, 2).explainedShare).toBeNaN();
    const clean = drive(2, 400).explainedShare;
    const noisy = drive(2, 400, 0.004).explainedShare;
    expect(clean).toBeGreaterThan(0.95);
    expect(noisy).toBeLessThan(clean - 0.1);
  });

  it('is unsettled while the hand has not moved yet, for at most MAX_LAG_STEPS commanded steps', () => {
    const late = new ActuationLag();
    expect(late.unsettled).toBe(true);
    for (let t = 0; t < 4; t++) late.observe(0.01, 0, 0, 0, 0, 0); // commanded, nothing landed yet
    expect(late.unsettled).toBe(true);
    late.observe(0.01, 0, 0, 0.01, 0, 0); // the first command lands
    expect(late.unsettled).toBe(false);
    const blocked = new ActuationLag();
    for (let t = 0; t < MAX_LAG_STEPS; t++) blocked.observe(0.01, 0, 0, 0, 0, 0);
    expect(blocked.unsettled).toBe(true);
    blocked.observe(0.01, 0, 0, 0, 0, 0); // longer than any lag looked for: the hand is blocked
    expect(blocked.unsettled).toBe(false);
    blocked.reset();
    expect(blocked.unsettled).toBe(true);
  });

  it('starts over on reset', () => {
    const lag = drive(2, 200);
    lag.reset();
    expect(lag.steps).toBeNaN();
    expect(lag.explainedShare).toBeNaN();
    expect(lag.inFlight()).toBe(0);
  });
});
