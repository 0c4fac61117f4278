// The `zetta run` reports under runs. Their reader lives beside their writer in experiments/run/
// (run-report-reader.ts), a floor above the console, so the console cannot import it: whoever
// starts the server passes it in (`zetta console` does), and RunReportRead says what the console
// needs of its answer. The caller's reader is checked against this type where it is passed.
import { join } from 'node:path';
import { MANIFEST_FILE } from '../../evolution/campaign/manifest.js';
import { CAMPAIGN_SEARCH_DEPTH } from './campaigns.js';
import { readTextOrNull, relativeToRuns, walkFolders } from './run-files.js';

/** An estimate with its interval, as the report holds it (null where the run had NaN). */
export interface EstimateRead {
  readonly value: number | null;
  readonly low: number | null;
  readonly high: number | null;
}

export interface ArmsRead {
  readonly policy: EstimateRead;
  readonly critic: EstimateRead;
  readonly both: EstimateRead;
  readonly synergy: EstimateRead;
}

/** The governance stage: per perturbation, the macro arms and each task's (with its critic-alone control). */
export interface GovernanceRead {
  readonly policy: string;
  readonly critic: string;
  readonly episodes_per_task: number;
  readonly mean_synergy: number | null;
  readonly conditions: Readonly<
    Record<
      string,
      {
        readonly macro: ArmsRead;
        readonly perTask: Readonly<
          Record<string, Omit<ArmsRead, 'critic'> & { readonly critic: EstimateRead & { readonly control: string } }>
        >;
      }
    >
  >;
}

/** The final stage: the default (reference) and the final system with the active skills, at the stage's seeds. */
export interface FinalRead {
  readonly active_skills: readonly string[];
  /** Absent in runs that scored the final system at the governance seeds. */
  readonly first_seed?: number | undefined;
  /** Absent in those runs too; null when no skill was active. */
  readonly reference?: GovernanceRead | null | undefined;
  /** Null when no skill was active (the final system is the reference). */
  readonly governance: GovernanceRead | null;
}

/** A run's report.json, the parts the console shows. */
export interface RunReportRead {
  readonly started: string;
  readonly finished?: string | undefined;
  readonly ok?: boolean | undefined;
  readonly settings?: { readonly fromScratch?: boolean | undefined } | undefined;
  readonly stages: {
    readonly governance?: GovernanceRead | undefined;
    readonly final?: FinalRead | undefined;
    readonly evolution?:
      | {
          readonly campaigns: ReadonlyArray<{
            readonly task: string;
            readonly perturbation: string;
            readonly campaign: { readonly campaign_id: string };
          }>;
        }
      | undefined;
  };
}

/** Reads a report.json's text (`file` names it in errors); throws on a file that is not a run report. */
export type RunReportReader = (text: string, file: string) => RunReportRead;

export interface FoundRunReport {
  /** The run's folder relative to runs. */
  readonly dir: string;
  readonly report: RunReportRead;
}

/**
 * Every run report under runs that its reader accepts, in walk order. Campaign roots are not run
 * folders (their report.json is a campaign's) and are not searched inside; a report the reader
 * refuses is passed over, so one damaged run does not hide the others.
 */
export function findRunReports(runs: string, read: RunReportReader): FoundRunReport[] {
  const found: FoundRunReport[] = [];
  walkFolders(runs, CAMPAIGN_SEARCH_DEPTH, (dir, entries) => {
    const names = new Set(entries.filter((e) => e.isFile()).map((e) => e.name));
    if (names.has(MANIFEST_FILE) && names.has('state.json')) return false; // a campaign root
    if (names.has('report.json')) {
      const report = readReport(runs, dir, read);
      if (report) found.push({ dir: relativeToRuns(runs, dir), report });
    }
    return true;
  });
  return found;
}

function readReport(runs: string, dir: string, read: RunReportReader): RunReportRead | null {
  try {
    const text = readTextOrNull(runs, join(dir, 'report.json'));
    return text === null ? null : read(text, join(relativeToRuns(runs, dir), 'report.json'));
  } catch {
    return null;
  }
}
