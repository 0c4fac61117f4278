// Loading a rule file: parse (zod) → resolve names (features, recovery ids) → compile to closures.
// Every failure is a CriticLoadError naming the path inside the file. Nothing is left to run time.
import { readFileSync } from 'node:fs';
import { CriticLoadError, assertNesting, fromZod, parseJsonText } from '../errors.js';
import { compileCondition } from './condition.js';
import { CompiledRule } from './compiled-rule.js';
import type { Proposal } from './proposal.js';
import { RuleFileSchema, type RuleFile, type RuleSpec } from './schema.js';
import { compileTable, type RuleTable } from './table.js';
import type { FeatureLayout } from '../features/layout.js';

export interface RuleLoadOptions {
  /** The frame layout of the world the rules will run in. */
  readonly layout: FeatureLayout;
  /** Privileged features may be read (bundle and run agree); a rule reading one otherwise is rejected. */
  readonly privileged: boolean;
  /** Recovery program ids a proposal may name (the loaded recovery library's ids). */
  readonly knownRecoveries: Iterable<string>;
  /** Named in error messages. */
  readonly file?: string;
}

/**
 * A compiled set of rules. Temporal state lives in the set (its table and its rules), so one set
 * serves one critic at a time; see TemporalCritic.
 */
export class RuleSet {
  private readonly byId: ReadonlyMap<string, number>;
  /** The set as typed-array tables, evaluated kind by kind (rules of other shapes: their closures). */
  readonly table: RuleTable;

  constructor(
    readonly rules: readonly CompiledRule[],
    /** The validated source, defaults applied (for recording, hashing, shadow replay). */
    readonly source: RuleFile,
    /** The layout the rules' slots index. */
    readonly layout: FeatureLayout,
  ) {
    this.byId = new Map(rules.map((r) => [r.id, r.index]));
    this.table = compileTable(source, rules, layout);
  }

  get size(): number {
    return this.rules.length;
  }

  /** Index of a rule by id, or −1. */
  indexOf(id: string): number {
    return this.byId.get(id) ?? -1;
  }
}

/** Validates and compiles a rule file's parsed JSON. */
export function loadRules(json: unknown, options: RuleLoadOptions): RuleSet {
  assertNesting(json, options.file);
  const parsed = RuleFileSchema.safeParse(json);
  if (!parsed.success) throw fromZod(parsed.error, options.file);
  return compileRules(parsed.data, options);
}

export function loadRulesText(text: string, options: RuleLoadOptions): RuleSet {
  return loadRules(parseJsonText(text, options.file), options);
}

export function loadRulesFile(path: string, options: Omit<RuleLoadOptions, 'file'>): RuleSet {
  return loadRulesText(readFileSync(path, 'utf8'), { ...options, file: path });
}

export function compileRules(file: RuleFile, options: RuleLoadOptions): RuleSet {
  const known = new Set(options.knownRecoveries);
  // One margin register for the whole set: rules are evaluated one after another, synchronously.
  const ctx = { reg: new Float64Array(1), layout: options.layout, privileged: options.privileged };
  const seen = new Set<string>();
  const rules = file.rules.map((spec, i) => {
    if (seen.has(spec.id)) throw new CriticLoadError(['rules', i, 'id'], `duplicate rule id "${spec.id}"`, options.file);
    seen.add(spec.id);
    const proposal = makeProposal(spec, i, known, options.file);
    const guards = spec.guards.map((g, k) => compileCondition(g, ['rules', i, 'guards', k], ctx, options.file));
    const when = compileCondition(spec.when, ['rules', i, 'when'], ctx, options.file);
    return new CompiledRule(i, spec.id, proposal, spec.dwell, spec.cooldown, guards, when, ctx.reg);
  });
  return new RuleSet(rules, file, options.layout);
}

function makeProposal(spec: RuleSpec, index: number, known: ReadonlySet<string>, file?: string): Proposal {
  const p = spec.propose;
  if (p.action === 'recovery' && !known.has(p.recovery)) {
    const list = [...known].sort().join(', ') || 'none loaded';
    throw new CriticLoadError(['rules', index, 'propose', 'recovery'], `unknown recovery "${p.recovery}" (known: ${list})`, file);
  }
  return Object.freeze({
    ruleId: spec.id,
    ruleIndex: index,
    action: p.action,
    recovery: p.action === 'recovery' ? p.recovery : null,
    priority: p.priority,
    safety: spec.safety,
    scale: p.action === 'clamp' ? p.scale : 1,
    axes: p.action === 'clamp' ? p.axes : 'all',
    evidence: Object.freeze([...spec.evidence]),
  });
}
