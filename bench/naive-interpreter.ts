// The benchmark's baseline: a straightforward interpreter of the same rule files, written the way a
// first implementation would be — walk the JSON condition tree every step, dispatch on the op string,
// look each feature up by name in a plain object, keep histories in arrays (push / shift) keyed by
// condition node, return a fresh list of what fired. Same semantics as the compiled critic (Kleene
// NaN handling, dwell, cooldown, guard reset), which a test checks step by step. It is not
// deliberately slow; it is what the compiler is measured against. Not for production use. Each op's
// evaluation is its definition's `naive` (critic/rules/ops/); rules (guards, dwell, cooldown) are here.
import { opOf, type Condition, type NaiveKit, type NaiveVerdict, type RuleFile, type RuleSpec } from '../critic/index.js';

type Features = Readonly<Record<string, number>>;
interface RuleState {
  dwell: number;
  cooldown: number;
  active: boolean;
  histories: Map<object, unknown[]>;
}

export interface NaiveResult {
  fired: string[];
  unknown: string[];
}

export class NaiveCritic {
  private readonly states: RuleState[];
  /** The rule and step being evaluated, which `kit` reads. */
  private state: RuleState | null = null;
  private features: Features = {};
  private readonly kit: NaiveKit<Condition> = {
    value: (feature) => this.features[feature]!,
    recent: <T>(node: object, x: T, max: number): T[] => {
      const histories = this.state!.histories;
      let h = histories.get(node) as T[] | undefined;
      if (!h) histories.set(node, (h = []));
      h.push(x);
      if (h.length > max) h.shift();
      return h;
    },
    check: (c) => this.check(c),
  };

  constructor(private readonly file: RuleFile) {
    this.states = file.rules.map(() => ({ dwell: 0, cooldown: 0, active: false, histories: new Map() }));
  }

  evaluate(features: Features): NaiveResult {
    const result: NaiveResult = { fired: [], unknown: [] };
    this.features = features;
    this.file.rules.forEach((rule, i) => {
      const status = this.step(rule, (this.state = this.states[i]!));
      if (status === 'fired') result.fired.push(rule.id);
      if (status === 'unknown') result.unknown.push(rule.id);
    });
    return result;
  }

  private step(rule: RuleSpec, st: RuleState): string {
    const cooling = st.cooldown > 0;
    if (cooling) st.cooldown--;
    const guards = rule.guards.map((g) => this.check(g).state);
    if (guards.includes('false') || guards.includes('unknown')) {
      st.dwell = 0;
      if (st.active) this.clearHistories(rule.when, st);
      st.active = false;
      return guards.includes('false') ? 'inactive' : 'unknown';
    }
    st.active = true;
    const v = this.check(rule.when);
    if (v.state !== 'true') {
      st.dwell = 0;
      return v.state === 'false' ? 'clear' : 'unknown';
    }
    st.dwell++;
    if (st.dwell < rule.dwell) return 'holding';
    if (cooling) return 'cooldown';
    st.dwell = 0;
    st.cooldown = rule.cooldown;
    return 'fired';
  }

  private clearHistories(c: Condition, st: RuleState): void {
    st.histories.delete(c);
    for (const sub of opOf(c).children(c)) this.clearHistories(sub, st);
  }

  private check(c: Condition): NaiveVerdict {
    return opOf(c).naive(c, this.kit);
  }
}
