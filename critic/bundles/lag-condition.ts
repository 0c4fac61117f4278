// The manifest's answers to an actuation lag (`wait_out_lag`, `align_chunks_to_lag`), compiled:
// on which frames the runtime may answer it at a chunk boundary (see critic/README.md, "Answering an
// actuation lag").
import { CriticLoadError } from '../errors.js';
import type { FeatureLayout } from '../features/layout.js';
import { compileCondition } from '../rules/condition.js';
import type { Condition } from '../rules/schema.js';
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
  const temporal = temporalOp(spec.when);
  if (temporal) throw new CriticLoadError([key, 'when'], `"${temporal}" looks back over steps, but this condition is only asked at chunk boundaries: use comparisons, and, or, not`, file);
  const fn = compileCondition(spec.when, [key, 'when'], { ...features, reg: new Float64Array(1) }, file).fn;
  return (values) => fn(values) === TRUE;
}

function temporalOp(c: Condition): string | undefined {
  switch (c.op) {
    case 'and':
    case 'or':
      return c.args.map(temporalOp).find((op) => op !== undefined);
    case 'not':
      return temporalOp(c.arg);
    case 'stagnant':
    case 'rising':
    case 'falling':
    case 'always':
    case 'eventually':
      return c.op;
    default:
      return undefined;
  }
}
