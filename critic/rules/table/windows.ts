// Phase 4, `always` / `eventually` over a pure operand (temporal.ts `windowed`). always holds once a
// full window held throughout; eventually holds as soon as one step held; an unknown step decides
// only when no known step does. Margins are kept signed (always: m, eventually: −m) so both take
// the window's maximum: small windows scan a ring (ring.ts), longer ones keep a deque (deque.ts).
import { dqClear, dqExpire, dqMax, dqPush, layDeques } from './deque.js';
import { SCAN_MAX, mark, ringMax, scanExact, wrap } from './ring.js';
import { F64_BUFFER, I32_BUFFER, U8_BUFFER, type Slices } from './storage.js';
import type { Registers } from './types.js';

const F64 = new Float64Array(F64_BUFFER);
const I32 = new Int32Array(I32_BUFFER);
const U8 = new Uint8Array(U8_BUFFER);

const FALSE = 0,
  TRUE = 1,
  UNKNOWN = 2; // truth.ts's, local: see storage.ts

/** always / eventually of operand `sub` over `win` steps, of rule `rule`, written to operand `out`. */
export interface WindowNode {
  sub: number;
  win: number;
  always: boolean;
  out: number;
  rule: number;
}

/** Loop a node runs in: small always, small eventually, then the long windows. */
export const windowGroup = (x: WindowNode): number => (x.win <= SCAN_MAX ? (x.always ? 0 : 1) : 2);

// Header: node count; per node its operand, window, always (1) or eventually (0), output operand,
// rule; state: (large) a ring of truth values and a deque; (small) the doubled ring of signed
// margins, its max and the max's ring position + 1 (0: rescan); head, count, and 4 words each
// (large: counts of FALSE, TRUE, UNKNOWN; small: masks, see evalSmall); the number of small always
// and of small nodes; then the registers.
const H_NW = 0,
  H_WSU = 1,
  H_WW = 2,
  H_WA = 3,
  H_WO = 4,
  H_WR = 5,
  H_WB = 6,
  H_WX = 7,
  H_WV = 8,
  H_WMX = 9,
  H_WMP = 10,
  H_WH = 11,
  H_WC = 12;
const H_WK = 13,
  H_NWA = 14,
  H_NWS = 15,
  H_GV = 16,
  H_TV = 17,
  H_MG = 18;
const H_SIZE = 19;

/** Lays the nodes (grouped by windowGroup) out in the arenas; the offset of their header. */
export function layWindows(s: Slices, reg: Registers, nodes: readonly WindowNode[]): number {
  const n = nodes.length,
    small = nodes.map((x) => x.win <= SCAN_MAX);
  const recs = layDeques(
    s,
    nodes.filter((_, k) => !small[k]).map((x) => x.win + 1),
  );
  let d = 0;
  const hv: number[] = new Array(H_SIZE).fill(0);
  hv[H_NW] = n;
  hv[H_WSU] = s.i32(nodes.map((x) => x.sub));
  hv[H_WW] = s.i32(nodes.map((x) => x.win));
  hv[H_WA] = s.u8(nodes.map((x) => (x.always ? 1 : 0)));
  hv[H_WO] = s.i32(nodes.map((x) => x.out));
  hv[H_WR] = s.i32(nodes.map((x) => x.rule));
  hv[H_WB] = s.i32(
    s.pool(
      'u8',
      nodes.map((x, k) => (small[k] ? 0 : x.win)),
    ),
  );
  hv[H_WX] = s.i32(small.map((isSmall) => (isSmall ? -1 : recs[d++]!)));
  hv[H_WV] = s.i32(
    s.pool(
      'f64',
      nodes.map((x, k) => (small[k] ? 2 * x.win : 0)),
    ),
  );
  hv[H_NWA] = nodes.filter((x, k) => small[k] && x.always).length;
  hv[H_NWS] = small.filter(Boolean).length;
  hv[H_WMX] = s.f64(n);
  hv[H_WMP] = s.i32(n);
  hv[H_WH] = s.i32(n);
  hv[H_WC] = s.i32(n);
  hv[H_WK] = s.i32(4 * n);
  hv[H_GV] = reg.gv;
  hv[H_TV] = reg.tv;
  hv[H_MG] = reg.mg;
  return s.i32(hv);
}

/** Every window of an active rule advances one step. */
export function evalWindows(h: number, seq: number): void {
  evalSmall(h);
  evalLarge(h, seq);
}

/** Small windows: the signed margins in a doubled ring, bit masks of the positions holding FALSE,
 * TRUE, UNKNOWN and a known step with a NaN margin (WK + 4k ..), and the ring's max with its
 * position (see ring.ts) while no known margin is NaN. An unknown step's margin is NaN (every pure
 * operand's is), which `>` and `>=` never pick. */
function evalSmall(h: number): void {
  const NWA = I32[h + H_NWA]!,
    NWS = I32[h + H_NWS]!,
    WV = I32[h + H_WV]!,
    WMX = I32[h + H_WMX]!,
    WMP = I32[h + H_WMP]!,
    WR = I32[h + H_WR]!,
    WSU = I32[h + H_WSU]!,
    WW = I32[h + H_WW]!,
    WH = I32[h + H_WH]!,
    WC = I32[h + H_WC]!,
    WK = I32[h + H_WK]!,
    WO = I32[h + H_WO]!,
    GV = I32[h + H_GV]!,
    TV = I32[h + H_TV]!,
    MG = I32[h + H_MG]!;
  for (let k = 0; k < NWS; k++) {
    if (U8[GV + I32[WR + k]!] !== TRUE) continue;
    const a = I32[WSU + k]!,
      s = U8[TV + a]!,
      window = I32[WW + k]!,
      vals = I32[WV + k]!,
      mk = WK + 4 * k;
    const always = k < NWA;
    const x = always ? F64[MG + a]! : -F64[MG + a]!;
    const head = I32[WH + k]!,
      bit = 1 << head;
    const count = I32[WC + k]! + +(I32[WC + k]! < window);
    const fm = mark(mk, bit, +(s === FALSE)),
      tm = mark(mk + 1, bit, +(s === TRUE)),
      um = mark(mk + 2, bit, +(s === UNKNOWN));
    const nm = mark(mk + 3, bit, +(s !== UNKNOWN && x !== x));
    F64[vals + head] = x;
    F64[vals + head + window] = x;
    I32[WH + k] = wrap(head + 1, window);
    I32[WC + k] = count;
    const o = I32[WO + k]!;
    let best: number;
    if (nm !== 0) {
      best = scanExact(vals + head + window, count, head + window, window, um);
      F64[WMX + k] = best;
      I32[WMP + k] = 0; // rebuilt by a scan once the NaN has left
    } else best = ringMax(WMX + k, WMP + k, x, vals, head, count, window, 1);
    verdict(TV + o, MG + o, always, fm !== 0, tm !== 0, um !== 0, count === window, best);
  }
}

/** Longer windows: a ring of truth values with a count of each, and a deque of known margins. */
function evalLarge(h: number, seq: number): void {
  const NWS = I32[h + H_NWS]!,
    NW = I32[h + H_NW]!,
    WR = I32[h + H_WR]!,
    WSU = I32[h + H_WSU]!,
    WW = I32[h + H_WW]!,
    WB = I32[h + H_WB]!,
    WH = I32[h + H_WH]!,
    WC = I32[h + H_WC]!,
    WK = I32[h + H_WK]!,
    WX = I32[h + H_WX]!,
    WA = I32[h + H_WA]!,
    WO = I32[h + H_WO]!,
    GV = I32[h + H_GV]!,
    TV = I32[h + H_TV]!,
    MG = I32[h + H_MG]!;
  for (let k = NWS; k < NW; k++) {
    if (U8[GV + I32[WR + k]!] !== TRUE) continue;
    const a = I32[WSU + k]!,
      s = U8[TV + a]!,
      window = I32[WW + k]!,
      base = I32[WB + k]!,
      c3 = WK + 4 * k;
    let head = I32[WH + k]!,
      count = I32[WC + k]!;
    if (count === window) I32[c3 + U8[base + head]!]!--;
    else count++;
    U8[base + head] = s;
    I32[c3 + s]!++;
    head = wrap(head + 1, window);
    I32[WH + k] = head;
    I32[WC + k] = count;
    const d = I32[WX + k]!,
      always = U8[WA + k] === 1;
    dqExpire(d, seq - window + 1);
    if (s !== UNKNOWN) dqPush(d, seq, always ? F64[MG + a]! : -F64[MG + a]!);
    const o = I32[WO + k]!;
    verdict(TV + o, MG + o, always, I32[c3 + FALSE]! > 0, I32[c3 + TRUE]! > 0, I32[c3 + UNKNOWN]! > 0, count === window, dqMax(d));
  }
}

/** A window's verdict and margin, whichever store kept its steps. `max` is the largest signed margin
 * in the window. */
function verdict(
  tvAt: number,
  mgAt: number,
  always: boolean,
  anyFalse: boolean,
  anyTrue: boolean,
  anyUnknown: boolean,
  full: boolean,
  max: number,
): void {
  const settled = always ? anyFalse : anyTrue; // a known step that decides the window on its own
  if (anyUnknown && !settled) {
    U8[tvAt] = UNKNOWN;
    F64[mgAt] = Number.NaN;
  } else if (always) {
    U8[tvAt] = !anyFalse && full ? TRUE : FALSE;
    F64[mgAt] = anyFalse || full ? max : Infinity; // a window still filling has no margin yet
  } else {
    U8[tvAt] = anyTrue ? TRUE : FALSE;
    F64[mgAt] = -max;
  }
}

/** Node `k` starts over (its rule's guard stopped holding, or an episode starts). */
export function clearWindow(h: number, k: number): void {
  const WH = I32[h + H_WH]!,
    WC = I32[h + H_WC]!,
    WMP = I32[h + H_WMP]!,
    WK = I32[h + H_WK]!,
    WX = I32[h + H_WX]!;
  I32[WH + k] = I32[WC + k] = I32[WMP + k] = 0;
  I32[WK + 4 * k] = I32[WK + 4 * k + 1] = I32[WK + 4 * k + 2] = I32[WK + 4 * k + 3] = 0;
  const d = I32[WX + k]!;
  if (d >= 0) dqClear(d);
}
