// A condition in words, one wording wherever a person reads a rule: the console's change lists on
// the server (console/server/changes-text.ts) and the skill page in the browser (console/web/src/
// components/rule-text.ts). Each op words itself (its definition's `describe`, ops/); this walks
// the tree. Free of node-only imports: the console's browser bundle imports this file.
import { isOp, opOf, type Condition } from './ops/index.js';

/**
 * `c` in words, e.g. `derived.net_motion < 0.026 and not (robot.eef_z rises by more than 0.02 over
 * 5 steps)`. Rules come from bundles on disk, perhaps of an older or malformed shape, so `c` is not
 * trusted: a node that is not a condition, or does not word itself, reads as `unknownShape(node)`.
 */
export function describeCondition(c: unknown, unknownShape: (node: unknown) => string = (node) => JSON.stringify(node)): string {
  const text = (node: unknown): string => {
    if (!looksLikeCondition(node)) return unknownShape(node);
    try {
      return opOf(node).describe(node, { text });
    } catch {
      return unknownShape(node); // e.g. an and/or whose args are not a list
    }
  };
  return text(c);
}

function looksLikeCondition(x: unknown): x is Condition {
  return typeof x === 'object' && x !== null && isOp((x as { op?: unknown }).op);
}
