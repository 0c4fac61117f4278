// The figures a promotion rests on, shared by campaigns and skills: paired base-vs-candidate counts
// with their p-values, gates as report.json records them, the critic-alone check, and a bundle's
// change (rules and recovery programs added, replaced, removed). Part of the API contract
// (index.ts): imports nothing.

/** Base (parent) vs candidate on the same seeds. */
export interface PairCounts {
  readonly parent_successes: number;
  readonly candidate_successes: number;
  /** Candidate succeeded, parent failed. */
  readonly b: number;
  /** Parent succeeded, candidate failed. */
  readonly c: number;
  readonly parent_safety_events: number;
  readonly candidate_safety_events: number;
  readonly episodes: number;
}

/** Base vs final on the held-out seeds; the p-value is null once more than one held-out test was spent. */
export interface PairFigures extends PairCounts {
  readonly p_value: number | null;
  readonly problems: readonly string[];
}

/** Base vs final on fresh confirmation seeds that chose nothing: the campaign's own claim. */
export interface ConfirmationFigures extends PairFigures {
  readonly p_value: number;
}

/** A gate as report.json records it: its counts flat. */
export interface ReportGate {
  readonly gate: string;
  readonly pass: boolean;
  readonly p_value: number | null;
  readonly b: number;
  readonly c: number;
  readonly parent_successes: number;
  readonly candidate_successes: number;
  readonly episodes: number;
}

/** The candidate with trivial policies (the critic alone): its best success rate against the cap. */
export interface CriticAloneFigures {
  readonly pass: boolean;
  readonly reason: string;
  readonly best_rate: number;
  readonly cap: number;
}

/** A shadow replay as report.json (and a skill's decisions) record it. */
export interface ShadowCounts {
  readonly triggers: number;
  readonly targeted: number;
  readonly false_alarms: number;
  readonly successes: number;
}

/** A rule or a recovery program as the bundle files hold it: an id and the rest. */
export interface BundleEntry {
  readonly id: string;
  readonly [key: string]: unknown;
}

export interface EntryChanges {
  readonly added: readonly BundleEntry[];
  readonly replaced: readonly BundleEntry[];
  /** Ids the base has and the changed bundle dropped. */
  readonly removed: readonly string[];
}

/** A bundle against the one it changes: its base (name and sha256), its rules and programs, and its control options. */
export interface SkillChanges {
  readonly base: { readonly name: string; readonly sha256: string };
  readonly rules: EntryChanges;
  readonly programs: EntryChanges;
  /** Manifest option → the value it sets (null: turned off); absent where it sets none. */
  readonly options?: Readonly<Record<string, unknown>> | undefined;
}
