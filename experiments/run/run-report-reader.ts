// A run's report.json read back (saveReport in report.ts writes it): the parts other programs rely
// on, checked. That is the envelope (when it started and finished, where, whether it was ok), the
// governance stage's arms per perturbation and task, the evolution stage's campaigns, and the final
// stage's arms (the default beside the final system at fresh seeds); the other
// stages are the run's own record and pass unread. JSON holds null where the run had NaN (an
// estimate over no episodes), so the figures read back are `number | null`. A report from before a
// run held several campaigns (its one campaign's fields at the top of the evolution stage) reads as
// a list of one.
import { z } from 'zod';
import { parseArtifactText } from '../../evolution/campaign/artifact-format.js';
import type { RunReport } from './run-report.js';

/** The report's file name in a run's folder. */
export const RUN_REPORT_FILE = 'report.json';

const figure = z.number().nullable();
const EstimateSchema = z.object({ value: figure, low: figure, high: figure });

const TaskArmsSchema = z.object({
  policy: EstimateSchema,
  critic: EstimateSchema.extend({ control: z.string() }),
  both: EstimateSchema,
  synergy: EstimateSchema,
});

const ArmsSchema = z.object({
  perturbation: z.string(),
  perTask: z.record(z.string(), TaskArmsSchema),
  macro: z.object({ policy: EstimateSchema, critic: EstimateSchema, both: EstimateSchema, synergy: EstimateSchema }),
});

const GovernanceSchema = z.object({
  policy: z.string(),
  critic: z.string(),
  episodes_per_task: z.number().int().min(0),
  conditions: z.record(z.string(), ArmsSchema),
  mean_synergy: figure,
  ok: z.boolean(),
});

const CampaignRunSchema = z.object({
  task: z.string(),
  perturbation: z.string(),
  campaign: z.object({ campaign_id: z.string() }),
  ok: z.boolean(),
});

const EvolutionSchema = z.union([
  z.object({ campaigns: z.array(CampaignRunSchema), in_parallel: z.number().int().min(1), ok: z.boolean() }),
  CampaignRunSchema.transform((run) => ({ campaigns: [run], in_parallel: 1, ok: run.ok })),
]);

/** The final stage: the default (the reference) and the final system at seeds that chose nothing; older runs lack the reference. */
const FinalSchema = z.object({
  active_skills: z.array(z.string()),
  first_seed: z.number().int().optional(),
  reference: GovernanceSchema.nullable().optional(),
  governance: GovernanceSchema.nullable(),
  ok: z.boolean(),
});

export const RunReportFileSchema = z.object({
  started: z.string(),
  finished: z.string().optional(),
  out: z.string(),
  ok: z.boolean().optional(),
  settings: z.object({ fromScratch: z.boolean().optional() }).optional(),
  stages: z.object({ governance: GovernanceSchema.optional(), evolution: EvolutionSchema.optional(), final: FinalSchema.optional() }),
});

/** What parseRunReport gives: the checked parts of a run's report.json. */
export type StoredRunReport = z.output<typeof RunReportFileSchema>;

// Compile-time check: a report as the writer types it is one this reader accepts, so renaming or
// retyping a field the reader checks fails to compile here, not in a reader's hands.
type Accepts<Read, Written> = [Written] extends [Read] ? true : never;
true satisfies Accepts<z.input<typeof RunReportFileSchema>, RunReport>;

/**
 * A run's report.json read back from its text. A file that is not JSON or not a run report throws
 * ArtifactFormatError naming what is wrong.
 */
export function parseRunReport(text: string, file: string = RUN_REPORT_FILE): StoredRunReport {
  return parseArtifactText(text, RunReportFileSchema, file, 'a run report');
}
