import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBundle, resolveBundlePath } from '../../critic/bundles/bundle.js';
import { CriticLoadError } from '../../critic/index.js';
import { defaultBundleWithManifest } from '../support/default-bundle.js';
import { TABLETOP_LAYOUT } from '../support/tabletop.js';

const textOf = (b: ReturnType<typeof loadBundle>) =>
  readFileSync(join(dirname(b.path), b.manifest.rules), 'utf8') + readFileSync(join(dirname(b.path), b.manifest.recoveries), 'utf8');

/** Tools that do a task stage (close on an object, let go of it, pull a handle): the policy's work. */
const TASK_STAGE_TOOLS = ['close_gripper', 'release', 'lower', 'press', 'pull', 'push', 'descend'];

describe('the default critic bundle (observable)', () => {
  const bundle = loadBundle('default', { layout: TABLETOP_LAYOUT, privileged: false });

  it('loads without privileged authorization, and every rule proposal and every recovery resolves', () => {
    expect(bundle.manifest.name).toBe('default');
    expect(bundle.manifest.privileged).toBe(false);
    expect(bundle.hash).toMatch(/^[0-9a-f]{12}$/);
    const programs = new Set(bundle.recoveries.ids);
    for (const r of bundle.rules.rules) {
      if (r.proposal.action === 'recovery') expect(programs.has(r.proposal.recovery!)).toBe(true);
    }
    // Every program is used by some rule: nothing shipped is dead.
    const used = new Set(bundle.rules.rules.map((r) => r.proposal.recovery));
    for (const id of programs) expect(used.has(id)).toBe(true);
  });

  it('reads no privileged feature, only what a robot observes', () => {
    expect(textOf(bundle)).not.toMatch(/privileged\./);
    expect(textOf(bundle)).toMatch(/observed\.object_x/);
  });

  it('only restores: no program closes on, releases, lowers onto, presses or pulls anything', () => {
    const text = JSON.parse(readFileSync(join(dirname(bundle.path), bundle.manifest.recoveries), 'utf8')) as {
      programs: { steps: { tool: string; params?: { gripper?: string } }[] }[];
    };
    const tools = text.programs.flatMap((p) => p.steps.map((s) => s.tool));
    for (const t of TASK_STAGE_TOOLS) expect(tools).not.toContain(t);
    const grips = text.programs.flatMap((p) => p.steps.map((s) => s.params?.gripper ?? 'keep'));
    expect(grips).not.toContain('close');
  });

  it('covers missed grasps, blocked hands and the workspace edge, with safety rules for the hard limits', () => {
    const ids = bundle.rules.rules.map((r) => r.id);
    for (const id of ['closing_beside_object', 'grasp_closed_on_nothing', 'hovering_lost', 'leaving_workspace', 'hand_blocked'])
      expect(ids).toContain(id);
    const safety = bundle.rules.rules.filter((r) => r.proposal.safety).map((r) => r.id);
    expect(safety).toEqual(expect.arrayContaining(['leaving_workspace', 'hand_blocked', 'non_finite_action']));
  });

  it('never reads a success flag (there is no such feature, and no rule names one)', () => {
    expect(TABLETOP_LAYOUT.features.some((f) => /success|goal_progress/.test(f.name))).toBe(false);
    expect(textOf(bundle)).not.toMatch(/success|goal_progress/);
  });

  it('loads a bundle from a directory or a manifest path, and names the path of a bad entry', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zetta-bundle-'));
    const src = dirname(resolveBundlePath('default'));
    writeFileSync(join(dir, 'rules.json'), readFileSync(join(src, 'rules.json')));
    writeFileSync(join(dir, 'recoveries.json'), readFileSync(join(src, 'recoveries.json')));
    writeFileSync(
      join(dir, 'manifest.json'),
      JSON.stringify({ version: 1, name: 'copy', privileged: false, rules: 'rules.json', recoveries: 'recoveries.json' }),
    );
    expect(loadBundle(dir, { layout: TABLETOP_LAYOUT, privileged: false }).rules.size).toBe(bundle.rules.size);
    expect(loadBundle(join(dir, 'manifest.json'), { layout: TABLETOP_LAYOUT, privileged: false }).manifest.name).toBe('copy');
    const rules = JSON.parse(readFileSync(join(src, 'rules.json'), 'utf8')) as { rules: { propose: { recovery?: string } }[] };
    rules.rules[3]!.propose.recovery = 'teleport';
    writeFileSync(join(dir, 'rules.json'), JSON.stringify(rules));
    expect(() => loadBundle(dir, { layout: TABLETOP_LAYOUT, privileged: false })).toThrow(
      /rules\.json: rules\[3\]\.propose\.recovery: .*teleport/,
    );
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ version: 1, name: 'x', privileged: false, rules: 'rules.json' }));
    expect(() => loadBundle(dir, { layout: TABLETOP_LAYOUT, privileged: false })).toThrow(/manifest\.json: recoveries/);
    expect(() => loadBundle(join(dir, 'nowhere'), { layout: TABLETOP_LAYOUT, privileged: false })).toThrow(/no critic bundle/);
  });
});

describe("the manifest's answers to an actuation lag: wait_out_lag, align_chunks_to_lag", () => {
  const dir = mkdtempSync(join(tmpdir(), 'zetta-bundle-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let copies = 0;
  /** The default bundle with its lag settings replaced by `extra`'s (absent when `extra` has none). */
  const withManifest = (extra: Record<string, unknown>) => {
    const copy = defaultBundleWithManifest(dir, `wait-${copies++}`, (m) => {
      delete m.wait_out_lag;
      delete m.align_chunks_to_lag;
      Object.assign(m, extra);
    });
    return loadBundle(copy, { layout: TABLETOP_LAYOUT, privileged: false });
  };
  const frame = (values: Record<string, number>) => {
    const v = new Float64Array(TABLETOP_LAYOUT.size).fill(Number.NaN);
    for (const [name, x] of Object.entries(values)) v[TABLETOP_LAYOUT.index(name)] = x;
    return v;
  };

  it('is off when absent or false, and always on when true', () => {
    expect(withManifest({}).waitOutLag).toBeNull();
    expect(withManifest({ wait_out_lag: false }).waitOutLag).toBeNull();
    expect(withManifest({ wait_out_lag: true }).waitOutLag!(frame({}))).toBe(true);
  });

  it('holds only where its condition is true on the frame (unknown is not true)', () => {
    const when = withManifest({ wait_out_lag: { when: { op: 'ge', feature: 'derived.motion_explained', value: 0.85 } } }).waitOutLag!;
    expect(when(frame({ 'derived.motion_explained': 0.95 }))).toBe(true);
    expect(when(frame({ 'derived.motion_explained': 0.6 }))).toBe(false);
    expect(when(frame({}))).toBe(false);
  });

  it('the default bundle aligns chunks and never waits', () => {
    const bundle = loadBundle('default', { layout: TABLETOP_LAYOUT, privileged: false });
    expect(bundle.alignChunksToLag!(frame({}))).toBe(true);
    expect(bundle.waitOutLag).toBeNull();
    expect(withManifest({}).alignChunksToLag).toBeNull();
  });

  it('aligns only where its condition is true on the frame, as the wait does', () => {
    const when = withManifest({ align_chunks_to_lag: { when: { op: 'ge', feature: 'observed.objects_left', value: 1 } } })
      .alignChunksToLag!;
    expect(when(frame({ 'observed.objects_left': 1 }))).toBe(true);
    expect(when(frame({ 'observed.objects_left': 0 }))).toBe(false);
    const stagnant = { op: 'stagnant', feature: 'robot.eef_z', window: 5, eps: 0.001 };
    expect(() => withManifest({ align_chunks_to_lag: { when: stagnant } })).toThrow(
      /manifest\.json: align_chunks_to_lag\.when: "stagnant" looks back/,
    );
  });

  it('refuses a bundle that both waits and aligns, and an align that is neither a boolean nor a condition', () => {
    expect(() => withManifest({ wait_out_lag: true, align_chunks_to_lag: true })).toThrow(
      /manifest\.json: align_chunks_to_lag: both .* keep one/,
    );
    expect(withManifest({ wait_out_lag: true, align_chunks_to_lag: false }).waitOutLag).not.toBeNull();
    expect(() => withManifest({ align_chunks_to_lag: 'yes' })).toThrow(/manifest\.json: align_chunks_to_lag/);
  });

  it('refuses a look-back operator and an unknown feature, naming the path', () => {
    const stagnant = { op: 'stagnant', feature: 'robot.eef_z', window: 5, eps: 0.001 };
    expect(() => withManifest({ wait_out_lag: { when: { op: 'or', args: [stagnant] } } })).toThrow(
      /manifest\.json: wait_out_lag\.when: "stagnant" looks back/,
    );
    expect(() => withManifest({ wait_out_lag: { when: { op: 'ge', feature: 'derived.nope', value: 1 } } })).toThrow(
      /wait_out_lag\.when\.feature: unknown feature "derived\.nope"/,
    );
    expect(() => withManifest({ wait_out_lag: 'yes' })).toThrow(/manifest\.json: wait_out_lag/);
  });
});

describe('the oracle bundle (privileged)', () => {
  const oracle = loadBundle('oracle', { layout: TABLETOP_LAYOUT, privileged: true });

  it('is marked privileged and reads simulator truth', () => {
    expect(oracle.manifest.name).toBe('oracle');
    expect(oracle.manifest.privileged).toBe(true);
    expect(oracle.manifest.description).toMatch(/PRIVILEGED, never the default/);
    expect(textOf(oracle)).toMatch(/privileged\.grasped/);
  });

  it('refuses to load where privileged features are not authorized, naming the file', () => {
    expect(() => loadBundle('oracle', { layout: TABLETOP_LAYOUT, privileged: false })).toThrow(CriticLoadError);
    expect(() => loadBundle('oracle', { layout: TABLETOP_LAYOUT, privileged: false })).toThrow(
      /manifest\.json: privileged: .*not authorize/,
    );
  });
});
