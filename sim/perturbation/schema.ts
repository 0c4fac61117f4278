// The perturbation file format (docs/DESIGN.md, "Perturbation files"; LIBERO-Pro style). Every key
// is optional and a missing key means nominal. Objects are strict: a misspelt key is an error naming
// it, not a silent no-op.
import { z } from 'zod';

/** A [lo, hi] range with lo ≤ hi, both inside [min, max]. */
function range(min: number, max: number, int = false) {
  const n = int ? z.int().min(min).max(max) : z.number().min(min).max(max);
  return z.tuple([n, n]).refine(([lo, hi]) => lo <= hi, { message: 'range must be [lo, hi] with lo ≤ hi' });
}

export const PerturbationSchema = z.strictObject({
  name: z.string().min(1).max(200).optional(),
  position: z
    .strictObject({
      /** Each movable (and the bowl/plate) is moved this far from its nominal spot, in a random direction. */
      shift_m: range(0, 0.25).optional(),
      /** Swap the task's main object with another item's spot. */
      swap: z.boolean().optional(),
    })
    .optional(),
  object: z
    .strictObject({
      scale: range(0.5, 1.4).optional(),
      mass: range(0.05, 10).optional(),
      friction: range(0.05, 3).optional(),
    })
    .optional(),
  robot: z.strictObject({ init_pose_noise_m: z.number().min(0).max(0.1).optional() }).optional(),
  disturbance: z
    .strictObject({
      probability: z.number().min(0).max(1).optional(),
      at_step: range(0, 10_000, true).optional(),
      displace_m: range(0, 0.3).optional(),
    })
    .optional(),
  sensor: z
    .strictObject({
      state_noise_std: z.number().min(0).max(0.1).optional(),
      action_delay_steps: z.int().min(0).max(20).optional(),
    })
    .optional(),
  distractors: z.int().min(0).max(4).optional(),
});

export type Perturbation = z.infer<typeof PerturbationSchema>;

/** Defaults used inside a section that is present but incomplete. */
export const DISTURBANCE_DEFAULTS = { probability: 1, at_step: [20, 60] as const, displace_m: [0.03, 0.08] as const };

export const NOMINAL: Perturbation = Object.freeze({});
