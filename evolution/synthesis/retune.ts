// retune_program: the parent's recovery program runs and runs out of budget because `move_above`
// will not descend while the horizontal error exceeds its `xy_tol`, and under sensor noise or action
// delay the error it reads never settles below it. The tolerance of each `move_above` step is
// refitted from the recordings: the 90th percentile of the horizontal error to that step's point
// while the program was driving, so the program would have descended on 90% of those steps.
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
      const ex = featureSeries(r, 'eef_x'), ey = featureSeries(r, 'eef_y'), px = featureSeries(r, fx), py = featureSeries(r, fy);
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

/** The program with every `move_above` step's xy_tol widened to the fitted one (never narrowed). */
export function retuneProgram(program: Json, tolerances: Readonly<Record<string, number>>): Json {
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
  return { ...program, steps: retuneSteps(program.steps) };
}
