// How deep a critic file may nest. The schemas and compilers that read conditions recurse once per
// level, so a condition 20,000 `not`s deep overflowed the stack (a RangeError, told as a fault in
// zetta). This walk is iterative and finds such a file first, with the path to the level too deep.

/** Conditions inside conditions (`not`, `all`, `any`, …): a real rule needs a handful. */
export const MAX_CONDITION_DEPTH = 64;

/** Arrays and objects inside each other anywhere in a critic file; a condition level takes up to two. */
export const MAX_JSON_DEPTH = 4 * MAX_CONDITION_DEPTH;

export interface NestingProblem {
  /** Where the level too deep starts, as JsonPath (errors.ts). */
  readonly path: readonly (string | number)[];
  readonly problem: string;
}

interface Visit {
  readonly value: unknown;
  readonly path: readonly (string | number)[];
  readonly depth: number;
  readonly conditions: number;
}

/** The first place `value` nests deeper than the limits above, or null. */
export function tooDeep(value: unknown): NestingProblem | null {
  const stack: Visit[] = [{ value, path: [], depth: 0, conditions: 0 }];
  for (let v = stack.pop(); v !== undefined; v = stack.pop()) {
    if (v.value === null || typeof v.value !== 'object') continue;
    const depth = v.depth + 1;
    const conditions = v.conditions + (isCondition(v.value) ? 1 : 0);
    if (conditions > MAX_CONDITION_DEPTH) return { path: v.path, problem: `condition nested more than ${MAX_CONDITION_DEPTH} levels deep` };
    if (depth > MAX_JSON_DEPTH) return { path: v.path, problem: `nested more than ${MAX_JSON_DEPTH} levels deep` };
    const entries: [string | number, unknown][] = Array.isArray(v.value)
      ? v.value.map((x, i) => [i, x])
      : Object.entries(v.value as Record<string, unknown>);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      if (child !== null && typeof child === 'object') stack.push({ value: child, path: [...v.path, key], depth, conditions });
    }
  }
  return null;
}

/** A condition is the one object of a critic file with an `op`. */
function isCondition(value: object): boolean {
  return !Array.isArray(value) && typeof (value as { op?: unknown }).op === 'string';
}
