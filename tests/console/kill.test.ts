// Killing the console during an approval: the real `zetta console` process is SIGKILLed at several
// moments after an approve request was sent, one skill per kill. The restarted console then serves
// each skill wholly pending (one audit row) or wholly active (two), and the store verifies.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createToken } from '../../console/server/index.js';
import { SkillStore, skillFromCampaign, verifyStore } from '../../skills/index.js';
import { killConsole, startConsole } from './console-process.js';
import { campaign, tmp } from '../skills/campaign.js';

const DELAYS_MS = [0, 3, 10, 30, 100];

describe('zetta console killed during an approval', () => {
  it(`leaves each skill wholly pending or wholly active, ${DELAYS_MS.length} times`, async () => {
    const runs = tmp('zetta-console-kill-');
    const root = join(runs, 'campaign');
    await campaign(root, true);
    const db = join(runs, 'skills.db');
    const { content, files } = await skillFromCampaign(root);
    // one pending skill per kill: the same promotion under another description is another version
    const ids = SkillStore.using(db, (s) =>
      DELAYS_MS.map(
        (_, i) => s.add({ ...content, description: `${content.description} (${i})` }, files, { actor: 'evolve', reason: 'test' }).id,
      ),
    );
    const token = createToken(db, 'ada', 'approver');
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    for (const [i, delay] of DELAYS_MS.entries()) {
      const server = await startConsole(db, runs);
      const request = fetch(`${server.url}/api/skills/${ids[i]}/approve`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ reason: `kill ${i}` }),
        signal: AbortSignal.timeout(20_000),
      }).catch(() => null);
      await new Promise((r) => setTimeout(r, delay));
      // the console must still be there to be killed: a process that stopped by itself is a fault
      expect(server.child.exitCode, server.stderr()).toBeNull();
      await killConsole(server);
      await request;
    }
    // one restart serves every skill as the kills left it: wholly pending or wholly active
    const restarted = await startConsole(db, runs);
    const states: string[] = [];
    try {
      for (const id of ids) {
        const body = (await (
          await fetch(`${restarted.url}/api/skills/${id}`, { headers: auth, signal: AbortSignal.timeout(20_000) })
        ).json()) as { skill: { state: string }; audit: { to_state: string }[] };
        expect([
          ['pending', 1],
          ['active', 2],
        ]).toContainEqual([body.skill.state, body.audit.length]);
        expect(body.audit.at(-1)!.to_state).toBe(body.skill.state);
        states.push(body.skill.state);
      }
    } finally {
      await killConsole(restarted);
    }
    expect(SkillStore.using(db, (s) => verifyStore(s))).toEqual([]);
    // Which side of the commit each kill lands on depends on the machine; both are whole states.
    expect(states).toHaveLength(DELAYS_MS.length);
  }, 300_000);
});
