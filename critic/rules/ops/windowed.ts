// `always` / `eventually`: a sub-condition held at every / at least one of the last `window` steps.
// Closures: temporal.ts's windowed(); table: the window node kind (table/windows.ts), over a
// sub-condition without temporal nodes (a window over a temporal one runs through its closures).
// A function of the sub-condition type, so this file needs no import of the union of all ops.
import { windowed } from '../temporal.js';
import type { AnyCondition, NaiveVerdict, OpDef } from './op-def.js';

/** The sub-condition held at every (always) / at least one (eventually) of the last `window` steps. */
export interface WindowedCondition<Sub> {
  readonly op: 'always' | 'eventually';
  readonly window: number;
  readonly cond: Sub;
}

export function windowedOp<Sub extends AnyCondition>(): OpDef<WindowedCondition<Sub>, Sub> {
  return {
    schema: (k) => k.z.strictObject({ op: k.z.enum(['always', 'eventually']), window: k.window, cond: k.condition }),
    children: (c) => [c.cond],
    compile: (c, k) => {
      const sub = k.child(c.cond, 'cond');
      return k.temporal(windowed(sub.fn, sub.leaf, c.window, c.op === 'always', k.reg));
    },
    table: {
      comparison: () => null,
      shape: (c, shapeOf) => (shapeOf(c.cond) === 'pure' ? 'temporal' : null),
      plan: (c, k) => k.window(k.operand(c.cond), c.window, c.op === 'always'),
    },
    lookBack: (c) => c.window - 1,
    describe: (c, k) => `${c.op === 'always' ? 'at every one' : 'at least once'} of the last ${String(c.window)} steps: ${k.text(c.cond)}`,
    naive: (c, k) => {
      const h = k.recent(c, k.check(c.cond), c.window);
      return c.op === 'always' ? always(h, c.window) : eventually(h);
    },
  };
}

function always(h: readonly NaiveVerdict[], window: number): NaiveVerdict {
  const known = h.filter((v) => v.state !== 'unknown');
  const m = Math.max(-Infinity, ...known.map((v) => v.margin));
  if (known.some((v) => v.state === 'false')) return { state: 'false', margin: m };
  if (known.length < h.length) return { state: 'unknown', margin: NaN };
  return h.length < window ? { state: 'false', margin: Infinity } : { state: 'true', margin: m };
}

function eventually(h: readonly NaiveVerdict[]): NaiveVerdict {
  const known = h.filter((v) => v.state !== 'unknown');
  const m = Math.min(Infinity, ...known.map((v) => v.margin));
  if (known.some((v) => v.state === 'true')) return { state: 'true', margin: m };
  if (known.length < h.length) return { state: 'unknown', margin: NaN };
  return { state: 'false', margin: m };
}
