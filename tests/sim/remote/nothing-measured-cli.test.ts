// `zetta eval --env …` against a server whose simulator fails every episode (SIM_FAILED on each
// reset, a real socket): no success rate exists, so the command says so in one line and exits 3
// instead of 0 with "macro success NaN%". The CLI runs as a user runs it (bin/zetta.js over dist/).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runZetta } from '../../support/zetta-process.js';
import { GOOD, ScriptedServer } from './scripted-env-server.js';

const dir = mkdtempSync(join(tmpdir(), 'zetta-nothing-measured-'));
const servers: ScriptedServer[] = [];
afterAll(() => {
  for (const s of servers.splice(0)) s.close();
  rmSync(dir, { recursive: true, force: true });
});

async function evalAgainst(reset: () => Record<string, unknown>, out: string) {
  const server = await ScriptedServer.start((req) => (req.op === 'reset' ? reset() : GOOD[req.op as string]!()));
  servers.push(server);
  const args = ['eval', '--env', server.spec(), '--tasks', 's/t', '--episodes', '2', '--policy', 'null:open', '--no-record'];
  return runZetta([...args, '--out', join(dir, out)], 120_000);
}

describe('an evaluation in which nothing could be measured', () => {
  it('every episode lost to SIM_FAILED: one line naming the reason, exit code 3, no NaN', async () => {
    const r = await evalAgainst(() => ({ ok: false, error: { code: 'SIM_FAILED', message: 'MuJoCo died' } }), 'failed');
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(
      /^zetta eval: nothing was measured: all 2 episodes were infrastructure failures \(×2: .*"reset": SIM_FAILED: MuJoCo died\)$/m,
    );
    expect(r.stdout).toMatch(/macro success n\/a;/);
    expect(r.stdout).not.toMatch(/NaN/);
  });

  it('an evaluation with one measured episode still exits 0', async () => {
    let resets = 0;
    const r = await evalAgainst(
      () => (++resets % 3 === 1 ? GOOD.reset!() : { ok: false, error: { code: 'SIM_FAILED', message: 'MuJoCo died' } }),
      'partial',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/nothing was measured/);
  });
});
