// Phase 2: the guard verdict of every guarded rule (all its guards are comparisons, read from their
// operands). A rule whose verdict is not TRUE is inactive: the later phases skip its nodes, and a
// rule that stops being active has its windows reset (as CompiledRule.deactivate does).
import { clearRuleNodes } from './rule-nodes.js';
import { I32_BUFFER, U8_BUFFER, prefix, type Slices } from './storage.js';
import type { Registers } from './types.js';

const I32 = new Int32Array(I32_BUFFER);
const U8 = new Uint8Array(U8_BUFFER);

const FALSE = 0,
  TRUE = 1,
  UNKNOWN = 2; // truth.ts's, local: see storage.ts

/** Rule `rule`'s guards, as the operands of their comparisons. */
export interface GuardList {
  rule: number;
  args: number[];
}

// Header: guarded rules, their rule indices, where each one's operands start, the operands; per
// rule whether it was active on the last step; the rules' node lists (rule-nodes.ts); the number
// of rules; then the registers.
const H_NG = 0,
  H_GD = 1,
  H_GS = 2,
  H_GA = 3,
  H_AC = 4,
  H_RN = 5,
  H_N = 6,
  H_TV = 7,
  H_GV = 8;
const H_SIZE = 9;

/** Lays the guards of `n` rules out; `ruleNodes`: the header of their node lists. The offset of
 * the header. */
export function layGuards(s: Slices, reg: Registers, n: number, guards: readonly GuardList[], ruleNodes: number): number {
  const hv: number[] = new Array(H_SIZE).fill(0);
  hv[H_NG] = guards.length;
  hv[H_GD] = s.i32(guards.map((g) => g.rule));
  hv[H_GS] = s.i32(prefix(guards.map((g) => g.args.length)));
  hv[H_GA] = s.i32(guards.flatMap((g) => g.args));
  hv[H_AC] = s.u8(n);
  hv[H_RN] = ruleNodes;
  hv[H_N] = n;
  hv[H_TV] = reg.tv;
  hv[H_GV] = reg.gv;
  return s.i32(hv);
}

/** This step's guard verdicts, in Kleene logic (FALSE wins, then UNKNOWN). */
export function evalGuards(h: number): void {
  const NG = I32[h + H_NG]!,
    GS = I32[h + H_GS]!,
    GA = I32[h + H_GA]!,
    GD = I32[h + H_GD]!,
    TV = I32[h + H_TV]!,
    GV = I32[h + H_GV]!,
    AC = I32[h + H_AC]!;
  for (let k = 0; k < NG; k++) {
    let g: number = TRUE;
    for (let j = I32[GS + k]!, e = I32[GS + k + 1]!; j < e; j++) {
      const s = U8[TV + I32[GA + j]!]!;
      if (s === FALSE) g = FALSE;
      else if (s === UNKNOWN && g !== FALSE) g = UNKNOWN;
    }
    const i = I32[GD + k]!;
    U8[GV + i] = g;
    if (g === TRUE) U8[AC + i] = 1;
    else if (U8[AC + i] === 1) {
      U8[AC + i] = 0;
      clearRuleNodes(I32[h + H_RN]!, i);
    }
  }
}

/** Start of an episode: no rule was active, and every verdict reads TRUE until its guards say. */
export function resetGuards(h: number): void {
  const n = I32[h + H_N]!,
    AC = I32[h + H_AC]!,
    GV = I32[h + H_GV]!;
  U8.fill(0, AC, AC + n);
  U8.fill(TRUE, GV, GV + n);
}
