// `rising` / `falling`: the net change of a feature over the last `window` steps, x_t − x_{t−window},
// exceeds `by` upward / downward. Only the two ends count, so a noisy middle does not. Closures:
// temporal.ts's trend(); table: the trend node kind (table/trend.ts).
import { trend } from '../temporal.js';
import type { OpDef } from './op-def.js';

/** Net change over the last `window` steps exceeds `by` (rising: up; falling: down). */
export interface TrendCondition {
  readonly op: 'rising' | 'falling';
  readonly feature: string;
  readonly window: number;
  readonly by?: number;
}

export const trendOp: OpDef<TrendCondition> = {
  schema: (k) =>
    k.z.strictObject({ op: k.z.enum(['rising', 'falling']), feature: k.feature, window: k.window, by: k.z.number().min(0).optional() }),
  children: () => [],
  compile: (c, k) => k.temporal(trend(k.feature(c.feature), c.window, c.by ?? 0, c.op === 'rising', k.reg)),
  table: {
    comparison: () => null,
    shape: () => 'temporal',
    plan: (c, k) => k.trend(c.feature, c.window, c.by ?? 0, c.op === 'rising'),
  },
  lookBack: (c) => c.window,
  describe: (c) =>
    `${c.feature} ${c.op === 'rising' ? 'rises' : 'falls'}${c.by !== undefined ? ` by more than ${String(c.by)}` : ''} over ${String(c.window)} steps`,
  naive: (c, k) => {
    const h = k.recent(c, k.value(c.feature), c.window + 1);
    const last = h[h.length - 1]!;
    if (Number.isNaN(last)) return { state: 'unknown', margin: NaN };
    if (h.length < c.window + 1) return { state: 'false', margin: Infinity };
    if (Number.isNaN(h[0]!)) return { state: 'unknown', margin: NaN };
    const m = (c.by ?? 0) - (c.op === 'rising' ? last - h[0]! : h[0]! - last);
    return { state: m < 0 ? 'true' : 'false', margin: m };
  },
};
