// Candidate bundles on disk, in the critic's bundle format (critic/bundles/bundle.ts: a manifest
// naming a rule file and a recovery file). Each bundle lives in bundles/<first 12 of its sha256>/,
// written as canonical JSON, so the directory name, the files and the hash agree and a rewrite after
// a crash produces the same bytes. Parents are read with the critic's own loader.
import { loadBundle, type BundleManifest } from '../../critic/index.js';
import type { FeatureLayout } from '../../critic/index.js';
import type { RecoveryFile, RecoveryFileInput, RuleFile, RuleFileInput } from '../../critic/index.js';
import { ArtifactStore, canonicalJson, sha256 } from '../campaign/artifacts.js';

export interface BundleContent {
  readonly manifest: BundleManifest;
  readonly rules: RuleFile | RuleFileInput;
  readonly recoveries: RecoveryFile | RecoveryFileInput;
}

export interface StoredBundle extends BundleContent {
  readonly sha256: string;
  /** Directory relative to the campaign root, or null for "none" (no critic). */
  readonly dir: string | null;
}

/** The empty bundle: an ungoverned policy. */
export const NO_BUNDLE: StoredBundle = {
  manifest: {
    version: 1,
    name: 'none',
    description: 'no critic',
    privileged: true,
    rules: 'rules.json',
    recoveries: 'recoveries.json',
    during_recovery: 'preempt_safety',
  },
  rules: { version: 1, rules: [] },
  recoveries: { version: 1, programs: [] },
  sha256: sha256(canonicalJson({ none: true })),
  dir: null,
};

export function bundleSha(content: BundleContent): string {
  return sha256(canonicalJson({ manifest: content.manifest, rules: content.rules, recoveries: content.recoveries }));
}

/**
 * What a bundle does, without what it says about itself: the hash of its rules, programs and
 * manifest settings with every `description` and `evidence` left out. Two candidates made from
 * different generations' data can be the same bundle in all but their notes.
 */
export function behaviourSha(content: BundleContent): string {
  const { manifest } = content;
  return sha256(
    canonicalJson({
      rules: withoutNotes(content.rules),
      recoveries: withoutNotes(content.recoveries),
      privileged: manifest.privileged,
      during_recovery: manifest.during_recovery,
      ...(manifest.wait_out_lag ? { wait_out_lag: manifest.wait_out_lag } : {}),
      ...(manifest.align_chunks_to_lag ? { align_chunks_to_lag: manifest.align_chunks_to_lag } : {}),
    }),
  );
}

/**
 * Every feature a bundle's files read. The files name features as plain strings (a rule's
 * `feature`, a program's `until`, a tool parameter such as a point's `x`), so instead of knowing
 * every place a name may sit, any string that is a feature of the bundle's own world counts: the
 * bundle loaded against that world, so each name it reads is one of them.
 */
export function featuresRead(files: readonly unknown[], worldFeatures: readonly string[]): string[] {
  const known = new Set(worldFeatures);
  const found = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      if (known.has(v)) found.add(v);
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk);
  };
  files.forEach(walk);
  return [...found].sort();
}

/** A bundle value with every `description` and `evidence` left out: what it does, not what it says. */
export function withoutNotes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNotes);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== 'description' && k !== 'evidence')
      .map(([k, v]) => [k, withoutNotes(v)]),
  );
}

/** Reads a bundle (`default`, a directory, a manifest path) with the critic's loader. */
export function readBundle(spec: string, layout: FeatureLayout, privileged: boolean): BundleContent {
  const b = loadBundle(spec, { layout, privileged });
  return { manifest: b.manifest, rules: b.rules.source, recoveries: b.recoveries.source };
}

export function writeBundle(store: ArtifactStore, content: BundleContent): StoredBundle {
  const sha = bundleSha(content);
  const dir = `bundles/${sha.slice(0, 12)}`;
  store.put(`${dir}/manifest.json`, { ...content.manifest, rules: 'rules.json', recoveries: 'recoveries.json' });
  store.put(`${dir}/rules.json`, content.rules);
  store.put(`${dir}/recoveries.json`, content.recoveries);
  return { ...content, sha256: sha, dir };
}

/**
 * The empty bundle as the critic runs it: no rule, no program, the safety envelope alone. A campaign
 * from the empty bundle runs its parent so (context.ts `rollout`): every candidate runs under the
 * envelope, and the gates compare safety events that both sides could record.
 */
export const ENVELOPE_ONLY: BundleContent = {
  manifest: { ...NO_BUNDLE.manifest, privileged: false, description: 'no rule: the safety envelope alone' },
  rules: NO_BUNDLE.rules,
  recoveries: NO_BUNDLE.recoveries,
};

/** ENVELOPE_ONLY as files under `dir` (what skills compose onto when nothing hand-written may): its manifest's path. */
export function writeEmptyBundle(dir: string): string {
  const store = new ArtifactStore(dir);
  return store.abs(`${writeBundle(store, ENVELOPE_ONLY).dir!}/manifest.json`);
}
