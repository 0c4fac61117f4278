// The campaign manifest: everything that defines the experiment, frozen before any episode runs.
// It is written once; a resumed campaign reads it back and refuses to continue under different
// settings. Its sha256 names the campaign (`campaign_id`), and every later artifact descends from it.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import type { FeatureLayout } from '../../critic/index.js';
import { PACKAGE_ROOT, packagePath } from '../../util/package-root.js';
import { parseArtifactText } from './artifact-format.js';
import { canonicalJson, sha256 } from './artifacts.js';
import { assertDisjoint, devSeedsFor, episodeKeys } from './seeds.js';

export const GateSettingsSchema = z.strictObject({
  /** One-sided exact McNemar level on the held-out discordant pairs. */
  alpha: z.number().gt(0).lt(1),
  /** Candidate-only successes minus parent-only successes must reach this (dev and held-out). */
  min_gain: z.number().int().min(1),
  /** Safety events (envelope interventions, aborts) the candidate may add over the parent. */
  max_extra_safety_events: z.number().int().min(0),
  /** Candidates that may run development rollouts per generation, in the diagnosis' order. */
  max_candidates: z.number().int().min(1),
  /**
   * Held-out tests a generation may spend: the candidates that passed the development gates take them
   * strongest development evidence first, until one is promoted (heldout-tests.ts). α is divided over
   * every test the campaign may spend (see gating.ts). Absent from manifests written when there was
   * one a generation.
   */
  heldout_tests: z.number().int().min(1).default(1),
  /** Highest success the candidate may reach with a trivial policy (the critic alone) on the dev seeds. */
  critic_alone_cap: z.number().min(0).max(1).default(0.1),
});
export type GateSettings = z.infer<typeof GateSettingsSchema>;

export const DEFAULT_GATES: GateSettings = {
  alpha: 0.025,
  min_gain: 1,
  max_extra_safety_events: 0,
  max_candidates: 3,
  heldout_tests: 2,
  critic_alone_cap: 0.1,
};

export const ManifestSchema = z.strictObject({
  version: z.literal(1),
  /** The world's name (`tabletop`, `point-mass`, or a world module's path). */
  world: z.string().default('tabletop'),
  suite: z.string(),
  /** The task, or the first of `tasks`. */
  task: z.string(),
  /** A campaign over several tasks: every one, in order (absent for one task); see seeds.ts's keys. */
  tasks: z.array(z.string()).min(2).optional(),
  perturbation: z.strictObject({ name: z.string(), spec: z.unknown() }).nullable(),
  policy: z.strictObject({ spec: z.string(), sha256: z.string().nullable() }),
  /** The bundle the first generation starts from ("none" for an ungoverned policy). */
  base_bundle: z.strictObject({ spec: z.string(), sha256: z.string() }),
  seeds: z.strictObject({
    heldout: z.array(z.number().int().min(0)),
    /** Fresh seeds for the final comparison, never used to choose a candidate (empty: none). */
    confirmation: z.array(z.number().int().min(0)).default([]),
    dev_episodes: z.number().int().min(1),
    dev_seed_base: z.number().int().min(0),
    generations: z.number().int().min(1),
  }),
  gates: GateSettingsSchema,
  /** The privileged features the runtime and candidate rules may read (and every other feature). */
  authorized_features: z.strictObject({ privileged: z.boolean(), names: z.array(z.string()) }),
  diagnoser: z.strictObject({ kind: z.enum(['builtin', 'llm']), model: z.string().nullable() }),
  rollout: z.strictObject({ execute_steps: z.number().int().min(1) }),
  code_version: z.string(),
});
export type Manifest = z.infer<typeof ManifestSchema>;

/** The manifest's file name in a campaign root. */
export const MANIFEST_FILE = 'manifest.json';

/**
 * manifest.json read back: its text checked with the schema it was written with. A file that is not
 * JSON or not a manifest of this version throws ArtifactFormatError naming what is wrong.
 */
export function parseManifest(text: string, file: string = MANIFEST_FILE): Manifest {
  return parseArtifactText(text, ManifestSchema, file, 'a campaign manifest');
}

/** The preregistration: every seed any rollout of the campaign will use, fixed up front. */
export interface Preregistration {
  readonly manifest_sha256: string;
  readonly heldout: readonly number[];
  /** The final comparison's seeds: disjoint from every dev seed and from the held-out seeds. */
  readonly confirmation: readonly number[];
  /** Generation (1-based, as a string key) → its development seeds. */
  readonly dev: Readonly<Record<string, readonly number[]>>;
}

export function preregister(manifest: Manifest): Preregistration {
  const dev: Record<string, number[]> = {};
  for (let g = 1; g <= manifest.seeds.generations; g++) {
    dev[String(g)] = devSeedsFor(g, manifest.seeds.dev_episodes, manifest.seeds.dev_seed_base);
    assertDisjoint(dev[String(g)]!, manifest.seeds.heldout);
    assertDisjoint(dev[String(g)]!, manifest.seeds.confirmation);
  }
  assertDisjoint(manifest.seeds.heldout, manifest.seeds.confirmation);
  // over several tasks every list runs on each task: the lists hold episode keys
  const n = campaignTasks(manifest).length;
  return {
    manifest_sha256: manifestSha(manifest),
    heldout: episodeKeys(n, manifest.seeds.heldout),
    confirmation: episodeKeys(n, manifest.seeds.confirmation),
    dev: Object.fromEntries(Object.entries(dev).map(([g, seeds]) => [g, episodeKeys(n, seeds)])),
  };
}

/** The campaign's tasks, in order (episode keys number them). */
export function campaignTasks(manifest: Pick<Manifest, 'task' | 'tasks'>): readonly string[] {
  return manifest.tasks ?? [manifest.task];
}

/** Every seed list of a preregistration, rechecked on load (a hand-edited file cannot sneak one in). */
export function checkPreregistration(p: Preregistration): void {
  const confirmation = p.confirmation ?? [];
  for (const seeds of Object.values(p.dev)) {
    assertDisjoint(seeds, p.heldout);
    assertDisjoint(seeds, confirmation);
  }
  assertDisjoint(p.heldout, confirmation);
}

export function manifestSha(manifest: Manifest): string {
  return sha256(canonicalJson(manifest));
}

export function campaignId(manifest: Manifest): string {
  return manifestSha(manifest).slice(0, 12);
}

/** Feature names a run may read in a world: all of them, minus the privileged ones when not authorized. */
export function authorizedFeatureNames(layout: FeatureLayout, privileged: boolean): string[] {
  return layout.features
    .filter((f) => privileged || f.source !== 'privileged')
    .map((f) => f.name)
    .sort();
}

/** git HEAD of the checkout when there is one, else the package version. */
export function codeVersion(): string {
  try {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
    if (/^[0-9a-f]{40}$/.test(head)) return `git:${head}`;
  } catch {
    // not a checkout (an installed package): fall through to the version
  }
  const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string };
  return `package:${pkg.version}`;
}

/** sha256 of a local policy file, or null for a remote policy (its identity is its address). */
export function fileSha(path: string | null): string | null {
  return path && existsSync(path) ? sha256(readFileSync(path)) : null;
}

export class ManifestMismatchError extends Error {
  override readonly name = 'ManifestMismatchError';
}

/**
 * A resumed campaign must be the same experiment. Everything but the code version must match; a
 * different code version is reported (the caller warns) because decisions may then differ.
 */
export function compareForResume(stored: Manifest, requested: Manifest): { codeChanged: boolean } {
  const strip = (m: Manifest) => canonicalJson({ ...m, code_version: '' });
  if (strip(stored) !== strip(requested)) {
    const differing = (Object.keys(stored) as (keyof Manifest)[]).filter(
      (k) => k !== 'code_version' && canonicalJson(stored[k]) !== canonicalJson(requested[k]),
    );
    throw new ManifestMismatchError(`the campaign root holds a different campaign (differs in: ${differing.join(', ')}); use a new --root`);
  }
  return { codeChanged: stored.code_version !== requested.code_version };
}
