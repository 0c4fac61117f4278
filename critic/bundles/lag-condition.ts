// The manifest's answers to an actuation lag (`wait_out_lag`, `align_chunks_to_lag`), compiled:
// on which frames the runtime may answer it at a chunk boundary (see critic/README.md, "Answering an
// actuation lag").
import { CriticLoadError } from '../errors.js';
import type { FeatureLayout } from '../features/layout.js';
import { compileCondition } from '../rules/condition.js';
import { opOf, type Condition } from '../rules/ops/index.js';
import { TRUE } from '../rules/truth.js';

/** True where the lag may be answered on this frame. */
export type LagCondition = (values: Float64Array) => boolean;

/**
 * A manifest answer (`key`: `true`, or `{"when": CONDITION}`) as a test on a frame; null when off.
 * The condition is asked only at chunk boundaries, so a temporal operator's window would count
 * boundaries, not steps: refused.
 */
export function compileLagCondition(
  key: 'wait_out_lag' | 'align_chunks_to_lag',
  spec: boolean | { readonly when: Condition } | undefined,
  features: { readonly layout: FeatureLayout; readonly privileged: boolean },
  file: string,
): LagCondition | null {
  if (spec === undefined || spec === false) return null;
  if (spec === true) return () => true;
  const lookingBack = lookBackOp(spec.when);
  if (lookingBack !== undefined)
    throw new CriticLoadError(
      [key, 'when'],
      `"${lookingBack}" looks back over steps, but this condition is only asked at chunk boundaries: use comparisons, and, or, not`,
      file,
    );
  const fn = compileCondition(spec.when, [key, 'when'], { ...features, reg: new Float64Array(1) }, file).fn;
  return (values) => fn(values) === TRUE;
}

/** The first op (depth first) that reads earlier steps, by its definition's look-back (rules/ops/). */
function lookBackOp(c: Condition): string | undefined {
  const op = opOf(c);
  if (op.lookBack(c) !== null) return c.op;
  for (const sub of op.children(c)) {
    const found = lookBackOp(sub);
    if (found !== undefined) return found;
  }
  return undefined;
}
