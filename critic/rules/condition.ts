// Compiles a condition (data, already validated by zod) into a closure over feature slots. Feature
// names are resolved here, once; an unknown or unauthorized feature is an error naming its path.
// Rules, guards and recovery stop conditions all compile through this one function. Each op's
// closure comes from its definition (ops/); and/or/not closures are in kleene.ts.
import { CriticLoadError, type JsonPath } from '../errors.js';
import type { FeatureLayout } from '../features/layout.js';
import { opOf, type Condition } from './ops/index.js';
import type { TemporalNode } from './temporal.js';
import { compare, type CompiledCondition, type CompiledNode, type CondContext, type Leaf } from './truth.js';

export interface FeatureContext {
  readonly layout: FeatureLayout;
  readonly privileged: boolean;
}

/** Slot of a feature a condition or tool reads; throws a CriticLoadError naming `path`. */
export function resolveFeature(name: string, path: JsonPath, ctx: FeatureContext, file?: string): number {
  const layout = ctx.layout;
  const slot = layout.index(name);
  if (slot < 0) {
    throw new CriticLoadError(
      path,
      `unknown feature "${name}": the world "${layout.worldName}" has no such feature (nearest: ${layout.nearest(name).join(', ')})`,
      file,
    );
  }
  if (layout.isPrivileged(name) && !ctx.privileged) {
    throw new CriticLoadError(
      path,
      `privileged feature "${name}" (simulator ground truth of "${layout.worldName}") needs a bundle that declares "privileged": true and a run that authorizes it`,
      file,
    );
  }
  return slot;
}

export function compileCondition(cond: Condition, path: JsonPath, ctx: CondContext, file?: string): CompiledCondition {
  const resets: (() => void)[] = [];
  const node = compileNode(cond, path, ctx, resets, file);
  return { fn: node.fn, leaf: node.leaf, resets };
}

/** A condition's node, through its op's definition (ops/): the op says what to build, this supplies the engine. */
function compileNode(c: Condition, path: JsonPath, ctx: CondContext, resets: (() => void)[], file?: string): CompiledNode {
  return opOf(c).compile(c, {
    reg: ctx.reg,
    feature: (name) => resolveFeature(name, [...path, 'feature'], ctx, file),
    child: (sub, ...at) => compileNode(sub, [...path, ...at], ctx, resets, file),
    leaf: (leaf) => leafNode(leaf, ctx.reg),
    temporal: (node) => track(resets, node),
  });
}

function leafNode(leaf: Leaf, reg: Float64Array): CompiledNode {
  const { op, slot, t } = leaf;
  return { fn: (v) => compare(op, v[slot]!, t, reg), leaf };
}

function track(resets: (() => void)[], node: TemporalNode): CompiledNode {
  resets.push(node.reset);
  return { fn: node.fn, leaf: null };
}
