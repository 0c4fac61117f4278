// The manifest's `wait_out_lag`, compiled: whether the runtime may hold at a chunk boundary to let
// the motion in flight land (see critic/README.md, "Waiting out an actuation lag").
import { CriticLoadError } from '../errors.js';
import type { FeatureLayout } from '../features/layout.js';
import { compileCondition } from '../rules/condition.js';
import type { Condition } from '../rules/schema.js';
import { TRUE } from '../rules/truth.js';

/** True where a lag may be waited out on this frame. */
export type WaitOutLag = (values: Float64Array) => boolean;

/**
 * The manifest's `wait_out_lag` as a test on a frame. The condition is asked only at chunk
 * boundaries, so a temporal operator's window would count boundaries, not steps: refused.
 */
export function compileWaitOutLag(
  spec: boolean | { readonly when: Condition } | undefined,
  features: { readonly layout: FeatureLayout; readonly privileged: boolean },
  file: string,
): WaitOutLag | null {
  if (spec === undefined || spec === false) return null;
  if (spec === true) return () => true;
  const temporal = temporalOp(spec.when);
  if (temporal) throw new CriticLoadError(['wait_out_lag', 'when'], `"${temporal}" looks back over steps, but this condition is only asked at chunk boundaries: use comparisons, and, or, not`, file);
  const fn = compileCondition(spec.when, ['wait_out_lag', 'when'], { ...features, reg: new Float64Array(1) }, file).fn;
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
