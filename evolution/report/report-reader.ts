// report.json read back: the schema of what buildReport (report.ts) writes, checked on every read
// so the skill library, a run's evolution stage and the console hold one shape of it. The schema is
// typed against CampaignReport, so a field the writer renames or retypes fails to compile here;
// it is strict, so a field it adds fails the round trip in tests until it is read here too.
import { z } from 'zod';
import { parseArtifactText } from '../campaign/artifact-format.js';
import type { CampaignReport } from './report.js';

/** The report's file name in a campaign root. */
export const REPORT_FILE = 'report.json';

const count = z.number().int().min(0);

const pairCounts = {
  parent_successes: count,
  candidate_successes: count,
  b: count,
  c: count,
  parent_safety_events: count,
  candidate_safety_events: count,
  episodes: count,
};

const bundleRef = { sha256: z.string(), name: z.string() };

const ReportGateSchema = z.strictObject({
  gate: z.string(),
  pass: z.boolean(),
  p_value: z.number().nullable(),
  b: count,
  c: count,
  parent_successes: count,
  candidate_successes: count,
  episodes: count,
});

const CandidateRowSchema = z.strictObject({
  id: z.string(),
  cluster: z.string(),
  pooled: z.array(z.string()),
  hypothesis: z.string(),
  layer: z.string(),
  template: z.string(),
  mechanism: z.string(),
  fit: z.strictObject({ theta: z.number(), dwell: z.number() }).nullable(),
  tolerances: z.record(z.string(), z.number()).nullable(),
  shadow: z.strictObject({ triggers: count, targeted: count, false_alarms: count, successes: count }).nullable(),
  decision: z.string(),
  stage: z.string(),
  reason: z.string(),
  bundle_sha256: z.string(),
  gates: z.array(ReportGateSchema),
  critic_alone: z.strictObject({ pass: z.boolean(), reason: z.string(), best_rate: z.number(), cap: z.number() }).nullable(),
});

const GenerationRowSchema = z.strictObject({
  generation: z.number().int().min(1),
  parent_sha256: z.string(),
  dev: z.strictObject({ episodes: count, successes: count, infra_failures: count }),
  clusters: z.array(z.strictObject({ id: z.string(), size: count, first_missing: z.string().nullable(), medoid_seed: z.number().int() })),
  diagnoses: z.array(
    z.strictObject({
      cluster: z.string(),
      layer: z.string(),
      mechanism: z.string(),
      hypotheses: z.array(z.string()),
      falsifier: z.string(),
    }),
  ),
  candidates: z.array(CandidateRowSchema),
  promoted: z.string().nullable(),
});

export const CampaignReportSchema: z.ZodType<CampaignReport> = z.strictObject({
  campaign_id: z.string(),
  manifest_sha256: z.string(),
  task: z.string(),
  suite: z.string(),
  perturbation: z.string(),
  policy: z.string(),
  diagnoser: z.string(),
  gates: z.strictObject({ alpha: z.number(), min_gain: z.number() }),
  heldout_seeds: z.array(z.number().int()),
  promoted: z.boolean(),
  base_bundle: z.strictObject(bundleRef),
  final_bundle: z.strictObject({ ...bundleRef, dir: z.string().nullable(), promoted: z.boolean() }),
  heldout: z.strictObject({ ...pairCounts, p_value: z.number().nullable(), problems: z.array(z.string()) }),
  confirmation: z.strictObject({ ...pairCounts, p_value: z.number(), problems: z.array(z.string()) }).nullable(),
  heldout_alpha: z.number(),
  generations: z.array(GenerationRowSchema),
});

/**
 * A campaign's report.json read back from its text. A file that is not JSON or not a report of
 * this shape throws ArtifactFormatError naming what is wrong.
 */
export function parseCampaignReport(text: string, file: string = REPORT_FILE): CampaignReport {
  return parseArtifactText(text, CampaignReportSchema, file, 'a campaign report');
}
