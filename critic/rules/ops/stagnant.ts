// `stagnant`: max − min of a feature over the last `window` steps is below `eps` (a hand that has
// stopped moving). Closures: temporal.ts's stagnant(); table: the stagnant node kind (table/stagnant.ts).
import { stagnant } from '../temporal.js';
import type { OpDef } from './op-def.js';

/** max − min of the feature over the last `window` steps is below `eps`. */
export interface StagnantCondition {
  readonly op: 'stagnant';
  readonly feature: string;
  readonly window: number;
  readonly eps: number;
}

export const stagnantOp: OpDef<StagnantCondition> = {
  schema: (k) => k.z.strictObject({ op: k.z.literal('stagnant'), feature: k.feature, window: k.window.min(2), eps: k.z.number().min(0) }),
  children: () => [],
  compile: (c, k) => k.temporal(stagnant(k.feature(c.feature), c.window, c.eps, k.reg)),
  table: {
    comparison: () => null,
    shape: () => 'temporal',
    plan: (c, k) => k.stagnant(c.feature, c.window, c.eps),
  },
  lookBack: (c) => c.window - 1,
  describe: (c) => `${c.feature} stays within ${String(c.eps)} over ${String(c.window)} steps`,
  naive: (c, k) => {
    const h = k.recent(c, k.value(c.feature), c.window);
    if (h.some((x) => Number.isNaN(x))) return { state: 'unknown', margin: NaN };
    if (h.length < c.window) return { state: 'false', margin: Infinity };
    const m = Math.max(...h) - Math.min(...h) - c.eps;
    return { state: m < 0 ? 'true' : 'false', margin: m };
  },
};
