// Rules and recovery programs in words, for the change lists: a condition tree (critic/rules/
// schema.ts) as one readable line, a rule as "when … for N steps → recovery X (priority P)", a
// program as its numbered tool steps. Anything of an unknown shape falls back to compact JSON.
// Conditions are worded by the critic's describer, which the server's change lists use too; it
// imports nothing node-only, so it is bundled here as it is.
import { describeCondition } from '../../../../critic/rules/describe.js';

type Json = Record<string, unknown>;

function isObject(x: unknown): x is Json {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** A condition in the critic's one wording, the server's change lists' too. */
export function conditionText(c: unknown): string {
  return describeCondition(c);
}

export function proposalText(p: unknown): string {
  if (!isObject(p)) return JSON.stringify(p);
  const priority = p['priority'] !== undefined ? ` (priority ${String(p['priority'])})` : '';
  switch (p['action']) {
    case 'recovery':
      return `start recovery ${String(p['recovery'])}${priority}`;
    case 'clamp':
      return `slow the policy${p['axes'] === 'xy' ? "'s horizontal motion" : ''} to ×${String(p['scale'])}${priority}`;
    default:
      return `${String(p['action'])}${priority}`;
  }
}

/** A rule as lines: its trigger, guards, timing and proposal. */
export function ruleLines(rule: Json): string[] {
  const lines: string[] = [];
  if (typeof rule['description'] === 'string') lines.push(rule['description']);
  const guards = Array.isArray(rule['guards']) ? rule['guards'] : [];
  if (guards.length > 0) lines.push(`only while ${guards.map(conditionText).join(' and ')}`);
  const dwell = typeof rule['dwell'] === 'number' && rule['dwell'] > 1 ? ` for ${rule['dwell']} steps` : '';
  lines.push(`when ${conditionText(rule['when'])}${dwell} → ${proposalText(rule['propose'])}`);
  const extras: string[] = [];
  if (typeof rule['cooldown'] === 'number' && rule['cooldown'] > 0) extras.push(`cooldown ${rule['cooldown']} steps`);
  if (rule['safety'] === true) extras.push('safety rule');
  if (extras.length) lines.push(extras.join(', '));
  return lines;
}

function paramsText(params: unknown): string {
  if (!isObject(params)) return '';
  return Object.entries(params)
    .map(
      ([k, v]) =>
        `${k}=${
          isObject(v)
            ? `{${Object.entries(v)
                .map(([a, b]) => `${a}: ${String(b)}`)
                .join(', ')}}`
            : String(v)
        }`,
    )
    .join(', ');
}

/** One tool step in words: tool(params) until …, its budget and what happens when it runs out. */
function stepText(s: Json): string {
  const params = paramsText(s['params']);
  const until = s['until'] !== undefined ? ` until ${conditionText(s['until'])}` : '';
  const budget = s['budget'] !== undefined ? ` [≤ ${String(s['budget'])} steps${fallbackText(s['fallback'])}]` : '';
  return `${String(s['tool'])}${params ? `(${params})` : ''}${until}${budget}`;
}

/** A fallback is hold | abort | skip, or steps of its own (critic/recovery/schema.ts). */
function fallbackText(f: unknown): string {
  if (f === undefined) return '';
  if (typeof f === 'string') return `, else ${f}`;
  const steps = isObject(f) && Array.isArray(f['steps']) ? f['steps'].filter(isObject) : [];
  return steps.length ? `, else ${steps.map(stepText).join(' then ')}` : `, else ${JSON.stringify(f)}`;
}

/** A recovery program as lines: budget, re-entry, then each tool step. */
export function programLines(program: Json): string[] {
  const lines: string[] = [];
  if (typeof program['description'] === 'string') lines.push(program['description']);
  const head: string[] = [];
  if (program['budget'] !== undefined) head.push(`budget ${String(program['budget'])} steps`);
  if (isObject(program['reentry'])) head.push(`hands back when ${paramsText(program['reentry'])}`);
  if (typeof program['lag_steps'] === 'number') head.push(`compensates ${program['lag_steps']} steps of actuation lag`);
  if (program['lag_steps'] === 'measured') head.push('compensates the actuation lag the critic measures');
  if (head.length) lines.push(head.join('; '));
  const steps = Array.isArray(program['steps']) ? program['steps'] : [];
  steps.forEach((s, i) => {
    if (isObject(s)) lines.push(`${i + 1}. ${stepText(s)}`);
  });
  return lines;
}
