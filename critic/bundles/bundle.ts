// A critic bundle: a manifest naming a rule file and a recovery file, loaded together so every
// rule's recovery id resolves against the bundle's own programs. `--critic default` and `--critic
// oracle` are the bundles shipped in critic/bundles/; any other is a directory holding `manifest.json`, or the
// manifest's path. Loading is all-or-nothing and every error names the file and the path inside it.
// The files a manifest names must lie inside its folder (bundle-file.ts).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { CriticLoadError, fromZod, parseJsonText } from '../errors.js';
import { loadRecoveriesText, type RecoveryLibrary } from '../recovery/compile.js';
import { loadRulesText, type RuleSet } from '../rules/compile.js';
import { ConditionSchema } from '../rules/schema.js';
import { compileLagCondition, type LagCondition } from './lag-condition.js';
import { bundleFile } from './bundle-file.js';
import { DEFAULT_DURING_RECOVERY } from '../governor.js';
import type { FeatureLayout } from '../features/layout.js';

export const MANIFEST_FILE = 'manifest.json';

/** How a manifest answers an actuation lag: always (`true`), never, or where a condition holds at the chunk boundary. */
const LagAnswerSchema = z.union([z.boolean(), z.strictObject({ when: ConditionSchema })]);

export const BundleManifestSchema = z.strictObject({
  version: z.literal(1),
  name: z.string().min(1),
  description: z.string().default(''),
  /** The bundle reads privileged simulator features; a run that does not authorize them cannot load it. */
  privileged: z.boolean(),
  /** Why the bundle needs what it reads (shown in recordings and reports). */
  privileged_reason: z.string().optional(),
  rules: z.string().min(1),
  recoveries: z.string().min(1),
  during_recovery: z.enum(['ignore', 'preempt_safety', 'queue']).default(DEFAULT_DURING_RECOVERY),
  /**
   * Before the policy is asked for a fresh chunk, hold while commanded motion is still in flight
   * (`derived.motion_in_flight`, from the lag the critic measures), so the chunk is planned from
   * where the hand really is. `true`: always; `{"when": CONDITION}`: only while the condition holds
   * on the latest frame. Off when absent.
   */
  wait_out_lag: LagAnswerSchema.optional(),
  /**
   * At a chunk boundary on a lagging robot, start the fresh chunk at the action where its planned
   * motion has covered the motion in flight (critic/features/chunk-alignment.ts): the policy's own
   * actions, none of them held. `true` or `{"when": CONDITION}` as for `wait_out_lag`; off when
   * absent; not with `wait_out_lag` (both answer the same lag).
   */
  align_chunks_to_lag: LagAnswerSchema.optional(),
});
export type BundleManifest = z.infer<typeof BundleManifestSchema>;

export interface CriticBundle {
  readonly manifest: BundleManifest;
  /** Absolute path of the manifest. */
  readonly path: string;
  readonly rules: RuleSet;
  readonly recoveries: RecoveryLibrary;
  /** sha256 over manifest, rules and recoveries (first 12 hex digits): which bundle ran. */
  readonly hash: string;
  /** The frame layout of the world the bundle was loaded for. */
  readonly layout: FeatureLayout;
  /** Whether a lag may be waited out on a frame (manifest `wait_out_lag`); null: never. */
  readonly waitOutLag: LagCondition | null;
  /**
   * Whether a chunk asked for on a frame starts past the actions the motion in flight already
   * covers (manifest `align_chunks_to_lag`); null: never.
   */
  readonly alignChunksToLag: LagCondition | null;
}

export interface BundleLoadOptions {
  /** The world's frame layout: every feature the bundle names must be in it. */
  readonly layout: FeatureLayout;
  /** The run authorizes privileged features. */
  readonly privileged: boolean;
}

/** The shipped bundles' folder, from the sources (vitest) or from the compiled dist/critic/bundles/. */
function builtinDir(name: string): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const dir of [join(here, name), join(here, '..', '..', '..', 'critic', 'bundles', name)]) {
    if (existsSync(join(dir, MANIFEST_FILE))) return dir;
  }
  throw new Error(`the built-in critic bundle "${name}" is missing from critic/bundles/`);
}

/**
 * The bundles shipped in critic/bundles/: `default` reads only what a robot observes; `oracle` reads
 * simulator ground truth and is marked privileged wherever it runs.
 */
export const BUILTIN_BUNDLES = ['default', 'oracle'] as const;

/** A built-in name → its manifest; a directory → its manifest.json; a file → itself. */
export function resolveBundlePath(spec: string): string {
  if ((BUILTIN_BUNDLES as readonly string[]).includes(spec)) return join(builtinDir(spec), MANIFEST_FILE);
  const p = resolve(spec);
  if (!existsSync(p)) throw new CriticLoadError('', `no critic bundle at ${p}`);
  if (!statSync(p).isDirectory()) return p;
  const manifest = join(p, MANIFEST_FILE);
  if (!existsSync(manifest)) throw new CriticLoadError('', `no such file (a critic bundle folder holds ${MANIFEST_FILE})`, manifest);
  return manifest;
}

export function loadBundle(spec: string, options: BundleLoadOptions): CriticBundle {
  const path = resolveBundlePath(spec);
  const manifestText = readText(path);
  const parsed = BundleManifestSchema.safeParse(parseJsonText(manifestText, path));
  if (!parsed.success) throw fromZod(parsed.error, path);
  const manifest = parsed.data;
  if (manifest.privileged && !options.privileged) {
    throw new CriticLoadError(
      ['privileged'],
      `bundle "${manifest.name}" reads privileged features, which this run does not authorize`,
      path,
    );
  }
  const { rulesPath, recoveriesPath, rulesText, recoveriesText, hash } = bundleTexts(path, manifestText, manifest);
  // A bundle reads privileged features only if its manifest says so (and the run allows it above).
  const features = { layout: options.layout, privileged: manifest.privileged };
  const recoveries = loadRecoveriesText(recoveriesText, { ...features, file: recoveriesPath });
  const rules = loadRulesText(rulesText, { ...features, knownRecoveries: recoveries.ids, file: rulesPath });
  const waitOutLag = compileLagCondition('wait_out_lag', manifest.wait_out_lag, features, path);
  const alignChunksToLag = compileLagCondition('align_chunks_to_lag', manifest.align_chunks_to_lag, features, path);
  if (alignChunksToLag !== null && waitOutLag !== null) {
    throw new CriticLoadError(
      ['align_chunks_to_lag'],
      'both align_chunks_to_lag and wait_out_lag answer the actuation lag: keep one',
      path,
    );
  }
  return { manifest, path, rules, recoveries, hash, layout: options.layout, waitOutLag, alignChunksToLag };
}

/** Which bundle a spec names now (the `hash` loadBundle gives), read without compiling it. */
export function bundleHash(spec: string): string {
  const path = resolveBundlePath(spec);
  const manifestText = readText(path);
  const parsed = BundleManifestSchema.safeParse(parseJsonText(manifestText, path));
  if (!parsed.success) throw fromZod(parsed.error, path);
  return bundleTexts(path, manifestText, parsed.data).hash;
}

function bundleTexts(path: string, manifestText: string, manifest: BundleManifest) {
  const rulesPath = bundleFile(path, 'rules', manifest.rules);
  const recoveriesPath = bundleFile(path, 'recoveries', manifest.recoveries);
  const rulesText = readText(rulesPath);
  const recoveriesText = readText(recoveriesPath);
  const hash = createHash('sha256')
    .update(manifestText)
    .update('\0')
    .update(rulesText)
    .update('\0')
    .update(recoveriesText)
    .digest('hex')
    .slice(0, 12);
  return { rulesPath, recoveriesPath, rulesText, recoveriesText, hash };
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new CriticLoadError([], `cannot read: ${(err as Error).message}`, path);
  }
}
