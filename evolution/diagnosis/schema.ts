// What a diagnosis is, for both back ends: one causal mechanism per failure cluster, attributed to a
// layer, with competing hypotheses and a falsifier the campaign checks mechanically. The LLM back end
// must produce exactly this shape (validated here), so nothing downstream knows which back end ran.
import { z } from 'zod';

export const LAYERS = ['evaluation', 'critic', 'state', 'planning', 'recovery', 'parameters'] as const;
export type Layer = (typeof LAYERS)[number];

/**
 * Rule templates synthesis knows how to build (synthesis/templates.ts). `none`: the mechanism lies
 * outside what a bundle can change (e.g. the evaluation itself), so no candidate is built.
 */
export const TEMPLATES = [
  'stall',
  'oscillation',
  'deadline',
  'disturbance',
  'grasp_empty',
  'suppress_rule',
  'retune_program',
  'compensate_lag',
  'align_chunks',
  'search',
  'none',
] as const;
export type TemplateId = (typeof TEMPLATES)[number];

export const HypothesisSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9_-]+$/),
  layer: z.enum(LAYERS),
  mechanism: z.string().min(1),
  template: z.enum(TEMPLATES),
  /** For suppress_rule: the parent rule the hypothesis blames. */
  rule_id: z.string().optional(),
  /** For retune_program: the parent recovery program the hypothesis blames. */
  program_id: z.string().optional(),
  /** How strongly the evidence supports it, 0..1 (orders the candidates). */
  score: z.number().min(0).max(1),
  rationale: z.string(),
});
export type Hypothesis = z.infer<typeof HypothesisSchema>;

export const FalsifierSchema = z.strictObject({
  statement: z.string().min(1),
  /** Measured by shadow replay of the hypothesis' candidate over the parent's episodes. */
  metric: z.enum(['shadow_trigger_rate', 'shadow_false_alarm_rate']),
  op: z.enum(['lt', 'gt']),
  value: z.number().min(0).max(1),
});
export type Falsifier = z.infer<typeof FalsifierSchema>;

export const DiagnosisSchema = z.strictObject({
  cluster: z.string(),
  /** The mechanism the diagnosis settles on: its best hypothesis. */
  layer: z.enum(LAYERS),
  mechanism: z.string().min(1),
  hypotheses: z.array(HypothesisSchema).min(1),
  falsifier: FalsifierSchema,
});
export type Diagnosis = z.infer<typeof DiagnosisSchema>;
