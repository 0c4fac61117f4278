// From scratch, a pair the governance stage saw never solved is run again, the policy alone, at the
// development seeds: in the simulator, with the embedded policy, 2 episodes a pair. A task it solves
// under an object change is not unsolved whatever the governance figure said; one it cannot solve under a
// position shift stays unsolved.
import { describe, expect, it } from 'vitest';
import type { GovernanceStageResult } from '../../experiments/run/governance-stage.js';
import { pairKey, unsolvedPairs } from '../../experiments/run/unsolved-probe.js';

const zero = { policy: { value: 0 } };
const solved = { policy: { value: 0.5 } };
const governance = {
  conditions: {
    'object-change': { seeds: [1000], perTask: { 'spatial/left_cube_in_bowl': zero, 'goal/press_button': solved } },
    'position-shift': { seeds: [1000], perTask: { 'long/press_button_then_green_on_plate': zero } },
  },
} as unknown as GovernanceStageResult;

describe('zetta run --from-scratch: which weak pairs the policy never solves', () => {
  it('probes only the pairs governance saw never solved, and keeps those the probe did not solve either', async () => {
    const lines: string[] = [];
    const unsolved = await unsolvedPairs(governance, { episodes: 2, workers: 1, envsPerWorker: 1, log: (l) => lines.push(l) });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^spatial\/left_cube_in_bowl under object-change: policy alone 0 of 1 in governance, [12] of 2 at development seeds$/,
    );
    expect(unsolved.has(pairKey({ task: 'spatial/left_cube_in_bowl', perturbation: 'object-change' }))).toBe(false);
    expect(lines[1]).toMatch(/0 of 2 at development seeds$/);
    expect([...unsolved]).toEqual([pairKey({ task: 'long/press_button_then_green_on_plate', perturbation: 'position-shift' })]);
  }, 120_000);
});
