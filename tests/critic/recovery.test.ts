import { describe, expect, it } from 'vitest';
import { CriticLoadError } from '../../critic/errors.js';
import { loadRecoveries, type RecoveryLoadOptions } from '../../critic/recovery/compile.js';
import { RECOVERY_ABORT, RECOVERY_ACTING, RECOVERY_REENTER, RecoveryExecutor, type RecoveryTick } from '../../critic/recovery/executor.js';
import type { RecoveryFileInput } from '../../critic/recovery/schema.js';
import { frameOf } from './helpers.js';
import { ToyWorld } from './toy-world.js';
import { TABLETOP_LAYOUT } from '../support/tabletop.js';

const opts: RecoveryLoadOptions = { layout: TABLETOP_LAYOUT, privileged: true };

function loadError(json: unknown, o: Partial<RecoveryLoadOptions> = {}): string {
  try {
    loadRecoveries(json, { ...opts, ...o });
  } catch (err) {
    expect(err).toBeInstanceOf(CriticLoadError);
    return (err as Error).message;
  }
  throw new Error('expected a load error');
}

const REGRASP: RecoveryFileInput = {
  programs: [
    {
      id: 'regrasp',
      budget: 120,
      steps: [
        { tool: 'open_gripper', budget: 6, until: { op: 'ge', feature: 'derived.gripper_width', value: 0.075 } },
        {
          tool: 'move_above',
          params: { point: 'object', height: 0.06 },
          budget: 40,
          until: { op: 'lt', feature: 'privileged.object_eef_dist', value: 0.065 },
        },
        {
          tool: 'descend',
          params: { point: 'object' },
          budget: 30,
          until: { op: 'lt', feature: 'privileged.object_eef_dist', value: 0.005 },
        },
        {
          tool: 'close_gripper',
          budget: 10,
          until: { op: 'eq', feature: 'privileged.grasped', value: 1 },
          fallback: { steps: [{ tool: 'retreat', budget: 5 }] },
        },
        { tool: 'lift', params: { to_z: 0.15 }, budget: 30, until: { op: 'ge', feature: 'robot.eef_z', value: 0.149 } },
      ],
    },
  ],
};

/** Runs a program in the toy world until it ends; returns the final code and the tick count. */
function runInWorld(w: ToyWorld, ex: RecoveryExecutor, id: string, evidenceClear: () => boolean): [RecoveryTick, number] {
  const out = new Float32Array(7);
  ex.start(id);
  for (let n = 0; ; n++) {
    const code = ex.tick(w.frame(), evidenceClear(), out);
    if (code !== RECOVERY_ACTING) return [code, n];
    w.step(out);
  }
}

describe('loading recovery programs', () => {
  const step = (tool: string, extra: object = {}) => ({ tool, budget: 5, ...extra });

  it('an unknown tool names its path, nested fallbacks included', () => {
    expect(
      loadError({
        programs: [
          { id: 'a', budget: 9, steps: [step('hold')] },
          { id: 'b', budget: 9, steps: [step('hold'), step('hold'), step('grab')] },
        ],
      }),
    ).toMatch(/^programs\[1\]\.steps\[2\]\.tool: unknown tool "grab" \(known: close_gripper, descend, hold, /);
    expect(
      loadError({ programs: [{ id: 'a', budget: 9, steps: [step('hold', { fallback: { steps: [step('hold'), step('yank')] } })] }] }),
    ).toMatch(/^programs\[0\]\.steps\[0\]\.fallback\.steps\[1\]\.tool: unknown tool "yank"/);
  });

  it('bad tool params, unknown or unauthorized features, and malformed programs name their paths', () => {
    expect(loadError({ programs: [{ id: 'a', budget: 9, steps: [step('lift', { params: { speed: 3 } })] }] })).toMatch(
      /^programs\[0\]\.steps\[0\]\.params\.speed: /,
    );
    expect(loadError({ programs: [{ id: 'a', budget: 9, steps: [step('hold', { params: { x: 1 } })] }] })).toMatch(
      /^programs\[0\]\.steps\[0\]\.params: Unrecognized key/,
    );
    expect(
      loadError({
        programs: [
          {
            id: 'a',
            budget: 9,
            steps: [step('move_above', { params: { point: { x: 'robot.eef_x', y: 'robot.eef_y', z: 'privileged.lid_z' } } })],
          },
        ],
      }),
    ).toBe(
      'programs[0].steps[0].params.point: unknown feature "privileged.lid_z": the world "tabletop" has no such feature (nearest: privileged.handle_z, privileged.stage, privileged.handle_x)',
    );
    expect(
      loadError(
        { programs: [{ id: 'a', budget: 9, steps: [step('move_above', { params: { point: 'object' } })] }] },
        { layout: TABLETOP_LAYOUT, privileged: false },
      ),
    ).toBe(
      'programs[0].steps[0].params.point: privileged feature "privileged.object_x" (simulator ground truth of "tabletop") needs a bundle that declares "privileged": true and a run that authorizes it',
    );
    expect(
      loadError({ programs: [{ id: 'a', budget: 9, steps: [step('hold', { until: { op: 'lt', feature: 'robot.z', value: 1 } })] }] }),
    ).toBe(
      'programs[0].steps[0].until.feature: unknown feature "robot.z": the world "tabletop" has no such feature (nearest: robot.eef_z, robot.eef_rz, robot.eef_x)',
    );
    expect(loadError({ programs: [{ id: 'a', budget: 0, steps: [step('hold')] }] })).toMatch(/^programs\[0\]\.budget: /);
    expect(loadError({ programs: [{ id: 'a', budget: 9, steps: [] }] })).toMatch(/^programs\[0\]\.steps: /);
    expect(loadError({ programs: [{ id: 'a', budget: 9, steps: [step('hold', { fallback: 'retry' })] }] })).toMatch(
      /^programs\[0\]\.steps\[0\]\.fallback/,
    );
    expect(
      loadError({
        programs: [
          { id: 'a', budget: 9, steps: [step('hold')] },
          { id: 'a', budget: 9, steps: [step('hold')] },
        ],
      }),
    ).toBe('programs[1].id: duplicate program id "a"');
  });
});

describe('RecoveryExecutor', () => {
  it('drives a regrasp through the tools in a toy world, then re-enters', () => {
    const w = new ToyWorld();
    const ex = new RecoveryExecutor(loadRecoveries(REGRASP, opts));
    const [code, ticks] = runInWorld(w, ex, 'regrasp', () => w.grasped);
    expect(code).toBe(RECOVERY_REENTER);
    expect(ex.outcome).toBe('resumed');
    expect(ex.failedSteps).toBe(0);
    expect(w.grasped).toBe(true);
    expect(w.eef[2]).toBeGreaterThan(0.14);
    expect(ticks).toBeLessThanOrEqual(120);
    expect(ex.running).toBe(false);
  });

  it('runs the fallback sequence when a verification fails, then re-enters (not the rest of the program)', () => {
    const w = new ToyWorld();
    w.objectWidth = 0; // nothing to grip: the pads close on air, the grasp never verifies
    const ex = new RecoveryExecutor(loadRecoveries(REGRASP, opts));
    const z0 = w.eef[2]!;
    const [code] = runInWorld(w, ex, 'regrasp', () => true);
    expect(code).toBe(RECOVERY_REENTER);
    expect(ex.failedSteps).toBe(1);
    expect(w.q).toBeCloseTo(0.04); // retreat opened the gripper
    expect(w.eef[2]).toBeLessThan(z0); // the lift step did not run
  });

  const one = (fallback: unknown, extra: object = {}) =>
    new RecoveryExecutor(
      loadRecoveries(
        {
          programs: [
            {
              id: 'p',
              budget: 20,
              reentry: { stable_steps: 2 },
              steps: [
                { tool: 'hold', budget: 2, until: { op: 'gt', feature: 'robot.eef_z', value: 1 }, fallback },
                { tool: 'close_gripper', budget: 3 },
              ],
              ...extra,
            },
          ],
        },
        opts,
      ),
    );
  const still = frameOf({ 'robot.eef_z': 0.2, 'derived.eef_speed': 0, 'derived.gripper_width_rate': 0, 'command.prev_gripper': -1 });
  const codes = (ex: RecoveryExecutor, n: number, clear: (i: number) => boolean = () => true) => {
    const out = new Float32Array(7);
    ex.start('p');
    return Array.from({ length: n }, (_, i) => [ex.tick(still, clear(i), out), out[6]]);
  };
  const A = RECOVERY_ACTING,
    R = RECOVERY_REENTER,
    X = RECOVERY_ABORT;

  it("fallback 'skip' goes on with the next step; re-entry waits for k stable steps", () => {
    // hold ×2, close ×3, then re-entry: stable count is already ≥ 2, evidence clear → re-enter.
    expect(codes(one('skip'), 7).map(([c]) => c)).toEqual([A, A, A, A, A, R, R]);
  });

  it("fallback 'hold' goes straight to re-entry, which holds until the evidence clears", () => {
    const rows = codes(one('hold'), 6, (i) => i >= 4);
    expect(rows.map(([c]) => c)).toEqual([A, A, A, A, R, R]);
    expect(rows[3]![1]).toBe(-1); // holding keeps the gripper as last executed
  });

  it("fallback 'abort' ends with RECOVERY_ABORT", () => {
    const ex = one('abort');
    expect(codes(ex, 4).map(([c]) => c)).toEqual([A, A, X, X]);
    expect(ex.outcome).toBe('aborted');
  });

  it('the total budget ends the program: resume or abort as the program says', () => {
    const never = () => false;
    const resume = one('hold', { budget: 4 });
    expect(codes(resume, 6, never).map(([c]) => c)).toEqual([A, A, A, A, R, R]);
    expect(resume.outcome).toBe('exhausted');
    const abort = one('hold', { budget: 3, on_exhausted: 'abort' });
    expect(codes(abort, 4, never).map(([c]) => c)).toEqual([A, A, A, X]);
  });

  it('cancel() stops it; start() switches programs from the first step', () => {
    const ex = one('hold');
    codes(ex, 1);
    expect(ex.runningId).toBe('p');
    ex.cancel();
    expect(ex.running).toBe(false);
    expect(ex.outcome).toBe('cancelled');
    expect(() => ex.start('nope')).toThrow('no recovery program "nope"');
  });
});
