// A critic bundle as it travels through the queue: its files' text (the manifest and the two files it
// names) and a sha256 over them, never a path. The coordinator reads the bundle where it lies; a worker
// checks the sha256, checks that every name stays inside the bundle, and writes the files into a folder
// of its own named by that sha256, which is the only place it loads a bundle from. A job can therefore
// neither name a file on the worker's disk nor have one quoted back in its failure reason.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { z } from 'zod';
import { BundleManifestSchema, MANIFEST_FILE, resolveBundlePath } from '../../critic/index.js';
import { JobRefused } from './job-refused.js';

/** The largest bundle file sent through the queue (the shipped bundles are a few KiB each). */
const MAX_FILE_CHARS = 4 * 1024 * 1024;
/** A name inside a bundle: plain relative segments, no `..`, no absolute path, no odd characters. */
const SAFE_NAME = /^(?!.*(^|\/)\.\.?(\/|$))[\w.-]+(\/[\w.-]+)*$/;

export const BundleContentSchema = z.strictObject({
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  manifest: z.string().max(MAX_FILE_CHARS),
  /** The files the manifest names, by the name it gives them. */
  files: z.record(z.string().regex(SAFE_NAME).max(200), z.string().max(MAX_FILE_CHARS)),
});

export type BundleContent = z.infer<typeof BundleContentSchema>;

/** The sha256 of a bundle's content: the manifest, then each file by name in name order. */
export function bundleContentSha256(manifest: string, files: Readonly<Record<string, string>>): string {
  const names = Object.keys(files).sort();
  return createHash('sha256')
    .update(JSON.stringify([manifest, names.map((name) => [name, files[name]])]))
    .digest('hex');
}

/** The coordinator's side: the bundle a spec or manifest path names, as content. */
export function readBundleContent(spec: string): BundleContent {
  const manifestPath = resolveBundlePath(spec);
  const manifestText = readFileSync(manifestPath, 'utf8');
  const manifest = BundleManifestSchema.parse(JSON.parse(manifestText));
  const files: Record<string, string> = {};
  for (const [field, name] of [
    ['rules', manifest.rules],
    ['recoveries', manifest.recoveries],
  ] as const) {
    if (!SAFE_NAME.test(name))
      throw new Error(`critic bundle ${manifestPath}: "${field}" must be a plain name inside the bundle to be sent to workers`);
    // a link inside the bundle that leads out of it is not followed
    const folder = realpathSync(dirname(manifestPath));
    const real = realpathSync(join(folder, name));
    if (relative(folder, real).startsWith(`..${sep}`))
      throw new Error(`critic bundle ${manifestPath}: "${field}" leads out of the bundle folder`);
    files[name] = readFileSync(real, 'utf8');
  }
  return { sha256: bundleContentSha256(manifestText, files), manifest: manifestText, files };
}

/**
 * The worker's side: the bundle written under `cacheDir`/<sha256>/ after its content is checked;
 * returns the manifest's path there. Nothing is written for content whose sha256 does not match or
 * whose manifest names a file that was not sent.
 */
export function materializeBundle(content: BundleContent, cacheDir: string): string {
  if (bundleContentSha256(content.manifest, content.files) !== content.sha256)
    throw new JobRefused('the critic bundle sent with the job does not match its sha256');
  const names = manifestNames(content.manifest);
  for (const name of names) {
    if (!Object.hasOwn(content.files, name)) throw new JobRefused('the critic bundle sent with the job lacks a file its manifest names');
  }
  const dir = join(cacheDir, content.sha256);
  const manifestPath = join(dir, MANIFEST_FILE);
  if (existsSync(manifestPath)) return manifestPath;
  const staging = `${dir}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  for (const name of names) {
    const path = join(staging, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content.files[name]!);
  }
  writeFileSync(join(staging, MANIFEST_FILE), content.manifest);
  try {
    renameSync(staging, dir);
  } catch {
    // another episode of this worker wrote the same content first: its folder is as good as ours
    if (!existsSync(manifestPath)) throw new JobRefused('the critic bundle sent with the job could not be stored');
  }
  return manifestPath;
}

/** The files a manifest names; a manifest that is not one, or names a file outside the bundle, is refused. */
function manifestNames(manifestText: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(manifestText);
  } catch {
    throw new JobRefused('the critic bundle sent with the job has a manifest that is not JSON');
  }
  const manifest = BundleManifestSchema.safeParse(parsed);
  if (!manifest.success) throw new JobRefused('the critic bundle sent with the job has a malformed manifest');
  const names = [manifest.data.rules, manifest.data.recoveries];
  if (!names.every((n) => SAFE_NAME.test(n))) throw new JobRefused('the critic bundle sent with the job names a file outside itself');
  return [...new Set(names)];
}
