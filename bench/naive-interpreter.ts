// The benchmark's baseline: a straightforward interpreter of the same rule files, written the way a
// first implementation would be — walk the JSON condition tree every step, switch on the op string,
// look each feature up by name in a plain object, keep histories in arrays (push / shift) keyed by
// condition node, return a fresh list of what fired. Same semantics as the compiled critic (Kleene
// NaN handling, dwell, cooldown, guard reset), which a test checks step by step. It is not
// deliberately slow; it is what the compiler is measured against. Not for production use.
import type { Condition, RuleFile, RuleSpec } from '../critic/index.js';

type Features = Readonly<Record<string, number>>;
interface Verdict {
  state: 'false' | 'true' | 'unknown';
  margin: number;
}
interface RuleState {
  dwell: number;
  cooldown: number;
  active: boolean;
  histories: Map<Condition, Verdict[] | number[]>;
}

export interface NaiveResult {
  fired: string[];
  unknown: string[];
}

export class NaiveCritic {
  private readonly states: RuleState[];

  constructor(private readonly file: RuleFile) {
    this.states = file.rules.map(() => ({ dwell: 0, cooldown: 0, active: false, histories: new Map() }));
  }

  evaluate(features: Features): NaiveResult {
    const result: NaiveResult = { fired: [], unknown: [] };
    this.file.rules.forEach((rule, i) => {
      const status = this.step(rule, this.states[i]!, features);
      if (status === 'fired') result.fired.push(rule.id);
      if (status === 'unknown') result.unknown.push(rule.id);
    });
    return result;
  }

  private step(rule: RuleSpec, st: RuleState, f: Features): string {
    const cooling = st.cooldown > 0;
    if (cooling) st.cooldown--;
    const guards = rule.guards.map((g) => this.check(g, st, f).state);
    if (guards.includes('false') || guards.includes('unknown')) {
      st.dwell = 0;
      if (st.active) this.clearHistories(rule.when, st);
      st.active = false;
      return guards.includes('false') ? 'inactive' : 'unknown';
    }
    st.active = true;
    const v = this.check(rule.when, st, f);
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
    if (c.op === 'always' || c.op === 'eventually') this.clearHistories(c.cond, st);
    else if (c.op === 'and' || c.op === 'or') c.args.forEach((a) => this.clearHistories(a, st));
    else if (c.op === 'not') this.clearHistories(c.arg, st);
  }

  private check(c: Condition, st: RuleState, f: Features): Verdict {
    switch (c.op) {
      case 'lt': case 'le': case 'gt': case 'ge': case 'eq': case 'ne':
        return compare(c.op, f[c.feature]!, c.value);
      case 'stagnant': {
        const h = this.history<number>(c, st);
        push(h, f[c.feature]!, c.window);
        if (h.some((x) => Number.isNaN(x))) return { state: 'unknown', margin: NaN };
        if (h.length < c.window) return { state: 'false', margin: Infinity };
        const m = Math.max(...h) - Math.min(...h) - c.eps;
        return { state: m < 0 ? 'true' : 'false', margin: m };
      }
      case 'rising': case 'falling': {
        const h = this.history<number>(c, st);
        push(h, f[c.feature]!, c.window + 1);
        const last = h[h.length - 1]!;
        if (Number.isNaN(last)) return { state: 'unknown', margin: NaN };
        if (h.length < c.window + 1) return { state: 'false', margin: Infinity };
        if (Number.isNaN(h[0]!)) return { state: 'unknown', margin: NaN };
        const m = (c.by ?? 0) - (c.op === 'rising' ? last - h[0]! : h[0]! - last);
        return { state: m < 0 ? 'true' : 'false', margin: m };
      }
      case 'always': case 'eventually': {
        const h = this.history<Verdict>(c, st);
        push(h, this.check(c.cond, st, f), c.window);
        return c.op === 'always' ? always(h, c.window) : eventually(h);
      }
      case 'and': case 'or':
        return combine(c.op, c.args.map((a) => this.check(a, st, f)));
      case 'not': {
        const v = this.check(c.arg, st, f);
        return v.state === 'unknown' ? v : { state: v.state === 'true' ? 'false' : 'true', margin: -v.margin };
      }
    }
  }

  private history<T>(c: Condition, st: RuleState): T[] {
    let h = st.histories.get(c);
    if (!h) st.histories.set(c, (h = []));
    return h as T[];
  }
}

function push<T>(h: T[], x: T, max: number): void {
  h.push(x);
  if (h.length > max) h.shift();
}

function compare(op: string, x: number, t: number): Verdict {
  if (Number.isNaN(x)) return { state: 'unknown', margin: NaN };
  switch (op) {
    case 'lt': return { state: x < t ? 'true' : 'false', margin: x - t };
    case 'le': return { state: x <= t ? 'true' : 'false', margin: x - t };
    case 'gt': return { state: x > t ? 'true' : 'false', margin: t - x };
    case 'ge': return { state: x >= t ? 'true' : 'false', margin: t - x };
    case 'eq': return { state: x === t ? 'true' : 'false', margin: Math.abs(x - t) };
    default: return { state: x !== t ? 'true' : 'false', margin: -Math.abs(x - t) };
  }
}

function combine(op: 'and' | 'or', parts: Verdict[]): Verdict {
  const known = parts.filter((p) => p.state !== 'unknown');
  const decisive = op === 'and' ? 'false' : 'true';
  if (known.length < parts.length && !known.some((p) => p.state === decisive)) return { state: 'unknown', margin: NaN };
  const margins = known.map((p) => p.margin);
  const margin = op === 'and' ? Math.max(-Infinity, ...margins) : Math.min(Infinity, ...margins);
  const holds = op === 'and' ? known.every((p) => p.state === 'true') : known.some((p) => p.state === 'true');
  return { state: holds ? 'true' : 'false', margin };
}

function always(h: Verdict[], window: number): Verdict {
  const known = h.filter((v) => v.state !== 'unknown');
  const m = Math.max(-Infinity, ...known.map((v) => v.margin));
  if (known.some((v) => v.state === 'false')) return { state: 'false', margin: m };
  if (known.length < h.length) return { state: 'unknown', margin: NaN };
  return h.length < window ? { state: 'false', margin: Infinity } : { state: 'true', margin: m };
}

function eventually(h: Verdict[]): Verdict {
  const known = h.filter((v) => v.state !== 'unknown');
  const m = Math.min(Infinity, ...known.map((v) => v.margin));
  if (known.some((v) => v.state === 'true')) return { state: 'true', margin: m };
  if (known.length < h.length) return { state: 'unknown', margin: NaN };
  return { state: 'false', margin: m };
}
