// How a run tells its skills: which loaded for which tasks and why the others did not (grouped by
// skill, each reason once with the tasks it holds for), and afterwards which fired and how often.
import type { ActiveSkills, SkillFiring } from './active-skills.js';

export function formatSkillsLoaded(s: ActiveSkills): string {
  const lines = [`skills: ${s.active.length} active in ${s.db}`];
  const bySkill = new Map<string, { name: string; loaded: string[]; skipped: Map<string, string[]> }>();
  for (const [task, t] of Object.entries(s.tasks)) {
    for (const d of t.decisions) {
      const e = bySkill.get(d.id) ?? { name: d.name, loaded: [] as string[], skipped: new Map<string, string[]>() };
      if (d.loaded) e.loaded.push(task);
      else e.skipped.set(d.reason, [...(e.skipped.get(d.reason) ?? []), task]);
      bySkill.set(d.id, e);
    }
  }
  for (const [id, e] of bySkill) {
    lines.push(`  ${id} ${e.name}: loaded for ${e.loaded.length === 0 ? 'no task' : e.loaded.join(', ')}`);
    for (const [reason, tasks] of e.skipped)
      lines.push(`    not loaded for ${tasks.length === 1 ? tasks[0] : `${tasks.length} tasks`}: ${reason}`);
  }
  return lines.join('\n');
}

export function formatSkillFirings(firings: readonly SkillFiring[]): string {
  if (firings.length === 0) return '  skills: none loaded';
  const width = Math.max(...firings.map((f) => f.id.length + 1 + f.name.length), 5);
  return [
    `  ${'skill'.padEnd(width)}  ${'tasks'.padStart(5)}  ${'episodes fired'.padStart(14)}  firings`,
    ...firings.map(
      (f) =>
        `  ${`${f.id} ${f.name}`.padEnd(width)}  ${String(f.tasks.length).padStart(5)}  ${`${f.episodesFired}/${f.episodes}`.padStart(14)}  ${f.firings}`,
    ),
  ].join('\n');
}
