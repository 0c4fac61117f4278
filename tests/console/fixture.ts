// The console API tests' world: a runs folder holding a real promoted campaign (synthetic episodes,
// recorded as MCAP under its rollouts) inside a `zetta run`-like folder with a report.json, a
// skill store with that campaign's skill pending (and variants of it, for races and lifecycles),
// tokens for an approver, a second approver and a viewer, and a web root with a secret beside it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { SkillStore, skillFromCampaign, type SkillContent } from '../../skills/index.js';
import { createConsoleServer, createToken } from '../../console/server/index.js';
import { parseRunReport } from '../../experiments/run/run-report-reader.js';
import { campaign, tmp } from '../skills/campaign.js';

export const SECRET = 'the-secret-next-to-webroot-7f3a';
export const INDEX = '<!doctype html><title>zetta console</title><div id="app">console index</div>';

export interface World {
  readonly runs: string;
  readonly campaignRoot: string;
  /** The campaign root relative to runs. */
  readonly campaignDir: string;
  readonly campaignId: string;
  readonly db: string;
  readonly webRoot: string;
  readonly skillId: string;
  readonly content: SkillContent;
  readonly files: Parameters<SkillStore['add']>[1];
  readonly tokens: { readonly ada: string; readonly bob: string; readonly vic: string };
}

export async function makeWorld(): Promise<World> {
  const base = tmp('zetta-console-');
  const runs = join(base, 'runs');
  const campaignDir = 'run1/evolution/spatial__left_cube_in_bowl__nominal';
  const campaignRoot = join(runs, campaignDir);
  mkdirSync(campaignRoot, { recursive: true });
  const summary = await campaign(campaignRoot, true);
  writeRunReport(join(runs, 'run1'), summary.campaign_id);
  const db = join(base, 'skills.db');
  const { content, files } = await skillFromCampaign(campaignRoot);
  const skillId = SkillStore.using(db, (s) => s.add(content, files, { actor: 'zetta-evolve', reason: 'promoted' }).id);
  const tokens = {
    ada: createToken(db, 'ada', 'approver'),
    bob: createToken(db, 'bob', 'approver'),
    vic: createToken(db, 'vic', 'viewer'),
  };
  const webRoot = join(base, 'web');
  mkdirSync(join(webRoot, 'assets'), { recursive: true });
  writeFileSync(join(webRoot, 'index.html'), INDEX);
  writeFileSync(join(webRoot, 'assets', 'app.js'), 'console.log("app");\n');
  writeFileSync(join(base, 'secret.txt'), SECRET);
  writeFileSync(join(runs, 'secret.mcap'), SECRET); // inside runs but not an episode
  writeFileSync(join(base, 'outside.mcap'), SECRET);
  return { runs, campaignRoot, campaignDir, campaignId: summary.campaign_id, db, webRoot, skillId, content, files, tokens };
}

/** Another pending skill: the same bundle with other content (a new id), `patch` applied. */
export function addVariant(w: World, tag: string, patch: (c: SkillContent) => SkillContent = (c) => c): string {
  const content = patch({ ...w.content, description: `${w.content.description} (${tag})` });
  return SkillStore.using(w.db, (s) => s.add(content, w.files, { actor: 'zetta-evolve', reason: tag }).id);
}

export function server(w: World, extra: Partial<Parameters<typeof createConsoleServer>[0]> = {}): Promise<FastifyInstance> {
  return createConsoleServer({
    db: w.db,
    runs: w.runs,
    webRoot: w.webRoot,
    readRunReport: parseRunReport,
    live: { pollMs: 50, rootsMs: 50, heartbeatMs: 100 },
    ...extra,
  });
}

/** A `zetta run` report: the governance stage with two perturbations, its evolution stage, and its final stage. */
function writeRunReport(dir: string, campaignId: string): void {
  const est = (value: number) => ({ value, low: Math.max(0, value - 0.1), high: Math.min(1, value + 0.1) });
  const arms = (policy: number, both: number) => ({
    tasks: ['spatial/left_cube_in_bowl'],
    perturbation: 'x',
    policy: 'embedded',
    critic: 'default',
    criticHash: 'h',
    perTask: {
      'spatial/left_cube_in_bowl': {
        policy: est(policy),
        critic: { ...est(0), control: 'null:open' },
        both: est(both),
        synergy: est(both - policy),
        controls: { 'null:open': 0 },
      },
    },
    macro: { policy: est(policy), critic: est(0), both: est(both), synergy: est(both - policy) },
  });
  const governanceAt = (policy: number, both: number, meanSynergy: number) => ({
    policy: 'embedded',
    critic: 'default',
    episodes_per_task: 10,
    mean_synergy: meanSynergy,
    conditions: { 'position-shift': arms(policy, both), 'sensor-noise-delay': arms(policy, both - 0.3) },
    ok: true,
  });
  const report = {
    started: '2025-01-01T00:00:00.000Z',
    finished: '2025-01-01T00:09:00.000Z',
    out: dir,
    ok: true,
    stages: {
      governance: {
        policy: 'embedded',
        critic: 'default',
        episodes_per_task: 10,
        mean_synergy: 0.35,
        conditions: { 'position-shift': arms(0.2, 0.7), 'sensor-noise-delay': arms(0.4, 0.6) },
        ok: true,
      },
      evolution: {
        campaigns: [
          {
            task: 'spatial/left_cube_in_bowl',
            perturbation: 'position-shift',
            parent_rate: 0.2,
            campaign: { campaign_id: campaignId },
            ok: true,
          },
        ],
        in_parallel: 1,
        ok: true,
      },
      // the default and the final system with one active skill, at fresh seeds
      final: {
        active_skills: ['s1'],
        first_seed: 3000,
        reference: governanceAt(0.3, 0.65, 0.2),
        governance: governanceAt(0.3, 0.8, 0.35),
        transfer: {},
        problems: [],
        ok: true,
      },
    },
  };
  writeFileSync(join(dir, 'report.json'), JSON.stringify(report));
}
