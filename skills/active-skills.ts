// `--skills active`: every active skill of the store, composed per task onto the run's base bundle
// (compose.ts), each composed bundle written once, content-addressed, under the run's folder, and
// the critic plan told which task runs which. What loaded, what did not and why, goes in the report;
// after the episodes, skillFirings() says which loaded skills fired and how often.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { layoutFor, type FeatureLayout } from '../critic/index.js';
import { ArtifactStore } from '../evolution/campaign/artifacts.js';
import { readBundle, writeBundle } from '../evolution/synthesis/bundle-files.js';
import type { World } from '../sim/world.js';
import type { CriticPlan } from '../zinfra/runtime/open-critic.js';
import type { EpisodeOutcome } from '../zinfra/runtime/run-episode.js';
import { composeSkills, type SkillConflict, type SkillDecision } from './compose.js';
import { SkillInputError } from './errors.js';
import { SkillStore } from './store/skill-store.js';

export interface TaskSkills {
  /** The composed bundle's manifest, or null when no skill loaded (the task runs the base). */
  readonly bundle: string | null;
  readonly decisions: readonly SkillDecision[];
  readonly conflicts: readonly SkillConflict[];
}

export interface ActiveSkills {
  readonly db: string;
  /** The base bundle's manifest. */
  readonly base: string;
  /** The ids of the store's active skills when the run began. */
  readonly active: readonly string[];
  readonly tasks: Readonly<Record<string, TaskSkills>>;
}

export interface ActiveSkillsOptions {
  readonly db: string;
  readonly world: World;
  /** The run's critic: the base the skills compose onto. */
  readonly critic: CriticPlan;
  readonly tasks: readonly string[];
  /** Composed bundles go to DIR/bundles/<sha12>/. */
  readonly dir: string;
  /** Only the active skills whose campaign ran on one of these tasks (transfer); all when omitted. */
  readonly sources?: readonly string[] | undefined;
}

/** The store a run reads its skills from, which must exist: a run reads skills, it does not make a store. */
export function requireSkillStore(db: string): string {
  if (!existsSync(db))
    throw new SkillInputError(
      `--skills active: no skill store at ${db} (promote a campaign with zetta skills add, or name the store with --skills-db)`,
    );
  return db;
}

/** The critic plan with each task's composed bundle, and what loaded where. */
export function withActiveSkills(o: ActiveSkillsOptions): { plan: CriticPlan; skills: ActiveSkills } {
  requireSkillStore(o.db);
  const active = SkillStore.using(o.db, (s) =>
    s
      .list()
      .filter((r) => r.state === 'active' && (!o.sources || o.sources.includes(r.content.guard.tags.source_task)))
      .map((r) => ({ ...r, reach: s.reach(r.id) })),
  );
  if (o.sources && active.length === 0)
    throw new SkillInputError(
      `no active skill in ${o.db} comes from ${o.sources.join(', ')} (zetta skills list shows them and their states)`,
    );
  const layout = layoutFor(o.world.features);
  const privileged = o.critic.privileged && o.world.authorizesPrivileged;
  const base = readBundle(o.critic.bundle, layout, privileged);
  const features = layout.features.map((f) => f.name);
  const store = new ArtifactStore(o.dir);
  const byTask: Record<string, string> = {};
  const tasks: Record<string, TaskSkills> = {};
  for (const task of o.tasks) {
    const target = { world: o.world.name, features, privilegedAuthorized: privileged, suite: o.world.task(task).suite, task };
    const c = composeSkills(base, active, target);
    let bundle: string | null = null;
    if (c.loaded.length > 0) {
      bundle = join(store.abs(writeBundle(store, c.bundle).dir!), 'manifest.json');
      // tasks that load the same skills share one content-addressed bundle: it is checked once
      if (!Object.values(byTask).includes(bundle)) checkLoads(bundle, task, c.loaded, layout, privileged);
      byTask[task] = bundle;
    }
    tasks[task] = { bundle, decisions: c.decisions, conflicts: c.conflicts };
  }
  return { plan: { ...o.critic, byTask }, skills: { db: o.db, base: o.critic.bundle, active: active.map((r) => r.id), tasks } };
}

/**
 * A composed bundle is loaded here once, before any episode: an error in it would otherwise surface
 * in every rollout worker at once, where it takes the process down without its message.
 */
function checkLoads(bundle: string, task: string, loaded: readonly string[], layout: FeatureLayout, privileged: boolean): void {
  try {
    readBundle(bundle, layout, privileged);
  } catch (err) {
    throw new Error(`skills ${loaded.join(', ')} composed for ${task} make a bundle the critic refuses: ${(err as Error).message}`);
  }
}

export interface SkillFiring {
  readonly id: string;
  readonly name: string;
  /** Tasks it loaded for. */
  readonly tasks: readonly string[];
  /** Episodes in which one of its rules or programs fired, of the episodes it was loaded for. */
  readonly episodesFired: number;
  readonly episodes: number;
  /** Decisions caused by its rules plus starts of its programs, over those episodes. */
  readonly firings: number;
}

/** Per loaded skill: where it loaded, in how many episodes it fired and how often. */
export function skillFirings(skills: ActiveSkills, outcomes: readonly EpisodeOutcome[]): SkillFiring[] {
  const out = new Map<string, { name: string; tasks: string[]; episodesFired: number; episodes: number; firings: number }>();
  for (const [task, t] of Object.entries(skills.tasks)) {
    const episodes = outcomes.filter((o) => o.task === task && o.infraFailure === null);
    for (const d of t.decisions.filter((x) => x.loaded)) {
      const entry = out.get(d.id) ?? { name: d.name, tasks: [], episodesFired: 0, episodes: 0, firings: 0 };
      entry.tasks.push(task);
      for (const o of episodes) {
        const n =
          d.rules.reduce((sum, id) => sum + (o.firings[id] ?? 0), 0) + d.programs.reduce((sum, id) => sum + (o.programStarts[id] ?? 0), 0);
        entry.episodes++;
        entry.firings += n;
        if (n > 0) entry.episodesFired++;
      }
      out.set(d.id, entry);
    }
  }
  return [...out].map(([id, e]) => ({ id, ...e }));
}
