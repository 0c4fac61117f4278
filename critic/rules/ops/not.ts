// `not` of a sub-condition: unknown stays unknown, the margin is negated. not(x < t) is the
// comparison x ≥ t, so both engines fold it into one comparison instead of a node. A function of
// the sub-condition type, so this file needs no import of the union of all ops.
import { not } from '../kleene.js';
import { NEGATED_OP, type Leaf } from '../truth.js';
import type { AnyCondition, OpDef } from './op-def.js';

export interface NotCondition<Sub> {
  readonly op: 'not';
  readonly arg: Sub;
}

/** The opposite comparison: lt↔ge, le↔gt, eq↔ne, margin negated. */
function negated(l: Leaf): Leaf {
  return { op: NEGATED_OP[l.op]!, slot: l.slot, t: l.t };
}

export function notOp<Sub extends AnyCondition>(): OpDef<NotCondition<Sub>, Sub> {
  return {
    schema: (k) => k.z.strictObject({ op: k.z.literal('not'), arg: k.condition }),
    children: (c) => [c.arg],
    compile: (c, k) => {
      const part = k.child(c.arg, 'arg');
      if (part.leaf) return k.leaf(negated(part.leaf));
      return { fn: not(part.fn, k.reg), leaf: null };
    },
    table: {
      comparison: (c, k) => {
        const l = k.comparison(c.arg);
        return l && negated(l);
      },
      shape: (c, shapeOf) => shapeOf(c.arg),
      plan: (c, k) => k.logic('not', [k.operand(c.arg)]),
    },
    lookBack: () => null,
    describe: (c, k) => `not (${k.text(c.arg)})`,
    naive: (c, k) => {
      const v = k.check(c.arg);
      return v.state === 'unknown' ? v : { state: v.state === 'true' ? 'false' : 'true', margin: -v.margin };
    },
  };
}
