// retune_program: the parent's recovery program runs out of budget because its thresholds are
// tighter than the noise in the state it reads. Two places wait on the state: `move_above` will not
// descend while the horizontal error exceeds `xy_tol`, and re-entry waits until the hand *looks*
// still (speed below `reentry.max_speed`, finger motion below `max_width_rate`) — under sensor noise
// a motionless hand never looks still, and the program holds until its budget is gone. Both are
// refitted from the recordings of the program driving: the horizontal errors it met (90th
// percentile), and the apparent speed and finger motion while it commanded no motion at all (90th
// percentile, with 50% margin). Thresholds are only ever widened.
import type { EpisodeRecord } from '../../zinfra/recording/episode-record.js';
import { featureSeries } from '../clustering/signature.js';

/** Tolerances stay within these (m): tighter than the default is never the fix, wider sweeps low. */
const MIN_TOL = 0.015;
const MAX_TOL = 0.04;
const POINT_FEATURES: Readonly<Record<string, readonly [string, string]>> = {
  object: ['subject_x', 'subject_y'],
  target: ['target_x', 'target_y'],
  handle: ['handle_x', 'handle_y'],
};

type Json = Record<string, unknown>;

/** Per point, the fitted tolerance (points the program never aimed at while driving are absent). */
export function fitTolerances(programId: string, failures: readonly EpisodeRecord[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [point, [fx, fy]] of Object.entries(POINT_FEATURES)) {
    const errors: number[] = [];
    for (const r of failures) {
      const ex = featureSeries(r, 'eef_x'),
        ey = featureSeries(r, 'eef_y'),
        px = featureSeries(r, fx),
        py = featureSeries(r, fy);
      r.steps.forEach((s, t) => {
        if (s.decision?.kind !== 'recover' || s.decision.recovery !== programId) return;
        const e = Math.hypot(ex[t]! - px[t]!, ey[t]! - py[t]!);
        if (Number.isFinite(e)) errors.push(e);
      });
    }
    if (errors.length < 10) continue;
    errors.sort((a, b) => a - b);
    const q90 = errors[Math.floor(0.9 * (errors.length - 1))]!;
    out[point] = Math.round(Math.min(MAX_TOL, Math.max(MIN_TOL, q90)) * 10_000) / 10_000;
  }
  return out;
}

/** Apparent motion of a motionless hand, as the critic's features see it (FrameBuilder's formulas). */
export function fitReentry(programId: string, failures: readonly EpisodeRecord[]): { max_speed: number; max_width_rate: number } | null {
  const speeds: number[] = [];
  const widthRates: number[] = [];
  for (const r of failures) {
    for (let t = 1; t < r.steps.length; t++) {
      const s = r.steps[t]!;
      const prev = r.steps[t - 1]!;
      if (s.decision?.kind !== 'recover' || s.decision.recovery !== programId) continue;
      // still: nothing commanded this step or the last (the hand has settled)
      if (
        Math.hypot(s.action[0]!, s.action[1]!, s.action[2]!) > 1e-6 ||
        Math.hypot(prev.action[0]!, prev.action[1]!, prev.action[2]!) > 1e-6
      )
        continue;
      const d = Math.hypot(s.state[0]! - prev.state[0]!, s.state[1]! - prev.state[1]!, s.state[2]! - prev.state[2]!);
      speeds.push(d * r.header.controlHz);
      widthRates.push(Math.abs(Math.abs(s.state[6]!) + Math.abs(s.state[7]!) - Math.abs(prev.state[6]!) - Math.abs(prev.state[7]!)));
    }
  }
  if (speeds.length < 10) return null;
  const q90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(0.9 * (xs.length - 1))]!;
  const round = (x: number) => Number((1.5 * x).toPrecision(3));
  return { max_speed: round(q90(speeds)), max_width_rate: round(q90(widthRates)) };
}

/** The program with its thresholds widened to the fitted ones (never narrowed). */
export function retuneProgram(
  program: Json,
  tolerances: Readonly<Record<string, number>>,
  reentry: { max_speed: number; max_width_rate: number } | null,
): Json {
  const retuneSteps = (steps: unknown): unknown =>
    Array.isArray(steps)
      ? steps.map((raw) => {
          const step = { ...(raw as Json) };
          const params = (step.params ?? {}) as Json;
          const point = typeof params.point === 'string' ? params.point : null;
          if (step.tool === 'move_above' && point && tolerances[point] !== undefined) {
            const current = typeof params.xy_tol === 'number' ? params.xy_tol : 0.01;
            step.params = { ...params, xy_tol: Math.max(current, tolerances[point]!) };
          }
          const fb = step.fallback as Json | string | undefined;
          if (fb && typeof fb === 'object' && 'steps' in fb) step.fallback = { ...fb, steps: retuneSteps(fb.steps) };
          return step;
        })
      : steps;
  const current = (program.reentry ?? {}) as Json;
  const widened = reentry
    ? {
        reentry: {
          ...current,
          max_speed: Math.max(typeof current.max_speed === 'number' ? current.max_speed : 0.02, reentry.max_speed),
          max_width_rate: Math.max(typeof current.max_width_rate === 'number' ? current.max_width_rate : 5e-4, reentry.max_width_rate),
        },
      }
    : {};
  return { ...program, ...widened, steps: retuneSteps(program.steps) };
}

/** Tools that servo toward a point, and so overshoot when commands land late (critic/recovery/tools.ts). */
const SERVO_TOOLS = new Set(['move_above', 'descend', 'lower']);

/**
 * compensate_lag: the program told the actuation lag (`lag_steps`), so its tools servo on the hand
 * predicted from the commands in flight; null when the program has no servoing step or already
 * knows that lag.
 */
export function withActuationLag(program: Json, lag: number): Json | null {
  // a program that follows the measured lag already knows this one
  if (program.lag_steps === lag || program.lag_steps === 'measured') return null;
  const servoes = (steps: unknown): boolean =>
    Array.isArray(steps) &&
    steps.some((raw) => {
      const step = raw as Json;
      const fb = step.fallback as Json | string | undefined;
      return (typeof step.tool === 'string' && SERVO_TOOLS.has(step.tool)) || (!!fb && typeof fb === 'object' && servoes(fb.steps));
    });
  return servoes(program.steps) ? { ...program, lag_steps: lag } : null;
}
