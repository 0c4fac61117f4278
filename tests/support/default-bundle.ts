// Variants of the shipped default bundle for control arms: the same bundle less one rule, or with
// its manifest edited, written to a folder of the test's own.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packagePath } from '../../util/package-root.js';

function copyDefault(dir: string, name: string): string {
  const out = join(dir, name);
  cpSync(packagePath('critic', 'bundles', 'default'), out, { recursive: true });
  return out;
}

function editJson<T>(file: string, edit: (value: T) => void): void {
  const value = JSON.parse(readFileSync(file, 'utf8')) as T;
  edit(value);
  writeFileSync(file, JSON.stringify(value));
}

/** The default bundle without the rules `ruleIds`. */
export function defaultBundleWithout(dir: string, ...ruleIds: string[]): string {
  const out = copyDefault(dir, `default-without-${ruleIds.join('-')}`);
  editJson<{ rules: Array<{ id: string }> }>(join(out, 'rules.json'), (r) => {
    r.rules = r.rules.filter((rule) => !ruleIds.includes(rule.id));
  });
  return out;
}

/** The default bundle with its manifest edited (e.g. a setting removed). */
export function defaultBundleWithManifest(dir: string, name: string, edit: (manifest: Record<string, unknown>) => void): string {
  const out = copyDefault(dir, name);
  editJson(join(out, 'manifest.json'), edit);
  return out;
}

/** The default bundle with its recovery programs edited (e.g. a setting taken out of each). */
export function defaultBundleWithPrograms(dir: string, name: string, edit: (program: Record<string, unknown>) => void): string {
  const out = copyDefault(dir, name);
  editJson<{ programs: Array<Record<string, unknown>> }>(join(out, 'recoveries.json'), (r) => r.programs.forEach(edit));
  return out;
}

/** Edits, in place, the manifest of a bundle copy made by the functions above. */
export function editManifest(bundleDir: string, edit: (manifest: Record<string, unknown>) => void): string {
  editJson(join(bundleDir, 'manifest.json'), edit);
  return bundleDir;
}
