// A skill's change as lines a person reads at approval time: `+` a rule or program it adds, `~` one
// it replaces (with the fields that differ from the base, when the base bundle can be found), `−`
// one it removes, and `~ option` for a control option it sets (`− option` where it turns one off). Conditions are written out (`derived.net_motion < 0.026`), not dumped as JSON, in
// the same words as the skill page's (critic/rules/describe.ts).
// Notes (descriptions, evidence) are not behaviour, so they never count as a difference.
import { describeCondition } from '../../critic/index.js';
import { canonicalJson } from '../../evolution/campaign/artifacts.js';
import { withoutNotes } from '../../evolution/synthesis/bundle-files.js';
import type { BundleEntry, EntryChanges, SkillChanges } from '../../skills/changes.js';

/** The base bundle's rules and programs, when the console found them (campaign-files.ts). */
export interface BaseEntries {
  readonly rules: readonly BundleEntry[];
  readonly programs: readonly BundleEntry[];
}

type Kind = 'rule' | 'program';
const MAX_DIFFS = 6;

export function changesText(changes: SkillChanges, base: BaseEntries | null): string[] {
  return [
    ...entryLines('rule', changes.rules, base?.rules ?? null, changes.base.sha256),
    ...entryLines('program', changes.programs, base?.programs ?? null, changes.base.sha256),
    ...Object.entries(changes.options ?? {}).map(([key, value]) =>
      value === null ? `− option ${key}` : `~ option ${key}: ${option(value)}`,
    ),
  ];
}

/** A control option's value: `always`, `never`, or its condition in words. */
function option(value: unknown): string {
  if (value === true) return 'always';
  if (value === false) return 'never';
  const when = (value as { when?: unknown }).when;
  return when !== undefined ? `when ${condition(when)}` : short(value);
}

function entryLines(kind: Kind, e: EntryChanges, base: readonly BundleEntry[] | null, baseSha: string): string[] {
  const before = new Map((base ?? []).map((b) => [b.id, b]));
  return [
    ...e.added.map((x) => `+ ${kind} ${x.id}: ${describe(kind, x)}`),
    ...e.replaced.map((x) => {
      const old = before.get(x.id);
      if (!old)
        return `~ ${kind} ${x.id}: now ${describe(kind, x)} (base bundle ${baseSha.slice(0, 12)} not found under runs, so the fields that differ are not shown)`;
      return `~ ${kind} ${x.id}: ${fieldDiffs(old, x).join('; ')}`;
    }),
    ...e.removed.map((id) => `− ${kind} ${id}`),
  ];
}

function describe(kind: Kind, x: BundleEntry): string {
  return kind === 'rule' ? describeRule(x) : describeProgram(x);
}

function describeRule(r: BundleEntry): string {
  const dwell = typeof r.dwell === 'number' && r.dwell > 1 ? ` for ${r.dwell} steps` : '';
  const guards = Array.isArray(r.guards) && r.guards.length > 0 ? `, if ${r.guards.map(condition).join(' and ')}` : '';
  const safety = r.safety === true ? ' [safety]' : '';
  return `when ${condition(r.when)}${dwell}${guards} → ${proposal(r.propose)}${safety}`;
}

function describeProgram(p: BundleEntry): string {
  const steps = Array.isArray(p.steps) ? p.steps.map((s) => String((s as { tool?: unknown }).tool ?? '?')) : [];
  const budget = typeof p.budget === 'number' ? ` (budget ${p.budget} steps)` : '';
  return `${steps.length ? steps.join(' → ') : 'no steps'}${budget}`;
}

/** A rule-language condition in the critic's one wording (critic/rules/describe.ts); an unknown shape as compact JSON. */
export function condition(c: unknown): string {
  return describeCondition(c, short);
}

function proposal(p: unknown): string {
  const x = p as { action?: string; recovery?: string; priority?: number; scale?: number; axes?: string } | undefined;
  if (!x || typeof x.action !== 'string') return short(p);
  const priority = ` (priority ${x.priority ?? 0})`;
  if (x.action === 'recovery') return `recovery ${x.recovery}${priority}`;
  if (x.action === 'clamp') return `clamp ${x.axes === 'xy' ? 'horizontal motion' : 'motion'} ×${x.scale}${priority}`;
  return `${x.action}${priority}`;
}

/** `path: old → new` for each leaf that differs (notes left out), at most MAX_DIFFS of them. */
export function fieldDiffs(before: unknown, after: unknown): string[] {
  const out: string[] = [];
  diff(withoutNotes(before), withoutNotes(after), '', out);
  if (out.length === 0) return ['no behavioural difference'];
  return out.length > MAX_DIFFS ? [...out.slice(0, MAX_DIFFS), `… and ${out.length - MAX_DIFFS} more`] : out;
}

function diff(a: unknown, b: unknown, path: string, out: string[]): void {
  if (same(a, b)) return;
  if (isPlain(a) && isPlain(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) diff(a[k], b[k], path ? `${path}.${k}` : k, out);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => diff(x, b[i], `${path}[${i}]`, out));
    return;
  }
  out.push(`${path || '(entry)'}: ${short(a)} → ${short(b)}`);
}

const same = (a: unknown, b: unknown): boolean => (a === undefined || b === undefined ? a === b : canonicalJson(a) === canonicalJson(b));
const isPlain = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function short(v: unknown): string {
  if (v === undefined) return 'absent';
  const s = canonicalJson(v);
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}
