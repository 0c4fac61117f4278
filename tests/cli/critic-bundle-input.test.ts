// A bundle that names a feature the world does not have, or reads a privileged one without saying
// so in its manifest, is refused by `zetta eval --critic FILE` with one line and exit 2, before any
// episode runs (nothing is written under --out).
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../util/package-root.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'zetta-bundle-'));

async function evalWithCritic(bundle: string, out: string): Promise<{ code: number; stderr: string }> {
  const args = [
    packagePath('bin', 'zetta.js'),
    'eval',
    '--tasks',
    'goal/press_button',
    '--episodes',
    '1',
    '--out',
    out,
    '--critic',
    bundle,
  ];
  try {
    const { stderr } = await run(process.execPath, args, { timeout: 60_000 });
    return { code: 0, stderr };
  } catch (err) {
    const e = err as { code?: number; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stderr: e.stderr ?? '' };
  }
}

/** The shipped default bundle with one rule's feature replaced. */
function bundleReading(name: string, feature: string): string {
  const b = join(dir, name);
  cpSync(packagePath('critic', 'bundles', 'default'), b, { recursive: true });
  const rules = JSON.parse(readFileSync(join(b, 'rules.json'), 'utf8')) as { rules: { when: unknown }[] };
  rules.rules[0]!.when = { op: 'gt', feature, value: 0 };
  writeFileSync(join(b, 'rules.json'), JSON.stringify(rules));
  return b;
}

describe('zetta eval --critic with a bundle the world cannot feed', () => {
  it.each([
    [
      'a feature the world lacks',
      'observed.lid_angle',
      /unknown feature "observed\.lid_angle": the world "tabletop" has no such feature \(nearest: observed\./,
    ],
    [
      'a privileged feature its manifest does not declare',
      'privileged.grasped',
      /privileged feature "privileged\.grasped" .*needs a bundle that declares "privileged": true/,
    ],
  ])('%s: one line, exit 2, no episode', async (name, feature, message) => {
    const out = join(dir, `out-${feature}`);
    const r = await evalWithCritic(bundleReading(name.replace(/\W+/g, '-'), feature), out);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/rules\.json: rules\[0\]\.when\.feature/);
    expect(existsSync(join(out, 'eval.json'))).toBe(false);
    expect(existsSync(join(out, 'episodes'))).toBe(false);
  });
});
