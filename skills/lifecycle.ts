// A skill's lifecycle: promoted skills wait as `pending` until an approver makes them `active` or
// `rejected`; an active skill can later be `retired`. Nothing else: a rejected or retired skill
// stays so (a new campaign makes a new version instead), which keeps the audit log easy to read.
import { SkillInputError } from './errors.js';

export const SKILL_STATES = ['pending', 'active', 'rejected', 'retired'] as const;
export type SkillState = (typeof SKILL_STATES)[number];

/** The verb that moves a skill, as the CLI names it. */
export type SkillAction = 'approve' | 'reject' | 'retire';

const MOVES: Readonly<Record<SkillAction, { from: SkillState; to: SkillState }>> = {
  approve: { from: 'pending', to: 'active' },
  reject: { from: 'pending', to: 'rejected' },
  retire: { from: 'active', to: 'retired' },
};

export function isSkillState(s: string): s is SkillState {
  return (SKILL_STATES as readonly string[]).includes(s);
}

/** The state `action` leads to from `from`; a forbidden move is an input error naming both. */
export function nextState(id: string, from: SkillState, action: SkillAction): SkillState {
  const move = MOVES[action];
  if (move.from !== from) {
    throw new SkillInputError(
      `cannot ${action} skill ${id}: it is ${from}, and only ${article(move.from)} ${move.from} skill can be ${pastTense(action)}`,
    );
  }
  return move.to;
}

/** Every allowed edge of the lifecycle (creation has no from-state). */
export function allowedEdge(from: SkillState | null, to: SkillState): boolean {
  if (from === null) return to === 'pending';
  return Object.values(MOVES).some((m) => m.from === from && m.to === to);
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}

function pastTense(action: SkillAction): string {
  return action === 'approve' ? 'approved' : action === 'reject' ? 'rejected' : 'retired';
}
