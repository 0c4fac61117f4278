// What a skill changes: its promoted bundle against the bundle its campaign started from, as rules
// and recovery programs added, replaced (same id, other behaviour) or removed, and the manifest's
// control options it sets otherwise (a lag answer is a mechanism a campaign can promote). This is what a run
// composes onto its own base bundle, so a skill carries its change and not a copy of the base that
// happened to be current when its campaign ran. Descriptions and evidence notes are not behaviour:
// a rule that differs only in them is not a change.
import { canonicalJson } from '../evolution/campaign/artifacts.js';
import { withoutNotes } from '../evolution/synthesis/bundle-files.js';

/** A rule or a recovery program as the bundle files hold it: an id and the rest. */
export interface BundleEntry {
  readonly id: string;
  readonly [key: string]: unknown;
}

export interface EntryChanges {
  /** Entries whose id the base lacks. */
  readonly added: readonly BundleEntry[];
  /** Entries whose id the base has, with other behaviour. */
  readonly replaced: readonly BundleEntry[];
  /** Ids the base has and the skill's bundle dropped. */
  readonly removed: readonly string[];
}

export interface SkillChanges {
  /** The bundle the campaign started from (its manifest name and evolution's bundle sha256). */
  readonly base: { readonly name: string; readonly sha256: string };
  readonly rules: EntryChanges;
  readonly programs: EntryChanges;
  /** The control options it sets otherwise than its base; absent where it sets none (and in skills from before options counted). */
  readonly options?: OptionChanges;
}

/**
 * Whether no task family shapes the change: it adds, replaces and removes no rule or program, and each
 * option it sets holds without a condition (a lag is the robot's, not a task's). Such a skill reads no
 * task's feature, so it applies on every suite of its world; its transfer is measured where it loads.
 */
export function isTaskNeutral(c: SkillChanges): boolean {
  const none = (e: EntryChanges) => e.added.length + e.replaced.length + e.removed.length === 0;
  const options = Object.values(c.options ?? {});
  return none(c.rules) && none(c.programs) && options.length > 0 && options.every((v) => v === null || typeof v !== 'object');
}

/** The manifest's options that change how the runtime governs, not what the rules say. */
export const CONTROL_OPTIONS = ['during_recovery', 'wait_out_lag', 'align_chunks_to_lag'] as const;
export type ControlOption = (typeof CONTROL_OPTIONS)[number];
/** The two answers to an actuation lag: a bundle holds at most one of them. */
export const LAG_ANSWERS: readonly ControlOption[] = ['wait_out_lag', 'align_chunks_to_lag'];

/** Option → its value in the skill's bundle, or null where the skill turns it off. */
export type OptionChanges = Readonly<Partial<Record<ControlOption, unknown>>>;

/** The control options `after` sets otherwise than `before` (manifests with their defaults filled in). */
export function optionChanges(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>): OptionChanges {
  const out: Partial<Record<ControlOption, unknown>> = {};
  for (const key of CONTROL_OPTIONS) {
    const value = after[key] ?? null;
    if (canonicalJson(before[key] ?? null) !== canonicalJson(value)) out[key] = value;
  }
  return out;
}

/** The entries in `after` that `before` lacks or holds with another behaviour, and those it dropped. */
export function entryChanges(before: readonly BundleEntry[], after: readonly BundleEntry[]): EntryChanges {
  const old = new Map(before.map((e) => [e.id, behaviourKey(e)]));
  const kept = new Set(after.map((e) => e.id));
  return {
    added: after.filter((e) => !old.has(e.id)),
    replaced: after.filter((e) => old.has(e.id) && old.get(e.id) !== behaviourKey(e)),
    removed: before.filter((e) => !kept.has(e.id)).map((e) => e.id),
  };
}

/** A bundle as a change compares it: its rules, its programs and its manifest (defaults filled in; null where unreadable). */
export interface ComparedBundle {
  readonly rules: readonly BundleEntry[];
  readonly programs: readonly BundleEntry[];
  readonly manifest: Readonly<Record<string, unknown>> | null;
}

/** What `after` changes in `before`; options only where both manifests were read and `after` sets one otherwise. */
export function bundleChanges(base: SkillChanges['base'], before: ComparedBundle, after: ComparedBundle): SkillChanges {
  const options = before.manifest && after.manifest ? optionChanges(before.manifest, after.manifest) : {};
  return {
    base,
    rules: entryChanges(before.rules, after.rules),
    programs: entryChanges(before.programs, after.programs),
    ...(Object.keys(options).length > 0 ? { options } : {}),
  };
}

export function isEmptyChange(c: SkillChanges): boolean {
  const none = (e: EntryChanges) => e.added.length + e.replaced.length + e.removed.length === 0;
  return none(c.rules) && none(c.programs) && Object.keys(c.options ?? {}).length === 0;
}

/** An entry's behaviour, notes left out: equal keys mean the entry does the same thing. */
export function behaviourKey(entry: unknown): string {
  return canonicalJson(withoutNotes(entry));
}
