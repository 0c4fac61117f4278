// The Tool contract and the registry recovery programs name their tools from.
//
// A tool turns features into one action per step: `act(params, frame, out)` writes a 7-D normalized
// action into `out`. It reads only the frame (no simulator), keeps no state between steps, and
// allocates nothing. Its parameters are validated and its feature names resolved to slots once, at
// load time, by `prepare`, so `act` never looks a name up.
import type { z } from 'zod';
import { CriticLoadError, type JsonPath } from '../errors.js';
import type { FeatureFrame } from '../features/frame.js';

export type Tool<P> = (params: P, frame: FeatureFrame, out: Float32Array) => void;

/** What `prepare` may use: resolve a feature name to its slot (throws a load error naming `path`). */
export interface ToolPrepareContext {
  resolve(name: string, path: JsonPath): number;
  /** The file being loaded, for error messages. */
  readonly file?: string;
}

export interface ToolDef<P = unknown> {
  readonly name: string;
  /** One line for listings and error messages. */
  readonly summary: string;
  /** Validates raw params (`path` is where they are in the file) and resolves features to slots. */
  prepare(raw: Readonly<Record<string, unknown>>, path: JsonPath, ctx: ToolPrepareContext): P;
  readonly act: Tool<P>;
}

/** A tool with its prepared parameters, ready for the executor. */
export interface BoundTool {
  readonly name: string;
  run(frame: FeatureFrame, out: Float32Array): void;
}

export class ToolRegistry {
  private readonly tools = new Map<string, ToolDef<unknown>>();

  constructor(defs: Iterable<ToolDef<never>> = []) {
    for (const d of defs) this.register(d);
  }

  register<P>(def: ToolDef<P>): this {
    if (this.tools.has(def.name)) throw new Error(`tool "${def.name}" is already registered`);
    this.tools.set(def.name, def as unknown as ToolDef<unknown>);
    return this;
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  names(): string[] {
    return [...this.tools.keys()].sort();
  }

  /** Looks the tool up and prepares its params; unknown tools are errors naming `path`. */
  bind(name: string, raw: Readonly<Record<string, unknown>>, path: JsonPath, ctx: ToolPrepareContext): BoundTool {
    const def = this.tools.get(name);
    if (!def) throw new CriticLoadError([...path, 'tool'], `unknown tool "${name}" (known: ${this.names().join(', ')})`, ctx.file);
    const params = def.prepare(raw, [...path, 'params'], ctx);
    const act = def.act;
    return { name, run: (frame, out) => act(params, frame, out) };
  }
}

/** zod-parses tool params, turning the first issue into a load error at the right path. */
export function parseParams<T>(schema: z.ZodType<T>, raw: unknown, path: JsonPath, ctx: ToolPrepareContext): T {
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  throw new CriticLoadError([...path, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))], issue.message, ctx.file);
}
