// Assembles a whole MJCF model from a SceneSpec: table, gripper, the task's fixtures and movables,
// and nothing else (a scene holds only what its task needs, for speed).
import { el, serialize, type XmlNode } from '../mjcf/xml.js';
import { validateMjcf } from '../mjcf/validate.js';
import { bowlBody } from './bowl.js';
import { buttonBody, buttonExcludes } from './button.js';
import { cabinetBody, cabinetExcludes } from './cabinet.js';
import { IMPRATIO, TIMESTEP } from './contact.js';
import { gripperActuators, gripperBodies, gripperEqualities, gripperExcludes } from './gripper.js';
import { movableBody } from './objects.js';
import { plateBody } from './plate.js';
import { padSensors } from './sensors.js';
import type { FixtureSpec, SceneSpec } from './spec.js';
import { tableNodes } from './table.js';

export function sceneTree(spec: SceneSpec): XmlNode {
  const excludes = [...gripperExcludes(), ...spec.fixtures.flatMap(fixtureExcludes)];
  return el('mujoco', { model: 'zetta_tabletop' }, [
    el('compiler', { angle: 'radian', autolimits: true }),
    el('option', { timestep: TIMESTEP, impratio: IMPRATIO }),
    el('worldbody', {}, [
      ...tableNodes(),
      ...spec.fixtures.map(fixtureBody),
      ...spec.movables.map(movableBody),
      ...gripperBodies(spec.gripper.pos, spec.gripper.yaw),
    ]),
    el('contact', {}, excludes),
    el('equality', {}, gripperEqualities()),
    el('actuator', {}, gripperActuators()),
    el('sensor', {}, padSensors(spec.movables.map((m) => m.name))),
  ]);
}

/** The validated MJCF text of a scene. */
export function sceneXml(spec: SceneSpec): string {
  const tree = sceneTree(spec);
  validateMjcf(tree);
  return serialize(tree);
}

function fixtureBody(f: FixtureSpec): XmlNode {
  switch (f.kind) {
    case 'bowl':
      return bowlBody(f.name, f.x, f.y);
    case 'plate':
      return plateBody(f.name, f.x, f.y);
    case 'cabinet':
      return cabinetBody(f.name, f.x, f.y);
    case 'button':
      return buttonBody(f.name, f.x, f.y);
  }
}

function fixtureExcludes(f: FixtureSpec): XmlNode[] {
  if (f.kind === 'cabinet') return cabinetExcludes(f.name);
  if (f.kind === 'button') return buttonExcludes(f.name);
  return [];
}
