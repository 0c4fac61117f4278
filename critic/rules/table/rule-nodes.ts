// Which temporal nodes belong to which rule, so a rule's windows can start over: when its guard stops
// holding (guards.ts) and at an episode start. These are the condition's nodes only: a rule with a
// temporal guard runs through its closures, whose `reset()` also clears the guards' windows at an
// episode start.
import { clearStagnant } from './stagnant.js';
import { I32_BUFFER, U8_BUFFER, prefix, type Slices } from './storage.js';
import { clearTrend } from './trend.js';
import { clearWindow } from './windows.js';

const I32 = new Int32Array(I32_BUFFER);
const U8 = new Uint8Array(U8_BUFFER);

/** A temporal node: its kind and its index among that kind's nodes. */
export interface RuleNode {
  kind: 'stagnant' | 'trend' | 'window';
  id: number;
}

const K_STAGNANT = 0,
  K_TREND = 1,
  K_WINDOW = 2;
const KIND = { stagnant: K_STAGNANT, trend: K_TREND, window: K_WINDOW } as const;

// Header: where each rule's nodes start, their kinds and ids; the headers of the three kinds.
const H_NS = 0,
  H_NK = 1,
  H_NI = 2,
  H_HS = 3,
  H_HT = 4,
  H_HW = 5;
const H_SIZE = 6;

/** Lays out every rule's nodes (`nodesOf[i]`: rule i's), given the kinds' headers; the offset of
 * the header. */
export function layRuleNodes(
  s: Slices,
  nodesOf: readonly (readonly RuleNode[])[],
  kinds: { stagnant: number; trend: number; window: number },
): number {
  const hv: number[] = new Array(H_SIZE).fill(0);
  hv[H_NS] = s.i32(prefix(nodesOf.map((x) => x.length)));
  hv[H_NK] = s.u8(nodesOf.flat().map((x) => KIND[x.kind]));
  hv[H_NI] = s.i32(nodesOf.flat().map((x) => x.id));
  hv[H_HS] = kinds.stagnant;
  hv[H_HT] = kinds.trend;
  hv[H_HW] = kinds.window;
  return s.i32(hv);
}

/** Rule i's temporal nodes start over. */
export function clearRuleNodes(h: number, i: number): void {
  const NS = I32[h + H_NS]!,
    NK = I32[h + H_NK]!,
    NI = I32[h + H_NI]!;
  for (let j = I32[NS + i]!, e = I32[NS + i + 1]!; j < e; j++) {
    const id = I32[NI + j]!,
      kind = U8[NK + j]!;
    if (kind === K_STAGNANT) clearStagnant(I32[h + H_HS]!, id);
    else if (kind === K_TREND) clearTrend(I32[h + H_HT]!, id);
    else clearWindow(I32[h + H_HW]!, id);
  }
}
