// The rules and programs a skill adds are its own: campaigns name what they generate after their
// generation and candidate (`evo.g1-k0.disturbance`), so two campaigns' additions can share a name
// and still be different rules. Composition therefore names each addition after its skill
// (`<skill id>:<id>`, rewriting the rules that start an added program), and asks whether two skills
// make the same change by comparing them with the additions' names left out.
import { behaviourKey, type BundleEntry, type EntryChanges, type SkillChanges } from './changes.js';

/** The skill's changes with its additions named `<skillId>:<id>`. */
export function localizeChanges(skillId: string, c: SkillChanges): SkillChanges {
  const renamed = (e: EntryChanges) => new Map(e.added.map((x) => [x.id, `${skillId}:${x.id}`]));
  return renameAdditions(c, renamed(c.rules), renamed(c.programs));
}

/** Equal for two skills that change the same things in the same way, whatever their additions are called. */
export function changeIdentity(c: SkillChanges): string {
  const ordinal = (e: EntryChanges, kind: string) => new Map(e.added.map((x, i) => [x.id, `${kind}#${i}`]));
  const same = renameAdditions(c, ordinal(c.rules, 'rule'), ordinal(c.programs, 'program'));
  return behaviourKey({ rules: same.rules, programs: same.programs, options: c.options ?? {} });
}

function renameAdditions(c: SkillChanges, rules: ReadonlyMap<string, string>, programs: ReadonlyMap<string, string>): SkillChanges {
  const rule = (r: BundleEntry): BundleEntry => {
    const propose = r['propose'] as { recovery?: string } | undefined;
    const recovery = propose?.recovery !== undefined ? programs.get(propose.recovery) : undefined;
    return { ...r, id: rules.get(r.id) ?? r.id, ...(recovery ? { propose: { ...propose, recovery } } : {}) };
  };
  const program = (p: BundleEntry): BundleEntry => ({ ...p, id: programs.get(p.id) ?? p.id });
  return {
    base: c.base,
    rules: { added: c.rules.added.map(rule), replaced: c.rules.replaced.map(rule), removed: c.rules.removed },
    programs: { added: c.programs.added.map(program), replaced: c.programs.replaced, removed: c.programs.removed },
    ...(c.options ? { options: c.options } : {}),
  };
}
