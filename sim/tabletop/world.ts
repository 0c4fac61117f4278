// Named access to the simulation state of one episode. Ids and addresses are resolved once at
// reset; the typed-array views into WebAssembly memory are re-fetched once per step (refresh),
// because a view held across a memory growth goes empty.
import type { MainModule, MjData, MjModel } from 'mujoco-js';
import { BUTTON, BUTTON_CAP, BUTTON_JOINT } from './scene/button.js';
import { DRAWER, DRAWER_JOINT } from './scene/cabinet.js';
import { GRIPPER_NAMES } from './scene/gripper.js';
import { PAD_SENSOR } from './scene/sensors.js';
import type { FixtureSpec, MovableSpec, SceneSpec } from './scene/spec.js';

export interface MovableRef {
  readonly spec: MovableSpec;
  readonly body: number;
  readonly qposAdr: number;
  readonly qvelAdr: number;
  readonly touchLeft: number;
  readonly touchRight: number;
}

export interface FixtureRef {
  readonly spec: FixtureSpec;
  readonly body: number;
  /** Drawer body (cabinet) or cap body (button); −1 otherwise. */
  readonly part: number;
  /** Drawer slide or button press joint qpos address; −1 otherwise. */
  readonly jointAdr: number;
  /** Its qvel address; −1 otherwise. */
  readonly jointDofAdr: number;
}

export class World {
  xpos!: Float64Array;
  xquat!: Float64Array;
  qpos!: Float64Array;
  qvel!: Float64Array;
  ctrl!: Float64Array;
  sensordata!: Float64Array;
  mocapPos!: Float64Array;
  mocapQuat!: Float64Array;

  readonly gripperBody: number;
  readonly gripperQposAdr: number;
  readonly gripperQvelAdr: number;
  readonly fingerAdr: readonly [number, number];
  readonly movables = new Map<string, MovableRef>();
  /** The same movables as a list, for per-step loops that should not allocate an iterator. */
  readonly movableList: MovableRef[] = [];
  readonly fixtures = new Map<string, FixtureRef>();
  /** Buttons that have been pressed this episode (a latch: the spring lifts the cap again). */
  readonly latchedButtons = new Set<string>();

  constructor(
    private readonly mj: MainModule,
    readonly model: MjModel,
    readonly data: MjData,
    readonly scene: SceneSpec,
  ) {
    this.gripperBody = this.id('body', GRIPPER_NAMES.body);
    this.gripperQposAdr = this.jointQpos('gripper_free');
    this.gripperQvelAdr = this.jointQvel('gripper_free');
    this.fingerAdr = [this.jointQpos(GRIPPER_NAMES.fingers[0]), this.jointQpos(GRIPPER_NAMES.fingers[1])];
    this.refresh();
    for (const m of scene.movables) this.movables.set(m.name, this.movableRef(m));
    this.movableList.push(...this.movables.values());
    for (const f of scene.fixtures) this.fixtures.set(f.name, this.fixtureRef(f));
  }

  refresh(): void {
    const d = this.data;
    this.xpos = d.xpos;
    this.xquat = d.xquat;
    this.qpos = d.qpos;
    this.qvel = d.qvel;
    this.ctrl = d.ctrl;
    this.sensordata = d.sensordata;
    this.mocapPos = d.mocap_pos;
    this.mocapQuat = d.mocap_quat;
  }

  movable(name: string): MovableRef {
    const m = this.movables.get(name);
    if (m === undefined) throw new Error(`scene has no movable "${name}"`);
    return m;
  }

  fixture(name: string): FixtureRef {
    const f = this.fixtures.get(name);
    if (f === undefined) throw new Error(`scene has no fixture "${name}"`);
    return f;
  }

  /** Both pads touch the movable: it is held. */
  grasped(m: MovableRef): boolean {
    return this.sensordata[m.touchLeft]! > 0 && this.sensordata[m.touchRight]! > 0;
  }

  padsTouching(m: MovableRef): number {
    return (this.sensordata[m.touchLeft]! > 0 ? 1 : 0) + (this.sensordata[m.touchRight]! > 0 ? 1 : 0);
  }

  /** Finger opening (m per finger, 0 closed … 0.04 open), the mean of the two coupled joints. */
  fingerOpening(): number {
    return (this.qpos[this.fingerAdr[0]]! + this.qpos[this.fingerAdr[1]]!) / 2;
  }

  /** Drawer opening (m) of a cabinet, or button depth (m, positive when pushed in). */
  jointTravel(f: FixtureRef): number {
    const q = this.qpos[f.jointAdr]!;
    return f.spec.kind === 'button' ? -q : q;
  }

  /** Latches buttons pushed past their press depth; called after every physics step batch. */
  updateLatches(): void {
    for (const f of this.fixtures.values()) {
      if (f.spec.kind === 'button' && this.jointTravel(f) >= BUTTON.pressDepth) this.latchedButtons.add(f.spec.name);
    }
  }

  private movableRef(m: MovableSpec): MovableRef {
    const sensor = (side: 0 | 1): number => this.model.sensor_adr[this.id('sensor', PAD_SENSOR(side, m.name))] as number;
    return {
      spec: m,
      body: this.id('body', m.name),
      qposAdr: this.jointQpos(m.name),
      qvelAdr: this.jointQvel(m.name),
      touchLeft: sensor(0),
      touchRight: sensor(1),
    };
  }

  private fixtureRef(f: FixtureSpec): FixtureRef {
    const body = this.id('body', f.name);
    const joint = f.kind === 'cabinet' ? DRAWER_JOINT(f.name) : f.kind === 'button' ? BUTTON_JOINT(f.name) : undefined;
    if (joint === undefined) return { spec: f, body, part: -1, jointAdr: -1, jointDofAdr: -1 };
    const part = this.id('body', f.kind === 'cabinet' ? DRAWER(f.name) : BUTTON_CAP(f.name));
    return { spec: f, body, part, jointAdr: this.jointQpos(joint), jointDofAdr: this.jointQvel(joint) };
  }

  private id(kind: 'body' | 'joint' | 'sensor', name: string): number {
    const objType = { body: this.mj.mjtObj.mjOBJ_BODY, joint: this.mj.mjtObj.mjOBJ_JOINT, sensor: this.mj.mjtObj.mjOBJ_SENSOR }[kind];
    const id = this.mj.mj_name2id(this.model, objType.value, name);
    if (id < 0) throw new Error(`compiled scene has no ${kind} "${name}"`);
    return id;
  }

  private jointQpos(name: string): number {
    return this.model.jnt_qposadr[this.id('joint', name)] as number;
  }

  private jointQvel(name: string): number {
    return this.model.jnt_dofadr[this.id('joint', name)] as number;
  }
}
