// `zetta evolve --root DIR` run again on a root that is not this campaign's (issue 37, item 12): a
// root holding another campaign, or whose state.json was damaged, is told in one line naming the
// root or the file and what is wrong, exit code 2 (it was "a fault in zetta", exit code 1).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runZetta } from '../support/zetta-process.js';

const dir = mkdtempSync(join(tmpdir(), 'zetta-evolve-root-'));

/** The smallest campaign: one development episode, one held-out seed, no confirmation. */
const evolve = (root: string, ...extra: string[]) =>
  runZetta([
    'evolve',
    '--suite',
    'goal',
    '--task',
    'goal/press_button',
    '--root',
    root,
    '--dev-episodes',
    '1',
    '--generations',
    '1',
    '--heldout-seeds',
    '1000',
    '--confirm-seeds',
    'none',
    ...extra,
  ]);

function oneLine(r: { code: number; stderr: string }): string {
  expect(r.code).toBe(2);
  const lines = r.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(r.stderr).not.toMatch(/a fault in zetta|\n\s+at /);
  return lines[0]!;
}

describe('zetta evolve on a root that is not this campaign', () => {
  beforeAll(async () => {
    const first = await evolve(join(dir, 'a'));
    expect(first.code).toBe(0);
  }, 120_000);

  it('another campaign root (different seeds): one line naming the root, exit 2', async () => {
    const r = await evolve(join(dir, 'a'), '--heldout-seeds', '1001');
    expect(oneLine(r)).toBe(
      `zetta evolve: --root ${join(dir, 'a')}: the campaign root holds a different campaign (differs in: seeds); use a new --root`,
    );
  });

  it.each([
    ['not JSON', '{"version": 1, "phase": ', /state\.json is not a campaign state: not valid JSON/],
    [
      'an unknown phase',
      '{"version":1,"phase":"bogus","generation":1,"candidate":null,"ledger":{}}',
      /state\.json is not a campaign state: phase: /,
    ],
    [
      'a ledger entry that is no hash',
      '{"version":1,"phase":"done","generation":1,"candidate":null,"ledger":{"manifest.json":7}}',
      /ledger\.manifest\.json: /,
    ],
  ])('a state.json that is %s: one line naming the file, exit 2', async (what, text, problem) => {
    const root = join(dir, what.replace(/\W+/g, '-'));
    expect((await evolve(root)).code).toBe(0);
    writeFileSync(join(root, 'state.json'), text);
    const line = oneLine(await evolve(root));
    expect(line).toContain(`zetta evolve: ${join(root, 'state.json')} is not a campaign state: `);
    expect(line).toMatch(problem);
  });
});
