// Crash safety: a process adding, approving and retiring skills in a loop is killed with SIGKILL at
// several moments. After each kill the store opens, every skill is wholly in one lifecycle state
// with an audit trail that ends there, and every step the process saw commit is still there.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SkillStore, verifyStore } from '../../skills/index.js';
import { tmp } from './campaign.js';
import { fixture } from './processes.js';

/** Milliseconds after the child is ready (its store open) until SIGKILL. */
const DELAYS = [0, 3, 10, 25, 60, 120, 250];
const ORDER = ['pending', 'active', 'retired'];

/** Runs the loop, kills it `delay` ms after it is ready, returns the steps it printed as committed. */
function killAfter(db: string, run: number, delay: number): Promise<Array<[string, string]>> {
  const child = fixture('skills-crash-loop.mjs', [db, String(run)]);
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const ready = !out.includes('ready\n');
      out += d.toString();
      if (ready && out.includes('ready\n')) setTimeout(() => child.kill('SIGKILL'), delay);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (signal !== 'SIGKILL') return reject(new Error(`the loop ended by itself (code ${code}): ${err}`));
      const lines = out.split('\n').slice(1, -1); // the last line may be cut by the kill
      resolve(lines.map((l) => l.split(' ') as [string, string]));
    });
  });
}

describe('the skill store killed mid-write', () => {
  it(`is whole after SIGKILL at ${DELAYS.length} different moments`, async () => {
    const db = join(tmp(), 'skills.db');
    let total = 0;
    for (const [run, delay] of DELAYS.entries()) {
      const committed = await killAfter(db, run, delay);
      const store = SkillStore.open(db);
      expect(verifyStore(store)).toEqual([]);
      for (const [id, state] of committed) expect(ORDER.indexOf(store.get(id).state)).toBeGreaterThanOrEqual(ORDER.indexOf(state));
      const skills = store.list();
      for (const s of skills) expect(ORDER).toContain(s.state);
      total = skills.length;
      store.close();
    }
    expect(total).toBeGreaterThan(DELAYS.length);
  }, 120_000);
});
