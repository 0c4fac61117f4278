// `and` / `or` of sub-conditions, in Kleene logic: and is false if any part is false, or true if any
// part is true; otherwise unknown wins. Margin: max (and) / min (or) of the known parts. One part
// alone is that part, in both engines. A function of the sub-condition type, so this file needs no
// import of the union of all ops.
import { and, or } from '../kleene.js';
import type { AnyCondition, NaiveVerdict, OpDef } from './op-def.js';

export interface AndOrCondition<Sub> {
  readonly op: 'and' | 'or';
  readonly args: readonly Sub[];
}

export function andOrOp<Sub extends AnyCondition>(): OpDef<AndOrCondition<Sub>, Sub> {
  return {
    schema: (k) => k.z.strictObject({ op: k.z.enum(['and', 'or']), args: k.z.array(k.condition).min(1) }),
    children: (c) => c.args,
    compile: (c, k) => {
      const parts = c.args.map((a, i) => k.child(a, 'args', i));
      if (parts.length === 1) return parts[0]!;
      return { fn: c.op === 'and' ? and(parts, k.reg) : or(parts, k.reg), leaf: null };
    },
    table: {
      comparison: (c, k) => (c.args.length === 1 ? k.comparison(c.args[0]!) : null),
      shape: (c, shapeOf) => {
        let out: 'pure' | 'temporal' = 'pure';
        for (const a of c.args) {
          const s = shapeOf(a);
          if (s === null) return null;
          if (s === 'temporal') out = 'temporal';
        }
        return out;
      },
      plan: (c, k) => {
        const parts = c.args.map((a) => k.operand(a));
        return parts.length === 1 ? parts[0]! : k.logic(c.op, parts);
      },
    },
    lookBack: () => null,
    // A nested and/or is parenthesized, so "a and (b or c)" reads as it evaluates.
    describe: (c, k) => c.args.map((a) => (a.op === 'and' || a.op === 'or' ? `(${k.text(a)})` : k.text(a))).join(` ${c.op} `),
    naive: (c, k) =>
      combine(
        c.op,
        c.args.map((a) => k.check(a)),
      ),
  };
}

function combine(op: 'and' | 'or', parts: readonly NaiveVerdict[]): NaiveVerdict {
  const known = parts.filter((p) => p.state !== 'unknown');
  const decisive = op === 'and' ? 'false' : 'true';
  if (known.length < parts.length && !known.some((p) => p.state === decisive)) return { state: 'unknown', margin: NaN };
  const margins = known.map((p) => p.margin);
  const margin = op === 'and' ? Math.max(-Infinity, ...margins) : Math.min(Infinity, ...margins);
  const holds = op === 'and' ? known.every((p) => p.state === 'true') : known.some((p) => p.state === 'true');
  return { state: holds ? 'true' : 'false', margin };
}
