// The store's own consistency check: every skill's audit trail starts at its creation, follows only
// allowed lifecycle edges without a gap, and ends in the state the skill is in; every content and
// bundle file still hashes to its name. Tests run it after concurrent writers and after SIGKILLs.
import { allowedEdge } from '../lifecycle.js';
import type { SkillStore } from './skill-store.js';

export function verifyStore(store: SkillStore): string[] {
  const problems: string[] = [];
  const audit = store.auditLog();
  const seqs = new Set<number>();
  for (const row of audit) {
    if (seqs.has(row.seq)) problems.push(`audit row ${row.seq} appears twice`);
    seqs.add(row.seq);
  }
  let skills: ReturnType<SkillStore['list']>;
  try {
    skills = store.list();
  } catch (err) {
    return [...problems, (err as Error).message];
  }
  const known = new Set(skills.map((s) => s.id));
  for (const row of audit) if (!known.has(row.skill_id)) problems.push(`audit row ${row.seq} names no skill (${row.skill_id})`);
  for (const skill of skills) {
    const trail = audit.filter((r) => r.skill_id === skill.id);
    let state: string | null = null;
    for (const r of trail) {
      if (r.from_state !== state)
        problems.push(`skill ${skill.id}: audit row ${r.seq} goes from ${r.from_state}, but the skill was ${state}`);
      if (!allowedEdge(r.from_state, r.to_state))
        problems.push(`skill ${skill.id}: audit row ${r.seq}: ${r.from_state} → ${r.to_state} is not a lifecycle edge`);
      if (r.content_sha256 !== skill.content_sha256) problems.push(`skill ${skill.id}: audit row ${r.seq} names other content`);
      state = r.to_state;
    }
    if (state !== skill.state) problems.push(`skill ${skill.id} is ${skill.state}, but its audit trail ends at ${state}`);
    try {
      store.bundle(skill.id);
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  return problems;
}
