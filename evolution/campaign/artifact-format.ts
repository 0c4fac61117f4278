// Reading an artifact back as its writer wrote it: the file's text parsed as JSON and checked with
// the writer's own schema, so every reader (a resumed campaign, the skill library, the console)
// holds one shape, and a damaged or foreign file is refused saying what is wrong with it. Readers
// take text rather than a path: a caller that guards its file reads (size, links) reads the text.
import type { z } from 'zod';

export class ArtifactFormatError extends Error {
  override readonly name = 'ArtifactFormatError';
  constructor(
    readonly file: string,
    readonly problems: readonly string[],
    what: string,
  ) {
    super(`${file} is not ${what}: ${problems.join('; ')}`);
  }
}

/** Problems named in an error at most; a file wrong everywhere is not worth listing in full. */
const MAX_PROBLEMS = 5;

/** `text` as JSON checked by `schema`; `file` and `what` ("a campaign manifest") name it in the error. */
export function parseArtifactText<S extends z.ZodType>(text: string, schema: S, file: string, what: string): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ArtifactFormatError(file, [`not valid JSON (${(err as Error).message})`], what);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ArtifactFormatError(file, problemsOf(parsed.error), what);
  return parsed.data;
}

function problemsOf(error: z.ZodError): string[] {
  const all = error.issues.flatMap((i) => issueLines(i, []));
  return all.length > MAX_PROBLEMS ? [...all.slice(0, MAX_PROBLEMS), `… and ${all.length - MAX_PROBLEMS} more`] : all;
}

/** One line per problem, `path: message`; a value that fits none of a union's shapes is judged by the one it comes closest to. */
function issueLines(issue: z.core.$ZodIssue, parent: readonly PropertyKey[]): string[] {
  const path = [...parent, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const closest = issue.errors.reduce((best, branch) => (branch.length < best.length ? branch : best));
    if (closest.length > 0) return closest.flatMap((i) => issueLines(i, path));
  }
  return [`${path.map(String).join('.') || '(top level)'}: ${issue.message}`];
}
