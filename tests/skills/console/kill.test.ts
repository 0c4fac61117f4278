// Killing the console during an approval: the real `zetta console` process is SIGKILLed at several
// moments after an approve request was sent. Each time, the restarted console serves the skill
// either wholly pending (one audit row) or wholly active (two), and the store verifies.
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createToken } from '../../../skills/console/server/index.js';
import { SkillStore, skillFromCampaign, verifyStore } from '../../../skills/index.js';
import { startConsole } from './console-process.js';
import { campaign, tmp } from '../campaign.js';

const DELAYS_MS = [0, 3, 10, 30, 100];

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

describe('zetta console killed during an approval', () => {
  it(`leaves each skill wholly pending or wholly active, ${DELAYS_MS.length} times`, async () => {
    const runs = tmp('zetta-console-kill-');
    const root = join(runs, 'campaign');
    await campaign(root, true);
    const db = join(runs, 'skills.db');
    const { content, files } = await skillFromCampaign(root);
    // one pending skill per kill: the same promotion under another description is another version
    const ids = SkillStore.using(db, (s) => DELAYS_MS.map((_, i) => s.add({ ...content, description: `${content.description} (${i})` }, files, { actor: 'evolve', reason: 'test' }).id));
    const token = createToken(db, 'ada', 'approver');
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const states: string[] = [];
    for (const [i, delay] of DELAYS_MS.entries()) {
      const { child, url } = await startConsole(db, runs);
      const request = fetch(`${url}/api/skills/${ids[i]}/approve`, { method: 'POST', headers: auth, body: JSON.stringify({ reason: `kill ${i}` }) }).catch(() => null);
      await new Promise((r) => setTimeout(r, delay));
      await killed(child);
      await request;
      const restarted = await startConsole(db, runs);
      const body = (await (await fetch(`${restarted.url}/api/skills/${ids[i]}`, { headers: auth })).json()) as { skill: { state: string }; audit: { to_state: string }[] };
      await killed(restarted.child);
      expect([['pending', 1], ['active', 2]]).toContainEqual([body.skill.state, body.audit.length]);
      expect(body.audit.at(-1)!.to_state).toBe(body.skill.state);
      states.push(body.skill.state);
    }
    expect(SkillStore.using(db, (s) => verifyStore(s))).toEqual([]);
    // Which side of the commit each kill lands on depends on the machine; both are whole states.
    expect(states).toHaveLength(DELAYS_MS.length);
  }, 180_000);
});
