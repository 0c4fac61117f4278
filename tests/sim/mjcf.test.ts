import { describe, expect, it } from 'vitest';
import { MjcfError } from '../../sim/errors.js';
import { validateMjcf } from '../../sim/tabletop/mjcf/validate.js';
import { el } from '../../sim/tabletop/mjcf/xml.js';
import { mujoco, compileModel } from '../../sim/tabletop/mujoco.js';
import { sceneTree, sceneXml } from '../../sim/tabletop/scene/model.js';
import { getTask, TASKS } from '../../sim/tabletop/tasks/catalog.js';
import { planEpisode } from '../../sim/tabletop/plan.js';
import { resolvePerturbation } from '../../sim/perturbation/builtin.js';

const box = (name: string, size: number[] = [0.1, 0.1, 0.1]) => el('geom', { name, type: 'box', size });
const model = (...world: ReturnType<typeof el>[]) => el('mujoco', {}, [el('worldbody', {}, world)]);

describe('MJCF validation', () => {
  it('accepts every generated scene, nominal and perturbed, and MuJoCo compiles them', async () => {
    const mj = await mujoco();
    const mix = resolvePerturbation('libero-pro-mix');
    for (const task of TASKS) {
      for (const p of [{}, mix]) {
        const xml = sceneXml(planEpisode(task, 1, p).scene);
        const m = compileModel(mj, xml);
        expect(m.nbody).toBeGreaterThan(3);
        m.delete();
      }
    }
  });

  it('names the element and attribute that is wrong', () => {
    expect(() => validateMjcf(model(box('a', [0.1, 0.1])))).toThrow(/geom\[name=a\] size: expected 3 numbers, got 2/);
    expect(() => validateMjcf(model(box('a', [0.1, Number.NaN, 0.1])))).toThrow(/not a finite number/);
    expect(() => validateMjcf(model(box('a', [0.1, -0.1, 0.1])))).toThrow(/sizes must be positive/);
    expect(() => validateMjcf(model(box('a'), box('a')))).toThrow(/duplicate geom name "a"/);
    expect(() => validateMjcf(model(el('teapot', {})))).toThrow(/<teapot> may not appear inside <worldbody>/);
    expect(() =>
      validateMjcf(el('mujoco', {}, [el('worldbody'), el('equality', {}, [el('weld', { body1: 'ghost', body2: 'ghost2' })])])),
    ).toThrow(/body1="ghost" names no body/);
    expect(() => validateMjcf(model(el('body', { name: 'b' }, [el('joint', { name: 'j', type: 'slide', axis: [0, 0, 0] })])))).toThrow(
      /axis is zero/,
    );
    expect(() =>
      validateMjcf(el('mujoco', {}, [el('worldbody'), el('equality', {}, [el('joint', { joint1: 'nope', joint2: 'nope' })])])),
    ).toThrow(/joint1="nope" names no joint/);
    expect(() =>
      validateMjcf(model(el('body', { name: 'b' }, [el('joint', { name: 'j', type: 'slide', axis: [0, 0, 1], range: [1, 0] })]))),
    ).toThrow(/lo < hi/);
  });

  it('throws MjcfError, not a bare mjXError', () => {
    const tree = sceneTree(planEpisode(getTask('goal/open_drawer'), 0, {}).scene);
    const broken = { ...tree, children: [...tree.children, el('sensor', {}, [el('contact', { name: 'x', geom1: 'no_such_geom' })])] };
    expect(() => validateMjcf(broken)).toThrow(MjcfError);
  });
});
