// Where a file a bundle manifest names (`rules`, `recoveries`) lies: inside the manifest's folder,
// always. A manifest naming `../../etc/hostname`, an absolute path, or a link that leads out of the
// folder would otherwise have the loader read (and its error quote) a file that is no part of it.
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { CriticLoadError } from '../errors.js';

/** The absolute path of the file the manifest at `manifestPath` names in `field`; throws CriticLoadError otherwise. */
export function bundleFile(manifestPath: string, field: string, name: string): string {
  const outside = (why: string): CriticLoadError =>
    new CriticLoadError([field], `"${name}" ${why}: a bundle's files must lie inside its folder`, manifestPath);
  if (isAbsolute(name) || /^[a-zA-Z]:|^[\\/]/.test(name)) throw outside('is an absolute path');
  const dir = dirname(manifestPath);
  const path = resolve(dir, name);
  if (!inside(dir, path)) throw outside('leads out of the bundle folder');
  // links are followed only once the name itself stays inside; a file that is missing is the reader's to report
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return path;
  }
  if (!inside(realpathSync(dir), real)) throw outside('is a link that leads out of the bundle folder');
  return path;
}

function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
