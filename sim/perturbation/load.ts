// Reading and validating perturbation files. Errors name the offending field by its dotted path,
// e.g. `object.scale.1: Too big: expected number to be <=1.4`.
import { readFileSync } from 'node:fs';
import { PerturbationError } from '../errors.js';
import { PerturbationSchema, type Perturbation } from './schema.js';

export function parsePerturbation(value: unknown, source = 'perturbation'): Perturbation {
  const result = PerturbationSchema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const unknownKey = issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
  const path = [...issue.path, ...(unknownKey !== undefined ? [unknownKey] : [])].map(String).join('.') || '(root)';
  const what = unknownKey !== undefined ? `unknown key; allowed here: ${allowedKeys(issue.path).join(', ')}` : issue.message;
  throw new PerturbationError(`${source}: field "${path}": ${what}`, path);
}

/** The keys the schema accepts at `path` (the top level, or one section). */
function allowedKeys(path: readonly PropertyKey[]): string[] {
  const top = PerturbationSchema.shape;
  if (path.length === 0) return Object.keys(top);
  const section = top[String(path[0]) as keyof typeof top]?.unwrap();
  return section !== undefined && 'shape' in section ? Object.keys(section.shape) : [];
}

export function loadPerturbation(path: string): Perturbation {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new PerturbationError(`${path}: cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`, '(file)');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new PerturbationError(`${path}: not JSON (${(err as Error).message})`, '(root)');
  }
  return parsePerturbation(value, path);
}
