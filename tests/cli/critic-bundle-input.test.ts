// A bundle that names a feature the world does not have, or reads a privileged one without saying
// so in its manifest, is refused by `zetta eval --critic FILE` with one line and exit 2, before any
// episode runs (nothing is written under --out).
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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

// issue 37, item 12: these were a stack overflow told as "a fault in zetta", and a plain Error (exit 1)
describe('zetta eval --critic with a bundle that cannot be loaded', () => {
  it('a condition nested 20,000 levels deep: one line naming the file and path, exit 2', async () => {
    const b = join(dir, 'deep');
    cpSync(packagePath('critic', 'bundles', 'default'), b, { recursive: true });
    const deep = `${'{"op":"not","arg":'.repeat(20_000)}{"op":"gt","feature":"robot.gripper_q0","value":0}${'}'.repeat(20_000)}`;
    writeFileSync(join(b, 'rules.json'), `{"rules":[{"id":"deep","when":${deep},"propose":{"action":"hold"}}]}`);
    const out = join(dir, 'out-deep');
    const r = await evalWithCritic(b, out);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/rules\.json: rules\[0\]\.when(\.arg){64}: condition nested more than 64 levels deep/);
    expect(r.stderr).not.toMatch(/a fault in zetta|Maximum call stack/);
    expect(existsSync(join(out, 'eval.json'))).toBe(false);
  });

  it('an empty folder: the missing manifest.json named, exit 2', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const r = await evalWithCritic(empty, join(dir, 'out-empty'));
    expect(r.code).toBe(2);
    const [line, ...rest] = r.stderr.trim().split('\n');
    expect(line).toBe(
      `zetta eval: --critic ${empty}: ${join(empty, 'manifest.json')}: no such file (a critic bundle folder holds manifest.json)`,
    );
    expect(rest).toEqual(['(see zetta eval --help)']);
  });

  it('a manifest naming ../../etc/hostname: refused naming the field, no byte of the file shown, exit 2', async () => {
    const b = join(dir, 'escape');
    cpSync(packagePath('critic', 'bundles', 'default'), b, { recursive: true });
    const secret = join(dir, 'secret.json');
    writeFileSync(secret, 'top-secret-contents');
    const m = JSON.parse(readFileSync(join(b, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(b, 'manifest.json'), JSON.stringify({ ...m, rules: '../secret.json' }));
    const r = await evalWithCritic(b, join(dir, 'out-escape'));
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`${join(b, 'manifest.json')}: rules: "../secret.json" leads out of the bundle folder`);
    expect(r.stderr).not.toContain('top-');
  });
});
