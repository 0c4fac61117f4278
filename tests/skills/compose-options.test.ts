// Skills that promote a control option (a lag answer): what a skill records of its bundle's manifest,
// and how composition sets it on a run's base bundle, so a mechanism that is not a rule still
// reaches the final system, and two skills answering the same lag differently conflict.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BundleManifestSchema } from '../../critic/index.js';
import { loadBundle } from '../../critic/bundles/bundle.js';
import { ArtifactStore } from '../../evolution/campaign/artifacts.js';
import { ENVELOPE_ONLY, NO_BUNDLE, readBundle, writeBundle, type BundleContent } from '../../evolution/synthesis/bundle-files.js';
import { isTaskNeutral, optionChanges, type OptionChanges } from '../../skills/changes.js';
import { applicability } from '../../skills/applicability.js';
import { composeSkills, type ComposableSkill } from '../../skills/compose.js';
import type { SkillContent } from '../../skills/skill.js';
import { TABLETOP_LAYOUT } from '../support/tabletop.js';

const DEFAULT = readBundle('default', TABLETOP_LAYOUT, true);
const TARGET = {
  world: 'tabletop',
  features: TABLETOP_LAYOUT.features.map((f) => f.name),
  privilegedAuthorized: false,
  suite: 'spatial',
  task: 'spatial/left_cube_in_bowl',
};
const none = { added: [], replaced: [], removed: [] };

function optionSkill(id: string, options: OptionChanges): ComposableSkill {
  const content = {
    version: 1,
    name: `align_chunks@${id}`,
    description: 'a lag answer',
    guard: {
      world: 'tabletop',
      features: [],
      privileged: false,
      conditions: [],
      tags: { suite: 'spatial', source_task: 'spatial/left_cube_in_bowl' },
    },
    changes: { base: { name: 'none', sha256: NO_BUNDLE.sha256 }, rules: none, programs: none, options },
  } as unknown as SkillContent;
  return { id, content };
}

describe('control options in skills', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zetta-compose-options-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const load = (bundle: BundleContent) => {
    const stored = writeBundle(new ArtifactStore(dir), bundle);
    return loadBundle(join(dir, stored.dir!), { layout: TABLETOP_LAYOUT, privileged: false });
  };

  it('records the options a promoted manifest sets otherwise than its base, defaults filled in alike', () => {
    const base = BundleManifestSchema.parse(NO_BUNDLE.manifest);
    const promoted = BundleManifestSchema.parse({ ...NO_BUNDLE.manifest, name: 'evo', align_chunks_to_lag: true });
    expect(optionChanges(base, promoted)).toEqual({ align_chunks_to_lag: true });
    expect(optionChanges(base, BundleManifestSchema.parse({ ...NO_BUNDLE.manifest, name: 'renamed' }))).toEqual({});
    // the default turns the lag answer off where the skill's base had one
    expect(optionChanges(BundleManifestSchema.parse(DEFAULT.manifest), base)).toMatchObject({ align_chunks_to_lag: null });
  });

  it('sets a promoted lag answer on a base without one, and the composed bundle aligns chunks', () => {
    const c = composeSkills(ENVELOPE_ONLY, [optionSkill('aligned', { align_chunks_to_lag: true })], TARGET);
    expect(c.loaded).toEqual(['aligned']);
    expect(c.decisions[0]).toMatchObject({ loaded: true, rules: ['align_chunks_to_lag'], programs: [] });
    expect(load(ENVELOPE_ONLY).alignChunksToLag).toBeNull();
    expect(load(c.bundle).alignChunksToLag).not.toBeNull();
  });

  it("replaces the base's other lag answer, since a bundle holds one", () => {
    const c = composeSkills(DEFAULT, [optionSkill('waits', { wait_out_lag: true })], TARGET);
    expect(c.loaded).toEqual(['waits']);
    expect(c.bundle.manifest).toMatchObject({ wait_out_lag: true });
    expect(c.bundle.manifest).not.toHaveProperty('align_chunks_to_lag');
    const loaded = load(c.bundle);
    expect(loaded.waitOutLag).not.toBeNull();
    expect(loaded.alignChunksToLag).toBeNull();
  });

  it('loads neither of two skills answering the lag differently at equal rank, and one of two answering it alike', () => {
    const clash = composeSkills(
      ENVELOPE_ONLY,
      [optionSkill('aligned', { align_chunks_to_lag: true }), optionSkill('waits', { wait_out_lag: true })],
      TARGET,
    );
    expect(clash.loaded).toEqual([]);
    expect(clash.conflicts).toEqual([{ skills: ['aligned', 'waits'], on: 'the answer to an actuation lag', winner: null }]);

    const twice = composeSkills(
      ENVELOPE_ONLY,
      [optionSkill('first', { align_chunks_to_lag: true }), optionSkill('again', { align_chunks_to_lag: true })],
      TARGET,
    );
    expect(twice.loaded).toEqual(['first', 'again']);
    // ranked by id at equal rank: `again` loads and `first` repeats its change
    expect(twice.decisions[0]!.reason).toMatch(/makes the same change as skill again .*: applied once/);
    expect(load(twice.bundle).alignChunksToLag).not.toBeNull();
  });

  it('skips a skill that sets nothing, as before options counted', () => {
    const c = composeSkills(ENVELOPE_ONLY, [optionSkill('empty', {})], TARGET);
    expect(c.loaded).toEqual([]);
    expect(c.decisions[0]!.reason).toMatch(/changes nothing in the bundle its campaign started from/);
  });

  it('holds a lag answer alone on every suite, and a rule or a conditional answer with its family', () => {
    const aligned = optionSkill('aligned', { align_chunks_to_lag: true }).content.changes;
    expect(isTaskNeutral(aligned)).toBe(true);
    expect(isTaskNeutral({ ...aligned, options: { align_chunks_to_lag: null, wait_out_lag: true } })).toBe(true);
    // a condition reads the task's features; a rule is fitted to its family
    expect(
      isTaskNeutral({ ...aligned, options: { align_chunks_to_lag: { when: { op: 'gt', feature: 'robot.eef_z', value: 0.1 } } } }),
    ).toBe(false);
    const rule = { id: 'r', when: { op: 'gt', feature: 'robot.eef_z', value: 0.3 }, propose: { action: 'hold' } };
    expect(isTaskNeutral({ ...aligned, rules: { ...none, added: [rule] } })).toBe(false);
    expect(isTaskNeutral({ ...aligned, options: {} })).toBe(false);
    // what the tag does: a skill of suite all loads on another family's task, one of spatial does not
    const goal = { ...TARGET, suite: 'goal', task: 'goal/open_drawer' };
    const guard = optionSkill('aligned', {}).content.guard;
    expect(applicability({ guard: { ...guard, tags: { ...guard.tags, suite: 'all' } } }, goal).ok).toBe(true);
    expect(applicability({ guard }, goal).reason).toMatch(/applies to the spatial suite/);
  });
});
