// Several processes writing one skill store at once: each adds skills of its own and the same shared
// skills, then they race to approve or reject the shared ones. Afterwards the store is consistent:
// no audit row lost or duplicated, each shared skill created once and moved once, and every
// transition a process reported is in the audit log exactly once, agreeing with the final states.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SkillStore, verifyStore } from '../../skills/index.js';
import { tmp } from './campaign.js';
import { runFixture } from './processes.js';

const WORKERS = 6;
const OWN = 8;
const SHARED = 6;

interface Report {
  created: string[];
  transitions: Array<{ id: string; from: string; to: string; actor: string }>;
  refused: number;
}

describe('the skill store under concurrent writers', () => {
  it(`stays consistent with ${WORKERS} processes adding and moving skills at once`, async () => {
    const db = join(tmp(), 'skills.db'); // created by whichever process gets there first
    const runs = await Promise.all(
      Array.from({ length: WORKERS }, (_, w) => runFixture('skills-writer.mjs', [db, `w${w}`, String(OWN), String(SHARED)])),
    );
    for (const r of runs) expect(r.stderr).toBe('');
    expect(runs.map((r) => r.code)).toEqual(Array(WORKERS).fill(0));
    const reports = runs.map((r) => JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Report);

    const store = SkillStore.open(db);
    expect(verifyStore(store)).toEqual([]);
    const skills = store.list();
    const audit = store.auditLog();
    store.close();
    expect(skills).toHaveLength(WORKERS * OWN + SHARED);
    const created = reports.flatMap((r) => r.created);
    expect(new Set(created).size).toBe(created.length); // each shared skill created by one process only
    expect(created.sort()).toEqual(skills.map((s) => s.id).sort());
    const transitions = reports.flatMap((r) => r.transitions);
    // every audit row is a creation or a transition some process saw commit; nothing lost, nothing twice
    expect(audit).toHaveLength(created.length + transitions.length);
    expect(new Set(audit.map((r) => r.seq)).size).toBe(audit.length);
    const key = (t: { id: string; from: string | null; to: string; actor: string }) => `${t.id} ${t.from} ${t.to} ${t.actor}`;
    const moved = audit
      .filter((r) => r.from_state !== null)
      .map((r) => key({ id: r.skill_id, from: r.from_state, to: r.to_state, actor: r.actor }));
    expect(moved.sort()).toEqual(transitions.map(key).sort());
    const states = new Map(skills.map((s) => [s.id, s.state]));
    const shared = skills.filter((s) => s.content.name.startsWith('shared-'));
    for (const s of shared) expect(['active', 'rejected']).toContain(s.state);
    for (const s of skills.filter((x) => !x.content.name.startsWith('shared-'))) expect(s.state).toBe('retired');
    // of the WORKERS processes racing on a shared skill, one moved it and the rest were refused
    expect(reports.reduce((n, r) => n + r.refused, 0)).toBe(SHARED * (WORKERS - 1));
    for (const t of transitions) if (t.from === 'pending' && shared.some((s) => s.id === t.id)) expect(states.get(t.id)).toBe(t.to);
  }, 120_000);
});
