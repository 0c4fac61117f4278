// The skill page's rule text (console/web/src/components/rule-text.ts) words conditions exactly as
// the server's change lines do (console/server/changes-text.ts): both through the critic's one
// describer, so the two columns of one page never disagree.
import { describe, expect, it } from 'vitest';
import { condition } from '../../console/server/changes-text.js';
import { conditionText, ruleLines } from '../../console/web/src/components/rule-text.js';

const CONDITIONS: unknown[] = [
  { op: 'lt', feature: 'derived.net_motion', value: 0.026 },
  { op: 'stagnant', feature: 'robot.eef_z', window: 5, eps: 0.001 },
  { op: 'falling', feature: 'derived.gripper_width', window: 4, by: 0.002 },
  { op: 'eventually', window: 3, cond: { op: 'ge', feature: 'privileged.object_height', value: 0.05 } },
  {
    op: 'and',
    args: [
      { op: 'eq', feature: 'command.stalled', value: 1 },
      {
        op: 'or',
        args: [
          { op: 'not', arg: { op: 'rising', feature: 'robot.eef_z', window: 2 } },
          { op: 'always', window: 2, cond: { op: 'gt', feature: 'a', value: 1 } },
        ],
      },
    ],
  },
];

describe('the skill page’s rule text', () => {
  it.each(CONDITIONS)('words a condition as the server’s change lines do (%#)', (c) => {
    expect(conditionText(c)).toBe(condition(c));
  });

  it('writes a rule as its guard, trigger, timing and proposal lines', () => {
    const rule = {
      guards: [{ op: 'eq', feature: 'episode.in_recovery', value: 0 }],
      when: {
        op: 'and',
        args: [
          { op: 'lt', feature: 'derived.net_motion', value: 0.026 },
          { op: 'always', window: 3, cond: { op: 'eq', feature: 'command.stalled', value: 1 } },
        ],
      },
      dwell: 4,
      cooldown: 20,
      propose: { action: 'recovery', recovery: 'regrasp', priority: 5 },
    };
    expect(ruleLines(rule)).toEqual([
      'only while episode.in_recovery = 0',
      'when derived.net_motion < 0.026 and at every one of the last 3 steps: command.stalled = 1 for 4 steps → start recovery regrasp (priority 5)',
      'cooldown 20 steps',
    ]);
  });

  it('writes a condition of an unknown shape as JSON', () => {
    expect(conditionText({ op: 'warp', feature: 'a' })).toBe('{"op":"warp","feature":"a"}');
  });
});
