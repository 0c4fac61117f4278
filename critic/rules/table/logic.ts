// Phases 3 and 5: and / or / not nodes of active rules, in Kleene logic. Those over comparisons
// only come first (phase 3); those that read a temporal node run after the temporal phases (5).
import { F64_BUFFER, I32_BUFFER, U8_BUFFER, prefix, type Slices } from './storage.js';
import type { Registers } from './types.js';

const F64 = new Float64Array(F64_BUFFER);
const I32 = new Int32Array(I32_BUFFER);
const U8 = new Uint8Array(U8_BUFFER);

const FALSE = 0,
  TRUE = 1,
  UNKNOWN = 2; // truth.ts's, local: see storage.ts
const AND = 0,
  OR = 1,
  NOT = 2;

/** and / or / not of rule `rule` over operands `args`, written to operand `out`. */
export interface LogicNode {
  op: 'and' | 'or' | 'not';
  rule: number;
  out: number;
  args: number[];
}

// Header: per node its kind, rule, output operand, where its arguments start (in BA), and the
// registers.
const H_BK = 0,
  H_BR = 1,
  H_BO = 2,
  H_BS = 3,
  H_BA = 4,
  H_GV = 5,
  H_TV = 6,
  H_MG = 7;
const H_SIZE = 8;

const KIND = { and: AND, or: OR, not: NOT } as const;

/** Lays the nodes out in the arenas; the offset of their header. */
export function layLogic(s: Slices, reg: Registers, nodes: readonly LogicNode[]): number {
  const hv: number[] = new Array(H_SIZE).fill(0);
  hv[H_BK] = s.u8(nodes.map((b) => KIND[b.op]));
  hv[H_BR] = s.i32(nodes.map((b) => b.rule));
  hv[H_BO] = s.i32(nodes.map((b) => b.out));
  hv[H_BS] = s.i32(prefix(nodes.map((b) => b.args.length)));
  hv[H_BA] = s.i32(nodes.flatMap((b) => b.args));
  hv[H_GV] = reg.gv;
  hv[H_TV] = reg.tv;
  hv[H_MG] = reg.mg;
  return s.i32(hv);
}

/** Nodes [from, to): margins max (and) / min (or) / negated (not) of their arguments'. */
export function evalLogic(h: number, from: number, to: number): void {
  const BR = I32[h + H_BR]!,
    BO = I32[h + H_BO]!,
    BK = I32[h + H_BK]!,
    BS = I32[h + H_BS]!,
    BA = I32[h + H_BA]!,
    GV = I32[h + H_GV]!,
    TV = I32[h + H_TV]!,
    MG = I32[h + H_MG]!;
  for (let k = from; k < to; k++) {
    if (U8[GV + I32[BR + k]!] !== TRUE) continue;
    const o = I32[BO + k]!,
      kind = U8[BK + k]!,
      j = BA + I32[BS + k]!,
      e = BA + I32[BS + k + 1]!;
    if (kind === NOT) {
      const a = I32[j]!,
        s = U8[TV + a]!;
      U8[TV + o] = s === UNKNOWN ? UNKNOWN : s ^ 1;
      F64[MG + o] = -F64[MG + a]!; // NaN stays NaN
    } else if (kind === AND) and(o, j, e, TV, MG);
    else or(o, j, e, TV, MG);
  }
}

// and / or of the operands at I32[from, to), written to operand o. An unknown part has a NaN
// margin, which no comparison picks (as CompiledRule's `reg[0] > m`). Small: they are inlined.

/** FALSE if any part is, else UNKNOWN if any part is; margin the largest. */
function and(o: number, from: number, to: number, TV: number, MG: number): void {
  let m = -Infinity,
    nFalse = 0,
    nUnknown = 0;
  for (let j = from; j < to; j++) {
    const a = I32[j]!,
      s = U8[TV + a]!,
      x = F64[MG + a]!;
    nUnknown += s >> 1;
    nFalse += +(s === FALSE);
    m = x > m ? x : m;
  }
  F64[MG + o] = m;
  U8[TV + o] = +(nFalse === 0);
  if (nFalse === 0 && nUnknown > 0) {
    U8[TV + o] = UNKNOWN;
    F64[MG + o] = Number.NaN;
  }
}

/** TRUE if any part is, else UNKNOWN if any part is; margin the smallest. */
function or(o: number, from: number, to: number, TV: number, MG: number): void {
  let m = Infinity,
    nTrue = 0,
    nUnknown = 0;
  for (let j = from; j < to; j++) {
    const a = I32[j]!,
      s = U8[TV + a]!,
      x = F64[MG + a]!;
    nUnknown += s >> 1;
    nTrue += s & 1;
    m = x < m ? x : m;
  }
  F64[MG + o] = m;
  U8[TV + o] = +(nTrue > 0);
  if (nTrue === 0 && nUnknown > 0) {
    U8[TV + o] = UNKNOWN;
    F64[MG + o] = Number.NaN;
  }
}
