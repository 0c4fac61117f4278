// The lifecycle: pending → active | rejected, active → retired, nothing else.
import { describe, expect, it } from 'vitest';
import { SKILL_STATES, SkillInputError, allowedEdge, nextState, type SkillAction } from '../../skills/index.js';

describe('the skill lifecycle', () => {
  it('allows exactly its four edges', () => {
    const edges = [null, ...SKILL_STATES].flatMap((from) =>
      SKILL_STATES.filter((to) => allowedEdge(from, to)).map((to) => `${from}→${to}`),
    );
    expect(edges.sort()).toEqual(['active→retired', 'null→pending', 'pending→active', 'pending→rejected']);
  });

  it.each([
    ['approve', 'pending', 'active'],
    ['reject', 'pending', 'rejected'],
    ['retire', 'active', 'retired'],
  ] as const)('%s moves %s to %s', (action, from, to) => {
    expect(nextState('abc', from, action)).toBe(to);
  });

  it.each([
    ['approve', 'rejected'],
    ['approve', 'active'],
    ['approve', 'retired'],
    ['reject', 'active'],
    ['retire', 'pending'],
    ['retire', 'retired'],
  ] as const)('refuses to %s a %s skill, naming both', (action: SkillAction, from) => {
    expect(() => nextState('abc', from, action)).toThrow(SkillInputError);
    expect(() => nextState('abc', from, action)).toThrow(new RegExp(`cannot ${action} skill abc: it is ${from}`));
  });
});
