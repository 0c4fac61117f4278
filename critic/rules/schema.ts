// The rule language as data: zod schemas for conditions and rules. A rule file is JSON; nothing in
// it is ever evaluated as source text. `compile.ts` turns a parsed file into closures. Each
// condition op brings its own schema piece (ops/).
import { z } from 'zod';
import { OP_DEFS, type Condition, type SchemaKit } from './ops/index.js';
import { CLAMP_AXES } from './proposal.js';

/** Windows are preallocated ring buffers; this cap keeps a typo from allocating gigabytes. */
export const MAX_WINDOW = 10_000;

export { COMPARISON_OPS, type ComparisonOp, type Condition } from './ops/index.js';

/** The discriminated union of every op's schema piece (ops/), over this same schema for sub-conditions. */
export const ConditionSchema: z.ZodType<Condition> = z.lazy(() => {
  const kit: SchemaKit<Condition> = {
    z,
    feature: z.string().min(1),
    window: z.number().int().min(1).max(MAX_WINDOW),
    condition: ConditionSchema,
  };
  const [first, ...rest] = OP_DEFS.map((op) => op.schema(kit));
  return z.discriminatedUnion('op', [first!, ...rest]);
});

const priority = z.number().finite().default(0);

export const ProposalSchema = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('recovery'), recovery: z.string().min(1), priority }),
  z.strictObject({ action: z.literal('hold'), priority }),
  z.strictObject({ action: z.literal('abort'), priority }),
  /**
   * Scale the policy's motion by `scale` ∈ [0, 1] this step (e.g. slow down near contact); with
   * `axes: "xy"` only its horizontal translation (hold a hand above a spot, let it descend).
   */
  z.strictObject({ action: z.literal('clamp'), scale: z.number().min(0).max(1), axes: z.enum(CLAMP_AXES).default('all'), priority }),
]);
export type ProposalSpec = z.infer<typeof ProposalSchema>;

export const RuleSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_.:-]+$/, 'rule id: letters, digits and _ . : - only'),
  description: z.string().optional(),
  /** All must hold for the rule to be active; a guard that is false resets the rule's temporal state. */
  guards: z.array(ConditionSchema).default([]),
  when: ConditionSchema,
  /** Consecutive steps the condition must hold before the rule fires. */
  dwell: z.number().int().min(1).max(MAX_WINDOW).default(1),
  /** Steps after firing during which the rule does not fire again. */
  cooldown: z.number().int().min(0).max(1_000_000).default(0),
  propose: ProposalSchema,
  /** Safety rules outrank all others in the governor. */
  safety: z.boolean().default(false),
  /** Ids of the evidence (episodes, clusters, diagnoses) this rule was derived from. */
  evidence: z.array(z.string()).default([]),
});
export type RuleSpec = z.infer<typeof RuleSchema>;

export const RuleFileSchema = z.strictObject({
  version: z.literal(1).default(1),
  rules: z.array(RuleSchema),
});
export type RuleFile = z.infer<typeof RuleFileSchema>;
/** What a rule file may look like before defaults are applied (for writing one in code). */
export type RuleFileInput = z.input<typeof RuleFileSchema>;
export type RuleInput = z.input<typeof RuleSchema>;
