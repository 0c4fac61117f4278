// A bundle is read as untrusted input (issue 37, items 12 and 13): the files its manifest names lie
// inside its folder (no absolute path, no `..`, no link leading out), no error quotes a file's text,
// conditions nest at most MAX_CONDITION_DEPTH deep (a 20,000-deep one overflowed the stack), and a
// folder without manifest.json is named as such. Every refusal is a CriticLoadError naming the file.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBundle, resolveBundlePath } from '../../critic/bundles/bundle.js';
import { CriticLoadError } from '../../critic/errors.js';
import { MAX_CONDITION_DEPTH } from '../../critic/nesting.js';
import { loadRulesText } from '../../critic/rules/compile.js';
import { packagePath } from '../../util/package-root.js';
import { TABLETOP_LAYOUT } from '../support/tabletop.js';

const dir = mkdtempSync(join(tmpdir(), 'zetta-bundle-input-'));
const options = { layout: TABLETOP_LAYOUT, privileged: true };
const SECRET = 'top-secret-contents';

/** A copy of the shipped default bundle, changed by `edit`. */
function bundle(name: string, edit: (b: string) => void): string {
  const b = join(dir, name);
  cpSync(packagePath('critic', 'bundles', 'default'), b, { recursive: true });
  edit(b);
  return b;
}

function setManifest(b: string, fields: Record<string, unknown>): void {
  const m = JSON.parse(readFileSync(join(b, 'manifest.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(b, 'manifest.json'), JSON.stringify({ ...m, ...fields }));
}

function loadError(spec: string): CriticLoadError {
  try {
    loadBundle(spec, options);
  } catch (err) {
    expect(err).toBeInstanceOf(CriticLoadError);
    return err as CriticLoadError;
  }
  throw new Error(`${spec} loaded`);
}

/** `{"op":"not","arg": … }` `depth` levels around a comparison, as text (JSON.stringify itself overflows at 20,000). */
function notChain(depth: number): string {
  return `${'{"op":"not","arg":'.repeat(depth)}{"op":"gt","feature":"robot.gripper_q0","value":0}${'}'.repeat(depth)}`;
}

/** A rule file whose first rule's condition is `condition` (text). */
function rulesWith(condition: string): string {
  return `{"rules":[{"id":"deep","when":${condition},"propose":{"action":"hold"}}]}`;
}

describe('the files a bundle manifest names', () => {
  const outsideFile = join(dir, 'outside.json');
  writeFileSync(outsideFile, `"${SECRET}"`);

  it.each([
    [
      'a .. that leads out',
      '../../../../../../../../etc/hostname',
      /manifest\.json: rules: "(\.\.\/)+etc\/hostname" leads out of the bundle folder/,
    ],
    ['an absolute path', outsideFile, /manifest\.json: rules: ".*outside\.json" is an absolute path/],
  ])('%s is refused, naming the manifest field, without reading it', (what, rules, message) => {
    const b = bundle(`escape-${what.replace(/\W+/g, '-')}`, (d) => setManifest(d, { rules }));
    const err = loadError(b);
    expect(err.file).toBe(join(b, 'manifest.json'));
    expect(err.path).toBe('rules');
    expect(err.message).toMatch(message);
    expect(err.message).not.toContain(SECRET);
  });

  it('a link that leads out is refused', () => {
    const b = bundle('escape-link', (d) => {
      symlinkSync(outsideFile, join(d, 'linked.json'));
      setManifest(d, { recoveries: 'linked.json' });
    });
    const err = loadError(b);
    expect(err.path).toBe('recoveries');
    expect(err.message).toMatch(/"linked\.json" is a link that leads out of the bundle folder/);
    expect(err.message).not.toContain(SECRET);
  });

  it('a subfolder and a link that stays inside are fine', () => {
    const b = bundle('inside', (d) => {
      mkdirSync(join(d, 'sub'));
      cpSync(join(d, 'rules.json'), join(d, 'sub', 'rules.json'));
      symlinkSync(join(d, 'recoveries.json'), join(d, 'rec-link.json'));
      setManifest(d, { rules: 'sub/../sub/rules.json', recoveries: 'rec-link.json' });
    });
    expect(loadBundle(b, options).rules.size).toBeGreaterThan(0);
  });

  it('a named file that is not JSON is refused without quoting it', () => {
    const b = bundle('not-json', (d) => writeFileSync(join(d, 'rules.json'), `${SECRET} and more`));
    const err = loadError(b);
    expect(err.message).toMatch(/rules\.json: \(root\): not valid JSON/);
    expect(err.message).not.toContain(SECRET);
    expect(err.message).not.toContain('top-');
  });
});

describe('how deep a condition may nest', () => {
  it('20,000 levels of not: refused at load naming the file and path, no stack overflow', () => {
    const b = bundle('deep', (d) => writeFileSync(join(d, 'rules.json'), rulesWith(notChain(20_000))));
    const err = loadError(b);
    expect(err.file).toBe(join(b, 'rules.json'));
    expect(err.path).toBe(`rules[0].when${'.arg'.repeat(MAX_CONDITION_DEPTH)}`);
    expect(err.problem).toBe(`condition nested more than ${MAX_CONDITION_DEPTH} levels deep`);
  });

  it('the limit itself loads; one more does not', () => {
    const load = (depth: number) => loadRulesText(rulesWith(notChain(depth)), { ...options, knownRecoveries: [], file: 'r.json' });
    // the comparison at the bottom is a condition too
    expect(load(MAX_CONDITION_DEPTH - 1).size).toBe(1);
    expect(() => load(MAX_CONDITION_DEPTH)).toThrow(/r\.json: rules\[0\]\.when(\.arg)+: condition nested more than 64 levels deep/);
  });

  it('deep nesting that is no condition is refused too', () => {
    const text = `{"rules":[{"id":"x","when":{"op":"gt","feature":"robot.gripper_q0","value":0},"propose":{"action":"hold"},"evidence":${'['.repeat(20_000)}${']'.repeat(20_000)}}]}`;
    expect(() => loadRulesText(text, { ...options, knownRecoveries: [], file: 'r.json' })).toThrow(/nested more than 256 levels deep/);
  });
});

describe('a folder that is not a bundle', () => {
  it('an empty folder names the missing manifest.json', () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    expect(() => resolveBundlePath(empty)).toThrow(CriticLoadError);
    expect(() => resolveBundlePath(empty)).toThrow(
      `${join(empty, 'manifest.json')}: no such file (a critic bundle folder holds manifest.json)`,
    );
  });
});
