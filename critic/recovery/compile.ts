// Loading recovery programs: parse (zod) → bind tools (params validated, features resolved) →
// compile stop conditions with the rule compiler. Errors name the path inside the file, e.g.
// `programs[1].steps[2].tool: unknown tool "grab"`.
import { readFileSync } from 'node:fs';
import { CriticLoadError, formatPath, assertNesting, fromZod, parseJsonText, type JsonPath } from '../errors.js';
import { compileCondition, resolveFeature } from '../rules/condition.js';
import type { FeatureLayout } from '../features/layout.js';
import type { CompiledCondition, CondContext } from '../rules/truth.js';
import { RecoveryFileSchema, type Fallback, type Program, type RecoveryFile, type Reentry, type ToolStep } from './schema.js';
import type { BoundTool, ToolPrepareContext, ToolRegistry } from './tool.js';
import { defaultTools } from './tools.js';

export const FALLBACK_HOLD = 0;
export const FALLBACK_ABORT = 1;
export const FALLBACK_SKIP = 2;
export const FALLBACK_STEPS = 3;

export interface CompiledStep {
  readonly tool: BoundTool;
  readonly until: CompiledCondition | null;
  readonly budget: number;
  readonly fallback: number;
  /** The fallback sequence, for FALLBACK_STEPS; empty otherwise. */
  readonly fallbackSteps: readonly CompiledStep[];
  /** Where it is in the file, e.g. `programs[0].steps[1]`, for logs. */
  readonly path: string;
}

export interface CompiledProgram {
  readonly id: string;
  readonly budget: number;
  readonly steps: readonly CompiledStep[];
  readonly reentry: Reentry;
  readonly onExhausted: 'resume' | 'abort';
  /** A fixed lag, or the critic's online measurement each tick. */
  readonly lagSteps: number | 'measured';
  readonly source: Program;
}

export interface RecoveryLoadOptions {
  /** The frame layout of the world the programs will run in. */
  readonly layout: FeatureLayout;
  /** Privileged features may be read (for stop conditions and point-seeking tools). */
  readonly privileged: boolean;
  /** Tools programs may name (default: `defaultTools()`). */
  readonly tools?: ToolRegistry;
  readonly file?: string;
}

export class RecoveryLibrary {
  private readonly byId: ReadonlyMap<string, CompiledProgram>;

  constructor(
    readonly programs: readonly CompiledProgram[],
    readonly source: RecoveryFile,
  ) {
    this.byId = new Map(programs.map((p) => [p.id, p]));
  }

  /** Program ids: pass these as `knownRecoveries` when loading rules. */
  get ids(): string[] {
    return this.programs.map((p) => p.id);
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  get(id: string): CompiledProgram {
    const p = this.byId.get(id);
    if (!p) throw new Error(`no recovery program "${id}"`);
    return p;
  }
}

export function loadRecoveries(json: unknown, options: RecoveryLoadOptions): RecoveryLibrary {
  assertNesting(json, options.file);
  const parsed = RecoveryFileSchema.safeParse(json);
  if (!parsed.success) throw fromZod(parsed.error, options.file);
  return compileRecoveries(parsed.data, options);
}

export function loadRecoveriesText(text: string, options: RecoveryLoadOptions): RecoveryLibrary {
  return loadRecoveries(parseJsonText(text, options.file), options);
}

export function loadRecoveriesFile(path: string, options: Omit<RecoveryLoadOptions, 'file'>): RecoveryLibrary {
  return loadRecoveriesText(readFileSync(path, 'utf8'), { ...options, file: path });
}

export function compileRecoveries(file: RecoveryFile, options: RecoveryLoadOptions): RecoveryLibrary {
  const tools = options.tools ?? defaultTools();
  const cond: CondContext = { reg: new Float64Array(1), layout: options.layout, privileged: options.privileged };
  const prep: ToolPrepareContext = {
    resolve: (name, path) => resolveFeature(name, path, options, options.file),
    ...(options.file === undefined ? {} : { file: options.file }),
  };
  const seen = new Set<string>();
  const programs = file.programs.map((p, i): CompiledProgram => {
    if (seen.has(p.id)) throw new CriticLoadError(['programs', i, 'id'], `duplicate program id "${p.id}"`, options.file);
    seen.add(p.id);
    const steps = compileSteps(p.steps, ['programs', i, 'steps'], { tools, cond, prep, file: options.file });
    return { id: p.id, budget: p.budget, steps, reentry: p.reentry, onExhausted: p.on_exhausted, lagSteps: p.lag_steps, source: p };
  });
  return new RecoveryLibrary(programs, file);
}

interface StepContext {
  readonly tools: ToolRegistry;
  readonly cond: CondContext;
  readonly prep: ToolPrepareContext;
  readonly file: string | undefined;
}

function compileSteps(steps: readonly ToolStep[], path: JsonPath, ctx: StepContext): CompiledStep[] {
  return steps.map((s, j) => {
    const at: JsonPath = [...path, j];
    const tool = ctx.tools.bind(s.tool, s.params, at, ctx.prep);
    const until = s.until === undefined ? null : compileCondition(s.until, [...at, 'until'], ctx.cond, ctx.file);
    const [fallback, fallbackSteps] = compileFallback(s.fallback, [...at, 'fallback'], ctx);
    return { tool, until, budget: s.budget, fallback, fallbackSteps, path: formatPath(at) };
  });
}

function compileFallback(f: Fallback, path: JsonPath, ctx: StepContext): [number, CompiledStep[]] {
  if (f === 'hold') return [FALLBACK_HOLD, []];
  if (f === 'abort') return [FALLBACK_ABORT, []];
  if (f === 'skip') return [FALLBACK_SKIP, []];
  return [FALLBACK_STEPS, compileSteps(f.steps, [...path, 'steps'], ctx)];
}
