// Active skills in runs, end to end through bin/zetta.js and the built dist/: `zetta eval --skills
// active` composes a promoted skill (a real campaign over synthetic episodes, its skill approved in
// a real SQLite store) onto the default bundle where its guard holds, says why it does not load
// elsewhere and counts its firings in the real simulator; `zetta skills transfer` runs the three
// arms with and without it on a task no campaign used. Bad input: one line, exit code 2.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runZetta } from '../support/zetta-process.js';
import { SkillStore, skillFromCampaign } from '../../skills/index.js';
import type { EpisodeOutcome } from '../../zinfra/runtime/run-episode.js';
import { campaign, tmp } from './campaign.js';

const zetta = (...args: string[]) => runZetta(args, 150_000);

/** Exit code 2 and one line saying why (a usage error adds the line pointing at --help). */
function refused(r: { code: number; stderr: string }, message: RegExp): void {
  expect(r.code).toBe(2);
  const [why, ...rest] = r.stderr.trim().split('\n');
  expect(why).toMatch(message);
  expect(rest.filter((l) => !/^\(see zetta .* --help\)$/.test(l))).toEqual([]);
}

const SOURCE = 'spatial/left_cube_in_bowl';
let db: string;
let id: string;

beforeAll(async () => {
  const root = tmp();
  await campaign(root, true);
  db = join(tmp(), 'skills.db');
  const { content, files } = await skillFromCampaign(root);
  id = SkillStore.using(db, (s) => {
    const added = s.add(content, files, { actor: 'ada', reason: 'test' });
    s.transition(added.id, 'approve', { actor: 'bob', reason: 'test' });
    return added.id;
  });
}, 60_000);

describe('zetta eval --skills active', () => {
  it('loads the skill where its guard holds, says why not elsewhere, and counts its firings', async () => {
    const out = join(tmp(), 'eval');
    const r = await zetta(
      'eval',
      '--tasks',
      `${SOURCE},object/green_cube_in_bowl`,
      '--episodes',
      '2',
      '--critic',
      'default',
      '--skills',
      'active',
      '--skills-db',
      db,
      '--no-record',
      '--out',
      out,
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`${id} stall@${SOURCE}: loaded for ${SOURCE}`);
    expect(r.stderr).toContain('not loaded for object/green_cube_in_bowl: applies to the spatial suite');
    const report = JSON.parse(readFileSync(join(out, 'eval.json'), 'utf8')) as {
      skills: {
        tasks: Record<string, { bundle: string | null; decisions: { id: string; loaded: boolean; rules: string[]; programs: string[] }[] }>;
        fired: { id: string; firings: number; episodes: number }[];
      };
      episodes: EpisodeOutcome[];
    };
    expect(report.skills.tasks[SOURCE]!.bundle).toMatch(/skills\/bundles\/[0-9a-f]{12}\/manifest\.json$/);
    expect(report.skills.tasks['object/green_cube_in_bowl']!.bundle).toBeNull();
    const decision = report.skills.tasks[SOURCE]!.decisions[0]!;
    const counted = report.episodes
      .filter((e) => e.task === SOURCE)
      .reduce((n, e) => n + decision.rules.reduce((m, rule) => m + (e.firings[rule] ?? 0), 0), 0);
    expect(report.skills.fired).toEqual([expect.objectContaining({ id, episodes: 2, firings: counted })]);
    expect(r.stdout).toMatch(/episodes fired/);
  }, 150_000);

  it('refuses --skills active without a base bundle, a missing store and an unknown choice', async () => {
    refused(
      await zetta('eval', '--tasks', SOURCE, '--episodes', '1', '--skills', 'active', '--skills-db', db, '--no-record'),
      /--skills active needs --critic C/,
    );
    refused(
      await zetta(
        'eval',
        '--tasks',
        SOURCE,
        '--episodes',
        '1',
        '--critic',
        'default',
        '--skills',
        'active',
        '--skills-db',
        join(tmp(), 'none.db'),
        '--no-record',
      ),
      /no skill store at/,
    );
    const r = await zetta('eval', '--tasks', SOURCE, '--skills', 'all');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--skills all: must be none or active/);
    // zetta run says so before its first stage, not after minutes of it
    refused(
      await zetta('run', '--quick', '--skills', 'active', '--skills-db', join(tmp(), 'none.db'), '--out', tmp()),
      /--skills active: no skill store at/,
    );
  });
});

describe('zetta evolve --skills active', () => {
  it('starts the campaign from the default bundle composed with the skill, frozen in its manifest', async () => {
    const root = join(tmp(), 'campaign');
    const r = await zetta(
      'evolve',
      '--suite',
      'spatial',
      '--task',
      SOURCE,
      '--dev-episodes',
      '2',
      '--generations',
      '1',
      '--heldout-seeds',
      '1000-1001',
      '--confirm-seeds',
      'none',
      '--max-candidates',
      '1',
      '--critic',
      'default',
      '--skills',
      'active',
      '--skills-db',
      db,
      '--root',
      root,
      '--json',
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`${id} stall@${SOURCE}: loaded for ${SOURCE}`);
    const manifest = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8')) as { base_bundle: { spec: string; sha256: string } };
    expect(manifest.base_bundle.spec).toMatch(new RegExp(`${root}/skills/bundles/[0-9a-f]{12}/manifest\\.json$`));
    const base = JSON.parse(readFileSync(join(root, 'bundles', manifest.base_bundle.sha256.slice(0, 12), 'rules.json'), 'utf8')) as {
      rules: { id: string }[];
    };
    expect(base.rules.map((x) => x.id)).toContain(`${id}:${decisionRule()}`);
  }, 150_000);
});

/** The stall rule the synthetic campaign generated (its generation and candidate in the name). */
function decisionRule(): string {
  return SkillStore.using(db, (s) => s.get(id).content.changes.rules.added[0]!.id);
}

describe('zetta skills transfer', () => {
  it('runs the three arms with and without the skill on an untouched task, at the same seeds', async () => {
    const out = join(tmp(), 'transfer');
    const r = await zetta(
      'skills',
      'transfer',
      '--db',
      db,
      '--source',
      SOURCE,
      '--targets',
      'spatial/front_cube_in_bowl',
      '--episodes',
      '2',
      '--no-record',
      '--out',
      out,
      '--json',
    );
    expect(r.code).toBe(0);
    const t = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as {
      seeds: number[];
      targets: {
        task: string;
        loaded: string[];
        without: { both: { episodes: number } };
        with: { both: { episodes: number }; critic_alone: { control: string } };
        p_value: number;
        discordant: { b: number; c: number };
      }[];
    };
    expect(t.seeds).toEqual([1000, 1001]);
    expect(t.targets).toHaveLength(1);
    const target = t.targets[0]!;
    expect(target).toMatchObject({ task: 'spatial/front_cube_in_bowl', loaded: [id] });
    expect([target.without.both.episodes, target.with.both.episodes]).toEqual([2, 2]);
    expect(target.with.critic_alone.control).toMatch(/^null:/);
    expect(target.p_value).toBeGreaterThan(0);
    expect(target.p_value).toBeLessThanOrEqual(1);
    expect(r.stdout).toMatch(/\| spatial\/front_cube_in_bowl \| 1 \|/);
  }, 150_000);

  it('refuses a target a campaign used and a source with no active skill', async () => {
    refused(
      await zetta('skills', 'transfer', '--db', db, '--source', SOURCE, '--targets', SOURCE, '--no-record'),
      /both a source and a target/,
    );
    refused(
      await zetta('skills', 'transfer', '--db', db, '--source', 'goal/press_button', '--targets', SOURCE, '--no-record'),
      new RegExp(`${SOURCE} is the task skill ${id}'s campaign ran on`),
    );
    refused(
      await zetta('skills', 'transfer', '--db', db, '--source', 'goal/press_button', '--targets', 'goal/open_drawer', '--no-record'),
      /no active skill in .* comes from goal\/press_button/,
    );
  });
});
