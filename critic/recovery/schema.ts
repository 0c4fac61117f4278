// Recovery programs as data: a list of tool steps, each with parameters, an optional stop condition
// (the rule language's conditions), a step budget and a fallback; the program has a total budget
// that bounds everything, fallbacks and re-entry included.
import { z } from 'zod';
import { ConditionSchema, MAX_WINDOW, type Condition } from '../rules/schema.js';

/**
 * What happens when a step's `until` has not held within its budget:
 *   'hold'   stop the tool steps and go to re-entry (stand still until the evidence clears)
 *   'abort'  end the program and ask the control loop to abort the episode
 *   'skip'   tolerate it and go on with the next step
 *   {steps}  run these steps instead of the rest of the program, then go to re-entry
 * A step without `until` just runs for its budget and succeeds.
 */
export type Fallback = 'hold' | 'abort' | 'skip' | { readonly steps: readonly ToolStep[] };

export interface ToolStep {
  readonly tool: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly until?: Condition;
  readonly budget: number;
  readonly fallback: Fallback;
}

const budget = z.number().int().min(1).max(MAX_WINDOW);

export const ToolStepSchema: z.ZodType<ToolStep, z.input<z.ZodTypeAny>> = z.lazy(() =>
  z.strictObject({
    tool: z.string().min(1),
    params: z.record(z.string(), z.unknown()).default({}),
    until: ConditionSchema.optional(),
    budget,
    fallback: FallbackSchema.default('hold'),
  }),
);

export const FallbackSchema: z.ZodType<Fallback, z.input<z.ZodTypeAny>> = z.lazy(() =>
  z.union([z.enum(['hold', 'abort', 'skip']), z.strictObject({ steps: z.array(ToolStepSchema).min(1) })]),
);

/** Largest actuation lag a program may compensate, in control steps. */
export const MAX_LAG_STEPS = 8;

export const ReentrySchema = z.strictObject({
  /** Consecutive stable steps required before control returns to the policy. */
  stable_steps: z.number().int().min(0).max(MAX_WINDOW).default(3),
  /** Stable: end-effector speed below this (m/s)… */
  max_speed: z.number().min(0).default(0.02),
  /** …and the finger opening changing less than this per step (m). */
  max_width_rate: z.number().min(0).default(5e-4),
});
export type Reentry = z.infer<typeof ReentrySchema>;

export const ProgramSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_.:-]+$/, 'program id: letters, digits and _ . : - only'),
  description: z.string().optional(),
  /** Total steps the program may drive the robot, re-entry included. It always ends within this. */
  budget,
  steps: z.array(ToolStepSchema).min(1),
  reentry: ReentrySchema.default({ stable_steps: 3, max_speed: 0.02, max_width_rate: 5e-4 }),
  /** Total budget spent without re-entry: give control back ('resume') or end the episode. */
  on_exhausted: z.enum(['resume', 'abort']).default('resume'),
  /**
   * Control steps until a command moves the hand (1: the next observation shows it). Above 1, the
   * tools see the hand where the program's commands still in flight will take it (see executor.ts).
   * `measured`: the lag the critic measures online (`derived.actuation_lag` + 1; 1 until measured).
   */
  lag_steps: z.union([z.number().int().min(1).max(MAX_LAG_STEPS), z.literal('measured')]).default(1),
});
export type Program = z.infer<typeof ProgramSchema>;

export const RecoveryFileSchema = z.strictObject({
  version: z.literal(1).default(1),
  programs: z.array(ProgramSchema),
});
export type RecoveryFile = z.infer<typeof RecoveryFileSchema>;
export type RecoveryFileInput = z.input<typeof RecoveryFileSchema>;
