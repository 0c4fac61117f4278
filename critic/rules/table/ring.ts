// Small windows (stagnant.ts, windows.ts) stand in for a sliding-maximum deque with a ring of
// values and its current maximum. The ring is doubled (each value written at p and p + window) so a
// scan never wraps.
//
// The deque's front is the newest value unless an older one is strictly greater than every newer
// one (ties go to the newest, ±0 included), and a NaN pushed evicts every older value and is
// evicted by the next push. Without NaN that is: a newcomer `>=` the maximum replaces it; when the
// maximum leaves the ring, a scan newest → oldest with a strict `>` finds the next (ringMax). A
// window holding a NaN it must account for is scanned exactly every step (scanExact) and its
// maximum rebuilt once the NaN has left.
import { F64_BUFFER, I32_BUFFER } from './storage.js';

const F64 = new Float64Array(F64_BUFFER);
const I32 = new Int32Array(I32_BUFFER);

/** Windows up to this many steps scan a ring for their extremum (masks of 32 bits hold a window). */
export const SCAN_MAX = 16;

/** Ring position + 1 of scanTop's result (0: nothing above −Infinity): a second result without
 * an allocation. */
let scanAt = 0;

/** `i` if below `size`, else 0 (i ≤ size): a ring index step without a branch. */
export function wrap(i: number, size: number): number {
  return i & -+(i !== size);
}

/** Sets `bit` of the mask at I32[at] to `on` (0 or 1), without a branch; the new mask. */
export function mark(at: number, bit: number, on: number): number {
  const m = (I32[at]! & ~bit) | (bit & -on);
  I32[at] = m;
  return m;
}

/**
 * The maximum of `sign` · value over a NaN-free ring, kept at F64[mx] with its ring position + 1
 * at I32[mp] (0: rescan), after `y` (= sign · value) was written at ring position `head`; the
 * maximum. A newcomer `>=` the maximum replaces it; a maximum that left the ring is rescanned.
 */
export function ringMax(
  mx: number,
  mp: number,
  y: number,
  vals: number,
  head: number,
  count: number,
  window: number,
  sign: number,
): number {
  const here = head + 1,
    at = I32[mp]!;
  if (at === 0 || at === here) {
    F64[mx] = scanTop(vals, head, count, window, sign);
    I32[mp] = scanAt;
  } else if (y >= F64[mx]!) {
    F64[mx] = y;
    I32[mp] = here;
  }
  return F64[mx]!;
}

/** Max of `sign` · value over the `count` newest values of a doubled ring, the newest at ring
 * position `head`; NaN values are never picked. Leaves the position + 1 in scanAt. */
function scanTop(vals: number, head: number, count: number, window: number, sign: number): number {
  const top = vals + head + window;
  let best = -Infinity,
    at = -1;
  for (let j = 0; j < count; j++) {
    const x = sign * F64[top - j]!;
    if (x > best) {
      best = x;
      at = j;
    }
  }
  scanAt = at < 0 ? 0 : (head - at >= 0 ? head - at : head - at + window) + 1;
  return best;
}

/** The deque's front when some known value is NaN: skips unknown positions (mask `um`, bit = ring
 * position), starts from the newest known value, and stops at an older NaN. `rel`: top's index in
 * the doubled ring. */
export function scanExact(top: number, count: number, rel: number, window: number, um: number): number {
  let best = -Infinity,
    found = false;
  for (let j = 0; j < count; j++) {
    const p = rel - j >= window ? rel - j - window : rel - j;
    if ((um >>> p) & 1) continue;
    const x = F64[top - j]!;
    if (!found) {
      best = x;
      found = true;
    } else if (x !== x) break;
    else if (x > best) best = x;
  }
  return best;
}
