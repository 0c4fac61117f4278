// Samples the scene of one episode: nominal anchors plus a seeded jitter (the analogue of LIBERO's
// fixed initial states), then the perturbation's swap, shifts, object changes and distractors.
import { Rng } from '../math/rng.js';
import type { ObjectParams } from '../perturbation/sample.js';
import type { Perturbation } from '../perturbation/schema.js';
import { COLOURS, NOMINAL_FRICTION, NOMINAL_MASS, SIZES, type Colour } from './scene/objects.js';
import type { FixtureSpec, MovableSpec, Shape } from './scene/spec.js';
import type { TaskDef } from './tasks/types.js';
import { fits, fixtureFootprint, movableFootprint, WORKSPACE, type Footprint } from './footprint.js';

const JITTER = 0.025;
const FIXTURE_JITTER = 0.02;
const MAX_TRIES = 40;

interface Item {
  readonly name: string;
  readonly movable: boolean;
  /** Bowls and plates move under a position shift; cabinets and buttons stay where they are. */
  readonly shiftable: boolean;
  readonly fp: Footprint;
}

export interface Layout {
  readonly positions: ReadonlyMap<string, readonly [number, number]>;
  readonly yaws: ReadonlyMap<string, number>;
  readonly swapped: readonly [string, string] | null;
}

export function sampleLayout(task: TaskDef, seed: number, p: Perturbation, objects: Readonly<Record<string, ObjectParams>>): Layout {
  const rng = Rng.derive(task.id, seed, 'layout');
  const items = nominalItems(task, rng, objects);
  const yaws = new Map(task.movables.map((m) => [m.name, rng.uniform(-Math.PI / 4, Math.PI / 4)]));
  const pos = Rng.derive(task.id, seed, 'position');
  const swapped = p.position?.swap ? swapMain(task, items, pos) : null;
  const shift = p.position?.shift_m;
  if (shift !== undefined) for (let i = 0; i < items.length; i++) if (items[i]!.shiftable) shiftItem(items, i, shift, pos);
  return { positions: new Map(items.map((it) => [it.name, [it.fp.x, it.fp.y] as const])), yaws, swapped };
}

function nominalItems(task: TaskDef, rng: Rng, objects: Readonly<Record<string, ObjectParams>>): Item[] {
  const order = task.movables.map((_, i) => i);
  if (task.shuffleMovables) shuffle(order, rng);
  for (let attempt = 0; ; attempt++) {
    const items: Item[] = [];
    task.fixtures.forEach((f, k) => {
      const [ax, ay] = task.anchors[task.movables.length + k]!;
      const j = f.kind === 'cabinet' || f.kind === 'button' ? FIXTURE_JITTER / 2 : FIXTURE_JITTER;
      const shiftable = f.kind === 'bowl' || f.kind === 'plate';
      items.push({
        name: f.name,
        movable: false,
        shiftable,
        fp: fixtureFootprint(f.kind, ax + rng.uniform(-j, j), ay + rng.uniform(-j, j)),
      });
    });
    task.movables.forEach((m, k) => {
      const [ax, ay] = task.anchors[order[k]!]!;
      const half = SIZES[m.shape][m.size][0] * (objects[m.name]?.scale ?? 1);
      const fp = movableFootprint(ax + rng.uniform(-JITTER, JITTER), ay + rng.uniform(-JITTER, JITTER), half, m.shape === 'cube');
      items.push({ name: m.name, movable: true, shiftable: true, fp });
    });
    if (items.every((_, i) => fitsAmong(items, i)) || attempt >= MAX_TRIES) return items;
  }
}

/** LIBERO-Pro's position swap: the task's main object trades places with another item. */
function swapMain(task: TaskDef, items: Item[], rng: Rng): readonly [string, string] | null {
  const main = mainObject(task);
  const a = items.findIndex((it) => it.name === main);
  const candidates = items.map((_, i) => i).filter((i) => i !== a && items[i]!.shiftable);
  if (a < 0 || candidates.length === 0) return null;
  const b = rng.pick(candidates);
  const A = items[a]!.fp;
  const B = items[b]!.fp;
  [A.x, B.x, A.y, B.y] = [B.x, A.x, B.y, A.y];
  if (!fitsAmong(items, a) || !fitsAmong(items, b)) {
    // A big bowl where a small cube was may not fit: undo rather than produce an overlap.
    [A.x, B.x, A.y, B.y] = [B.x, A.x, B.y, A.y];
    return null;
  }
  return [items[a]!.name, items[b]!.name];
}

/** Moves item i by a sampled distance; tries other directions until it fits, else leaves it. */
function shiftItem(items: Item[], i: number, [lo, hi]: readonly [number, number], rng: Rng): void {
  const fp = items[i]!.fp;
  const distance = rng.uniform(lo, hi);
  const angle = rng.uniform(-Math.PI, Math.PI);
  const [x0, y0] = [fp.x, fp.y];
  for (let k = 0; k < 24; k++) {
    const a = angle + (k * 2 * Math.PI) / 24;
    fp.x = x0 + distance * Math.cos(a);
    fp.y = y0 + distance * Math.sin(a);
    if (fitsAmong(items, i)) return;
  }
  fp.x = x0;
  fp.y = y0;
}

function fitsAmong(items: readonly Item[], i: number): boolean {
  return fits(
    items[i]!.fp,
    items.map((it) => it.fp),
    i,
  );
}

export function mainObject(task: TaskDef): string | undefined {
  for (const s of task.stages) if (s.kind === 'place' || s.kind === 'lift') return s.object;
  return task.movables[0]?.name;
}

function shuffle(order: number[], rng: Rng): void {
  for (let i = order.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
}

/** The task's movables as scene specs, with the sampled layout and object parameters applied. */
export function movableSpecs(task: TaskDef, layout: Layout, objects: Readonly<Record<string, ObjectParams>>): MovableSpec[] {
  return task.movables.map((m) => {
    const [hw, hh] = SIZES[m.shape][m.size];
    const o = objects[m.name]!;
    const [x, y] = layout.positions.get(m.name)!;
    return {
      name: m.name,
      shape: m.shape,
      halfWidth: hw * o.scale,
      halfHeight: hh * o.scale,
      rgba: COLOURS[m.colour],
      mass: NOMINAL_MASS * o.mass,
      friction: o.friction ?? NOMINAL_FRICTION,
      x,
      y,
      yaw: layout.yaws.get(m.name)!,
    };
  });
}

export function fixtureSpecs(task: TaskDef, layout: Layout): FixtureSpec[] {
  return task.fixtures.map((f) => {
    const [x, y] = layout.positions.get(f.name)!;
    return { kind: f.kind, name: f.name, x, y };
  });
}

/** Extra objects the instruction does not mention, put where there is room. */
export function distractorSpecs(
  task: TaskDef,
  seed: number,
  count: number,
  taken: readonly MovableSpec[],
  fixtures: readonly FixtureSpec[],
): MovableSpec[] {
  const rng = Rng.derive(task.id, seed, 'distractors');
  const occupied: Footprint[] = [
    ...fixtures.map((f) => fixtureFootprint(f.kind, f.x, f.y)),
    ...taken.map((m) => movableFootprint(m.x, m.y, m.halfWidth, m.shape === 'cube')),
  ];
  const out: MovableSpec[] = [];
  const colours = Object.keys(COLOURS) as Colour[];
  for (let i = 0; i < count; i++) {
    const shape: Shape = rng.next() < 0.5 ? 'cube' : 'cylinder';
    const [hw, hh] = SIZES[shape].small;
    const colour = rng.pick(colours);
    const yaw = rng.uniform(-Math.PI / 4, Math.PI / 4);
    for (let k = 0; k < MAX_TRIES; k++) {
      const fp = movableFootprint(
        rng.uniform(WORKSPACE.xMin, WORKSPACE.xMax),
        rng.uniform(WORKSPACE.yMin, WORKSPACE.yMax),
        hw,
        shape === 'cube',
      );
      if (!fits(fp, occupied)) continue;
      occupied.push(fp);
      out.push({
        name: `distractor_${i + 1}`,
        shape,
        halfWidth: hw,
        halfHeight: hh,
        rgba: COLOURS[colour],
        mass: NOMINAL_MASS,
        friction: NOMINAL_FRICTION,
        x: fp.x,
        y: fp.y,
        yaw,
      });
      break;
    }
  }
  return out;
}
