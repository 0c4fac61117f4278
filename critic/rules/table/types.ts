// The rule table's public shape, and what its node kinds share.
import type { Proposal } from '../proposal.js';

/** What `evaluate` writes: the critic's result (see temporal-critic.ts). */
export interface TableResult {
  readonly proposals: Proposal[];
  count: number;
  nanCount: number;
}

/** A rule set compiled to tables; see table.ts. */
export interface RuleTable {
  /** Rules in the set. */
  readonly size: number;
  /** Per rule, written by `evaluate`: pass these as the critic result's arrays (they may be views). */
  readonly status: Uint8Array;
  readonly margins: Float64Array;
  readonly nanRules: Int32Array;
  /** Rules evaluated by the table (the others run their CompiledRule closures, in place). */
  readonly tableRules: number;
  /** Evaluates every rule on one frame's values and writes `r`: status, margins, proposals, NaN list. */
  evaluate(v: Float64Array, r: TableResult): void;
  /** Start of an episode: every window, dwell and cooldown starts over. */
  reset(): void;
}

/**
 * The register file every node kind reads and writes, as arena offsets: per operand its truth (U8:
 * FALSE 0, TRUE 1, UNKNOWN 2) and margin (F64); per rule its guard verdict this step (U8, TRUE if
 * unguarded). A node of a rule whose verdict is not TRUE is skipped.
 */
export interface Registers {
  readonly tv: number;
  readonly mg: number;
  readonly gv: number;
}
