import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CriticLoadError } from '../../critic/errors.js';
import { loadRules, loadRulesFile, loadRulesText } from '../../critic/rules/compile.js';
import { RECOVERIES } from './helpers.js';
import { TABLETOP_LAYOUT } from '../support/tabletop.js';

const ok = { id: 'ok', when: { op: 'lt', feature: 'robot.eef_z', value: 0.1 }, propose: { action: 'hold' } };
const opts = { layout: TABLETOP_LAYOUT, privileged: true, knownRecoveries: RECOVERIES };

function loadError(json: unknown, o: Partial<typeof opts> = {}): CriticLoadError {
  try {
    loadRules(json, { ...opts, ...o });
  } catch (err) {
    expect(err).toBeInstanceOf(CriticLoadError);
    return err as CriticLoadError;
  }
  throw new Error('expected a load error');
}

describe('loading rules: errors name the path inside the file', () => {
  it('an unknown feature, deep in a condition', () => {
    const e = loadError({
      rules: [ok, ok, ok]
        .map((r, i) => ({ ...r, id: `r${i}` }))
        .concat({
          id: 'bad',
          when: {
            op: 'and',
            args: [
              { op: 'gt', feature: 'robot.eef_x', value: 0 },
              { op: 'always', window: 3, cond: { op: 'lt', feature: 'robot.eef_zz', value: 1 } },
            ],
          },
          propose: { action: 'hold' },
        } as never),
    });
    expect(e.message).toBe(
      'rules[3].when.args[1].cond.feature: unknown feature "robot.eef_zz": the world "tabletop" has no such feature (nearest: robot.eef_rz, robot.eef_z, robot.eef_rx)',
    );
  });

  it('an unknown feature in a guard', () => {
    expect(loadError({ rules: [{ ...ok, guards: [{ op: 'eq', feature: 'episode.nope', value: 1 }] }] }).message).toBe(
      'rules[0].guards[0].feature: unknown feature "episode.nope": the world "tabletop" has no such feature (nearest: episode.step, episode.in_recovery, episode.recoveries)',
    );
  });

  it('a privileged feature the run does not authorize', () => {
    const rule = { ...ok, when: { op: 'eq', feature: 'privileged.grasped', value: 0 } };
    expect(loadError({ rules: [rule] }, { layout: TABLETOP_LAYOUT, privileged: false }).message).toBe(
      'rules[0].when.feature: privileged feature "privileged.grasped" (simulator ground truth of "tabletop") needs a bundle that declares "privileged": true and a run that authorizes it',
    );
    expect(() => loadRules({ rules: [rule] }, opts)).not.toThrow();
  });

  it('an unknown recovery id', () => {
    const e = loadError({ rules: [{ ...ok, propose: { action: 'recovery', recovery: 'teleport' } }] });
    expect(e.path).toBe('rules[0].propose.recovery');
    expect(e.message).toContain('unknown recovery "teleport" (known: lift_clear, regrasp, reopen)');
  });

  it('malformed rules: a bad op, a missing field, an extra key, a bad window, a duplicate id', () => {
    expect(loadError({ rules: [{ ...ok, when: { op: 'between', feature: 'robot.eef_z' } }] }).path).toBe('rules[0].when.op');
    expect(loadError({ rules: [{ ...ok, when: { op: 'lt', feature: 'robot.eef_z' } }] }).path).toBe('rules[0].when.value');
    expect(loadError({ rules: [{ ...ok, threshhold: 1 }] }).message).toMatch(/^rules\[0\]: Unrecognized key: "threshhold"/);
    expect(loadError({ rules: [{ ...ok, when: { op: 'stagnant', feature: 'robot.eef_z', window: 0, eps: 0.1 } }] }).path).toBe(
      'rules[0].when.window',
    );
    expect(loadError({ rules: [{ ...ok, dwell: 0 }] }).path).toBe('rules[0].dwell');
    expect(loadError({ rules: [ok, ok] }).message).toBe('rules[1].id: duplicate rule id "ok"');
    expect(loadError({ rules: [{ ...ok, propose: { action: 'clamp', scale: 2 } }] }).path).toBe('rules[0].propose.scale');
    expect(loadError({ rules: [{ ...ok, propose: { action: 'clamp', scale: 0.5, axes: 'z' } }] }).path).toBe('rules[0].propose.axes');
    expect(loadError({ ruls: [] }).path).toBe('rules'); // required, missing
  });

  it('bad JSON text and files are named', () => {
    expect(() => loadRulesText('{"rules": [', { ...opts, file: 'x.json' })).toThrow(/^x\.json: \(root\): not valid JSON/);
    const dir = mkdtempSync(join(tmpdir(), 'zetta-rules-'));
    const file = join(dir, 'rules.json');
    writeFileSync(file, JSON.stringify({ rules: [{ ...ok, when: { op: 'gt', feature: 'derived.speed', value: 1 } }] }));
    expect(() => loadRulesFile(file, opts)).toThrow(
      `${file}: rules[0].when.feature: unknown feature "derived.speed": the world "tabletop"`,
    );
  });

  it('defaults are applied and the source kept', () => {
    const set = loadRules({ rules: [ok] }, opts);
    expect(set.source.rules[0]).toMatchObject({ dwell: 1, cooldown: 0, safety: false, evidence: [], guards: [] });
    expect(set.indexOf('ok')).toBe(0);
    expect(set.indexOf('nope')).toBe(-1);
  });
});
