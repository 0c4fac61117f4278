import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBundle, resolveBundlePath } from '../../critic/bundles/bundle.js';
import { CriticLoadError, FEATURES } from '../../critic/index.js';

describe('the default critic bundle', () => {
  const bundle = loadBundle('default', { privileged: true });

  it('loads, and every rule proposal and every recovery resolves', () => {
    expect(bundle.manifest.name).toBe('default');
    expect(bundle.manifest.privileged).toBe(true);
    expect(bundle.manifest.privileged_reason).toMatch(/privileged|simulator/i);
    expect(bundle.hash).toMatch(/^[0-9a-f]{12}$/);
    const programs = new Set(bundle.recoveries.ids);
    for (const r of bundle.rules.rules) {
      if (r.proposal.action === 'recovery') expect(programs.has(r.proposal.recovery!)).toBe(true);
    }
    // Every program is used by some rule: nothing shipped is dead.
    const used = new Set(bundle.rules.rules.map((r) => r.proposal.recovery));
    for (const id of programs) expect(used.has(id)).toBe(true);
  });

  it('covers the failure families the embedded suite needs, with safety rules for the hard limits', () => {
    const ids = bundle.rules.rules.map((r) => r.id);
    for (const id of ['grasp_closed_on_nothing', 'object_slipping', 'progress_stalled', 'gripper_chattering', 'leaving_workspace', 'contact_force_spike', 'oscillation']) {
      expect(ids).toContain(id);
    }
    const safety = bundle.rules.rules.filter((r) => r.proposal.safety).map((r) => r.id);
    expect(safety).toEqual(expect.arrayContaining(['leaving_workspace', 'contact_force_spike', 'non_finite_action']));
  });

  it('never reads a success flag (there is no such feature, and no rule names one)', () => {
    expect(FEATURES.some((f) => /success|goal_progress/.test(f.name))).toBe(false);
    const text = readFileSync(join(dirname(bundle.path), bundle.manifest.rules), 'utf8') + readFileSync(join(dirname(bundle.path), bundle.manifest.recoveries), 'utf8');
    expect(text).not.toMatch(/success|goal_progress/);
  });

  it('refuses to load where privileged features are not authorized, naming the file', () => {
    expect(() => loadBundle('default', { privileged: false })).toThrow(CriticLoadError);
    expect(() => loadBundle('default', { privileged: false })).toThrow(/manifest\.json: privileged: .*not authorize/);
  });

  it('loads a bundle from a directory or a manifest path, and names the path of a bad entry', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zetta-bundle-'));
    const src = dirname(resolveBundlePath('default'));
    writeFileSync(join(dir, 'rules.json'), readFileSync(join(src, 'rules.json')));
    writeFileSync(join(dir, 'recoveries.json'), readFileSync(join(src, 'recoveries.json')));
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ version: 1, name: 'copy', privileged: true, rules: 'rules.json', recoveries: 'recoveries.json' }));
    expect(loadBundle(dir, { privileged: true }).rules.size).toBe(bundle.rules.size);
    expect(loadBundle(join(dir, 'manifest.json'), { privileged: true }).manifest.name).toBe('copy');
    const rules = JSON.parse(readFileSync(join(src, 'rules.json'), 'utf8')) as { rules: { propose: { recovery?: string } }[] };
    rules.rules[3]!.propose.recovery = 'teleport';
    writeFileSync(join(dir, 'rules.json'), JSON.stringify(rules));
    expect(() => loadBundle(dir, { privileged: true })).toThrow(/rules\.json: rules\[3\]\.propose\.recovery: .*teleport/);
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ version: 1, name: 'x', privileged: true, rules: 'rules.json' }));
    expect(() => loadBundle(dir, { privileged: true })).toThrow(/manifest\.json: recoveries/);
    expect(() => loadBundle(join(dir, 'nowhere'), { privileged: true })).toThrow(/no critic bundle/);
  });
});
