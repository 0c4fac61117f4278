// Composing skills onto a run's base bundle, for one task. The rule, in order:
//
//   1. A skill loads only where its guard holds (applicability.ts) and where the base has every rule
//      and program it replaces or removes; otherwise it is skipped, with the reason.
//   2. Skills are ranked by priority (the highest proposal priority among the rules they add or
//      change; 0 for a skill that only changes programs), then by specificity (the feature
//      conditions of their guard), then by id.
//   3. The same change from two skills (two campaigns that found the same repair) is applied once.
//      Otherwise two skills that touch the same thing — a base rule or program, or a rule proposing
//      on the same feature condition — conflict: the higher-ranked one loads and the other is
//      skipped; at equal priority and specificity neither loads. Both ways the conflict is
//      reported, never merged silently. What a skill adds is named after it (localize.ts), so two
//      campaigns' generated names never collide.
//   4. The loaded skills' changes are applied to the base in rank order: replacements in place,
//      removals, then additions after the base's entries; control options set (a lag answer
//      replaces the base's other one, since a bundle holds at most one).
// Pure: the caller reads the skills and the base, and writes what comes out.
import { DEFAULT_DURING_RECOVERY, type BundleManifest } from '../critic/index.js';
import { RecoveryFileSchema, RuleFileSchema } from '../critic/index.js';
import type { BundleContent } from '../evolution/synthesis/bundle-files.js';
import { applicability, type ApplicabilityTarget } from './applicability.js';
import {
  LAG_ANSWERS,
  behaviourKey,
  isEmptyChange,
  type BundleEntry,
  type ControlOption,
  type EntryChanges,
  type SkillChanges,
} from './changes.js';
import { changeIdentity, localizeChanges } from './localize.js';
import type { Reach } from './reach.js';
import type { SkillContent } from './skill.js';

export interface ComposableSkill {
  readonly id: string;
  readonly content: SkillContent;
  /** Its reach trials' verdicts by task (reach.ts); none: its family guard alone decides. */
  readonly reach?: Reach;
}

export interface SkillDecision {
  readonly id: string;
  readonly name: string;
  readonly loaded: boolean;
  readonly reason: string;
  /**
   * What counts as the skill firing: decisions caused by the rules it adds or replaces and by the
   * lag answer it sets (the runtime's firings name it), and starts of the base programs it
   * replaces (a program it adds starts only through its own rules).
   */
  readonly rules: readonly string[];
  readonly programs: readonly string[];
}

export interface SkillConflict {
  readonly skills: readonly [string, string];
  /** What both touch, e.g. `rule "hand_blocked"` or `the feature condition of rule "x"`. */
  readonly on: string;
  /** The skill that loaded, or null when neither did. */
  readonly winner: string | null;
}

export interface Composition {
  /** The base with every loaded skill's changes (the base itself when none loaded). */
  readonly bundle: BundleContent;
  /** The skills that loaded, in the order offered (a skill repeating another's change counts as loaded). */
  readonly loaded: readonly string[];
  /** One per skill offered, in the order offered. */
  readonly decisions: readonly SkillDecision[];
  readonly conflicts: readonly SkillConflict[];
}

interface Ranked {
  /** The skill with its additions named after it. */
  readonly skill: ComposableSkill;
  /** Equal for skills making the same change (see changeIdentity). */
  readonly identity: string;
  /** Why its guard holds here (applicability's reason). */
  readonly fit: string;
  readonly priority: number;
  readonly specificity: number;
  /** What it touches (see touches()). */
  readonly touches: ReadonlyMap<string, Touch>;
}

export function composeSkills(base: BundleContent, skills: readonly ComposableSkill[], target: ApplicabilityTarget): Composition {
  const baseRules = RuleFileSchema.parse(base.rules).rules as readonly BundleEntry[];
  const basePrograms = RecoveryFileSchema.parse(base.recoveries).programs as readonly BundleEntry[];
  const reasons = new Map<string, string>();
  const candidates: Ranked[] = [];
  for (const skill of skills) {
    const fit = applicability(skill.content, target, skill.reach);
    const why = fit.ok ? lacksWhatItChanges(skill, base.manifest.name, baseRules, basePrograms) : fit.reason;
    if (why) reasons.set(skill.id, why);
    else candidates.push(rank(skill, fit.reason));
  }
  candidates.sort((a, b) => b.priority - a.priority || b.specificity - a.specificity || a.skill.id.localeCompare(b.skill.id));
  const { accepted, duplicates, conflicts } = resolveConflicts(candidates, reasons);
  for (const r of accepted) reasons.set(r.skill.id, `${r.fit}; priority ${r.priority}, specificity ${r.specificity}`);
  const applied = accepted.map((r) => r.skill);
  /** Whose rules and programs count as a loaded skill's firings: its own, or those of the skill whose change it repeats. */
  const firingOf = new Map<string, ComposableSkill>([
    ...applied.map((s) => [s.id, s] as const),
    ...[...duplicates].map(([dup, of]) => [dup, of.skill] as const),
  ]);
  return {
    bundle: applied.length === 0 ? base : merged(base, baseRules, basePrograms, applied),
    loaded: skills.filter((s) => firingOf.has(s.id)).map((s) => s.id),
    decisions: skills.map((s) => {
      const counted = firingOf.get(s.id)?.content.changes ?? localizeChanges(s.id, s.content.changes);
      return {
        id: s.id,
        name: s.content.name,
        loaded: firingOf.has(s.id),
        reason: reasons.get(s.id)!,
        rules: [...changedIds(counted.rules), ...lagAnswersSet(counted)],
        programs: counted.programs.replaced.map((p) => p.id),
      };
    }),
    conflicts,
  };
}

/** Why a skill whose guard holds still cannot load onto this base, or null. */
function lacksWhatItChanges(
  skill: ComposableSkill,
  baseName: string,
  rules: readonly BundleEntry[],
  programs: readonly BundleEntry[],
): string | null {
  const c = skill.content.changes;
  if (isEmptyChange(c)) return `changes nothing in the bundle its campaign started from (${c.base.name})`;
  const lacking = (kind: string, have: readonly BundleEntry[], e: EntryChanges) => {
    const ids = new Set(have.map((x) => x.id));
    const missing = [...e.replaced.map((x) => x.id), ...e.removed].find((id) => !ids.has(id));
    return missing === undefined ? null : `changes ${kind} "${missing}", which the base bundle ${baseName} lacks`;
  };
  return lacking('rule', rules, c.rules) ?? lacking('program', programs, c.programs);
}

function rank(original: ComposableSkill, fit: string): Ranked {
  const c = localizeChanges(original.id, original.content.changes);
  const skill = { id: original.id, content: { ...original.content, changes: c } };
  const proposing = [...c.rules.added, ...c.rules.replaced] as readonly { propose?: { priority?: number } }[];
  return {
    skill,
    fit,
    identity: changeIdentity(original.content.changes),
    priority: Math.max(0, ...proposing.map((r) => r.propose?.priority ?? 0)),
    specificity: skill.content.guard.conditions.length,
    touches: touches(c),
  };
}

/** One thing a change touches: what it gives that thing, and how a report names it. */
interface Touch {
  readonly behaviour: string;
  readonly label: string;
}

/**
 * Everything a change touches, keyed so that two skills touching the same thing share a key: rule
 * and program ids, and the condition a rule proposes on (its guards and `when`).
 */
function touches(c: SkillChanges): Map<string, Touch> {
  const out = new Map<string, Touch>();
  for (const r of [...c.rules.added, ...c.rules.replaced]) {
    out.set(`rule:${r.id}`, { behaviour: behaviourKey(r), label: `rule "${r.id}"` });
    const condition = behaviourKey({ guards: r['guards'] ?? [], when: r['when'] });
    out.set(`condition:${condition}`, {
      behaviour: behaviourKey({ ...r, id: undefined }),
      label: `the feature condition of rule "${r.id}"`,
    });
  }
  for (const id of c.rules.removed) out.set(`rule:${id}`, { behaviour: 'removed', label: `rule "${id}"` });
  for (const p of [...c.programs.added, ...c.programs.replaced])
    out.set(`program:${p.id}`, { behaviour: behaviourKey(p), label: `program "${p.id}"` });
  for (const id of c.programs.removed) out.set(`program:${id}`, { behaviour: 'removed', label: `program "${id}"` });
  const options = c.options ?? {};
  if (LAG_ANSWERS.some((k) => k in options))
    out.set('option:lag', { behaviour: behaviourKey(lagAnswer(options)), label: 'the answer to an actuation lag' });
  if ('during_recovery' in options)
    out.set('option:during_recovery', { behaviour: behaviourKey(options.during_recovery), label: 'option "during_recovery"' });
  return out;
}

function resolveConflicts(
  ranked: readonly Ranked[],
  reasons: Map<string, string>,
): { accepted: Ranked[]; duplicates: Map<string, Ranked>; conflicts: SkillConflict[] } {
  const accepted: Ranked[] = [];
  const duplicates = new Map<string, Ranked>();
  const conflicts: SkillConflict[] = [];
  for (const r of ranked) {
    const same = accepted.find((a) => a.identity === r.identity);
    if (same) {
      duplicates.set(r.skill.id, same);
      reasons.set(r.skill.id, `makes the same change as skill ${same.skill.id} (${same.skill.content.name}): applied once`);
      continue;
    }
    const clash = accepted.map((a) => ({ a, on: clashOn(a, r) })).find((x) => x.on !== null);
    if (!clash) {
      accepted.push(r);
      continue;
    }
    const { a } = clash;
    const what = clash.on!;
    if (a.priority === r.priority && a.specificity === r.specificity) {
      accepted.splice(accepted.indexOf(a), 1);
      conflicts.push({ skills: [a.skill.id, r.skill.id], on: what, winner: null });
      const tie = `at equal priority (${r.priority}) and specificity (${r.specificity}): neither is loaded`;
      reasons.set(a.skill.id, `conflicts with skill ${r.skill.id} (${r.skill.content.name}) on ${what} ${tie}`);
      reasons.set(r.skill.id, `conflicts with skill ${a.skill.id} (${a.skill.content.name}) on ${what} ${tie}`);
      continue;
    }
    conflicts.push({ skills: [a.skill.id, r.skill.id], on: what, winner: a.skill.id });
    const by = a.priority > r.priority ? `priority ${a.priority} > ${r.priority}` : `specificity ${a.specificity} > ${r.specificity}`;
    reasons.set(r.skill.id, `conflicts with skill ${a.skill.id} (${a.skill.content.name}) on ${what}, which wins by ${by}`);
  }
  for (const [dup, of] of duplicates) {
    if (accepted.includes(of)) continue;
    duplicates.delete(dup); // its twin lost a conflict after it was matched
    reasons.set(dup, `makes the same change as skill ${of.skill.id}, which is not loaded: ${reasons.get(of.skill.id)}`);
  }
  return { accepted, duplicates, conflicts };
}

/** The first thing both touch with different behaviour (its label in b's words), or null. */
function clashOn(a: Ranked, b: Ranked): string | null {
  for (const [key, mine] of b.touches) {
    const theirs = a.touches.get(key);
    if (theirs !== undefined && theirs.behaviour !== mine.behaviour) return mine.label;
  }
  return null;
}

function merged(
  base: BundleContent,
  baseRules: readonly BundleEntry[],
  basePrograms: readonly BundleEntry[],
  skills: readonly ComposableSkill[],
): BundleContent {
  // A program a skill adds that does what one already there does is not added twice; the skill's
  // rules then start the one that is there (two campaigns often find the same restore).
  const sameAs = new Map<string, string>();
  const programs = applyChanges(
    basePrograms,
    skills.map((s) => s.content.changes.programs),
    (p) => p,
    (dropped, kept) => sameAs.set(dropped, kept),
  );
  const rules = applyChanges(
    baseRules,
    skills.map((s) => s.content.changes.rules),
    (r) => startingKept(r, sameAs),
  );
  const manifest: BundleManifest = {
    ...withOptions(base.manifest, skills),
    name: `${base.manifest.name}+skills`,
    description: `${base.manifest.description} Composed with skills ${skills.map((s) => `${s.id} (${s.content.name})`).join(', ')}.`,
    privileged: base.manifest.privileged || skills.some((s) => s.content.guard.privileged),
  };
  return {
    manifest,
    rules: { version: 1, rules: rules as never },
    recoveries: { version: 1, programs: programs as never },
  };
}

/**
 * The base's entries with each change applied in rank order: replacements in place, removals, then
 * additions, each passed through `rewrite` first. An addition that does what an entry already there
 * does (the base's, or an earlier skill's) is dropped and reported to `onDuplicate` with the id kept;
 * ids cannot collide, since additions are named after their skill (localize.ts).
 */
function applyChanges(
  entries: readonly BundleEntry[],
  changes: readonly EntryChanges[],
  rewrite: (e: BundleEntry) => BundleEntry,
  onDuplicate: (dropped: string, kept: string) => void = () => {},
): BundleEntry[] {
  let out = [...entries];
  const seen = new Map(out.map((e) => [behaviourKey({ ...e, id: undefined }), e.id]));
  for (const c of changes) {
    const replacement = new Map(c.replaced.map((e) => [e.id, rewrite(e)]));
    out = out.filter((e) => !c.removed.includes(e.id)).map((e) => replacement.get(e.id) ?? e);
    for (const added of c.added) {
      const e = rewrite(added);
      const key = behaviourKey({ ...e, id: undefined });
      const kept = seen.get(key);
      if (kept !== undefined) {
        onDuplicate(e.id, kept);
        continue;
      }
      seen.set(key, e.id);
      out.push(e);
    }
  }
  return out;
}

/** The rule, starting the program kept in place of the duplicate it names, if it names one. */
function startingKept(rule: BundleEntry, sameAs: ReadonlyMap<string, string>): BundleEntry {
  const propose = rule['propose'] as { readonly recovery?: string } | undefined;
  const kept = propose?.recovery === undefined ? undefined : sameAs.get(propose.recovery);
  return kept === undefined ? rule : { ...rule, propose: { ...propose, recovery: kept } };
}

/** The base manifest with each skill's control options set, in rank order. */
function withOptions(base: BundleManifest, skills: readonly ComposableSkill[]): BundleManifest {
  const out: Record<string, unknown> = { ...base };
  for (const s of skills) {
    const options = s.content.changes.options ?? {};
    for (const [key, value] of Object.entries(options)) {
      if (value === null) delete out[key];
      else out[key] = value;
      // one lag answer per bundle: the skill's replaces the base's other one
      if (value !== null && LAG_ANSWERS.includes(key as ControlOption))
        for (const other of LAG_ANSWERS) if (other !== key) delete out[other];
    }
  }
  out['during_recovery'] ??= DEFAULT_DURING_RECOVERY;
  return out as BundleManifest;
}

/** The lag answer a skill leaves in force where it sets one: the option it turns on, or none. */
function lagAnswer(options: Readonly<Partial<Record<ControlOption, unknown>>>): Record<string, unknown> {
  return Object.fromEntries(LAG_ANSWERS.filter((k) => options[k] !== undefined && options[k] !== null).map((k) => [k, options[k]]));
}

/** The lag answers a skill turns on: the runtime's firings name them. */
function lagAnswersSet(c: SkillChanges): string[] {
  return Object.keys(lagAnswer(c.options ?? {}));
}

function changedIds(e: EntryChanges): string[] {
  return [...e.added, ...e.replaced].map((x) => x.id);
}
