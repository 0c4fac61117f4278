// Validation of generated MJCF against the subset of the language the scene builders use.
// mujoco-js turns every XML error into a bare `mjXError` with no text, so this is where a broken
// scene gets its sentence: which element, which attribute, what was wrong.
import { MjcfError } from '../../errors.js';
import type { AttrValue, XmlNode } from './xml.js';

/** Which children each element may have; an element not listed here is not allowed at all. */
const CHILDREN: Record<string, readonly string[]> = {
  mujoco: ['compiler', 'option', 'default', 'visual', 'worldbody', 'actuator', 'equality', 'sensor', 'contact'],
  compiler: [],
  option: ['flag'],
  flag: [],
  visual: [],
  default: ['geom', 'joint'],
  worldbody: ['body', 'geom', 'light', 'site'],
  body: ['body', 'geom', 'joint', 'freejoint', 'site', 'inertial'],
  geom: [],
  joint: [],
  freejoint: [],
  site: [],
  inertial: [],
  light: [],
  actuator: ['position'],
  position: [],
  equality: ['weld', 'joint'],
  weld: [],
  sensor: ['contact'],
  contact: ['exclude'],
  exclude: [],
};

/** Numeric attributes and how many numbers each takes (a list means any of these counts). */
const ARITY: Record<string, readonly number[]> = {
  pos: [3],
  quat: [4],
  euler: [3],
  axis: [3],
  rgba: [4],
  friction: [1, 2, 3],
  solref: [2],
  solimp: [3, 5],
  range: [2],
  ctrlrange: [2],
  forcerange: [2],
  polycoef: [5],
  gravity: [3],
  fromto: [6],
  dir: [3],
  diffuse: [3],
  mass: [1],
  timestep: [1],
  impratio: [1],
  kp: [1],
  dampratio: [1],
  damping: [1],
  stiffness: [1],
  springref: [1],
  frictionloss: [1],
  armature: [1],
  condim: [1],
  gravcomp: [1],
  iterations: [1],
  num: [1],
  contype: [1],
  conaffinity: [1],
  priority: [1],
  margin: [1],
  gap: [1],
};

const GEOM_SIZE_ARITY: Record<string, readonly number[]> = {
  box: [3],
  sphere: [1],
  cylinder: [2],
  capsule: [1, 2],
  plane: [3],
  ellipsoid: [3],
};

/** name attribute → namespace; references → the namespace they must resolve in. */
const NAMESPACE: Record<string, string> = {
  body: 'body',
  geom: 'geom',
  joint: 'joint',
  freejoint: 'joint',
  site: 'site',
  position: 'actuator',
  weld: 'equality',
  contact: 'sensor',
};
const REFERENCES: Record<string, Record<string, string>> = {
  weld: { body1: 'body', body2: 'body' },
  'equality-joint': { joint1: 'joint', joint2: 'joint' },
  position: { joint: 'joint' },
  contact: { geom1: 'geom', geom2: 'geom', body1: 'body', body2: 'body', subtree1: 'body', subtree2: 'body' },
  exclude: { body1: 'body', body2: 'body' },
};

interface Ctx {
  readonly names: Map<string, Set<string>>;
  readonly refs: Array<{ where: string; attr: string; ns: string; target: string }>;
}

export function validateMjcf(root: XmlNode): void {
  if (root.tag !== 'mujoco') throw new MjcfError(`MJCF root must be <mujoco>, got <${root.tag}>`);
  const ctx: Ctx = { names: new Map(), refs: [] };
  walk(root, 'mujoco', ctx, null);
  for (const r of ctx.refs) {
    if (!ctx.names.get(r.ns)?.has(r.target)) {
      throw new MjcfError(`MJCF ${r.where}: ${r.attr}="${r.target}" names no ${r.ns}`);
    }
  }
}

function walk(node: XmlNode, path: string, ctx: Ctx, parent: XmlNode | null): void {
  const allowed = CHILDREN[node.tag];
  if (allowed === undefined) throw new MjcfError(`MJCF ${path}: element <${node.tag}> is not supported`);
  const where = node.attrs.name !== undefined ? `${path}[name=${String(node.attrs.name)}]` : path;
  checkAttrs(node, where, parent);
  registerName(node, where, ctx, parent);
  for (const child of node.children) {
    if (!allowed.includes(child.tag)) throw new MjcfError(`MJCF ${where}: <${child.tag}> may not appear inside <${node.tag}>`);
    walk(child, `${where}/${child.tag}`, ctx, node);
  }
}

function registerName(node: XmlNode, where: string, ctx: Ctx, parent: XmlNode | null): void {
  if (parent?.tag === 'default') return; // defaults carry no names and reference nothing
  // The same tag means different things by context: <joint> in <equality> is a constraint over
  // joints, <contact> in <sensor> is a sensor over geoms and bodies.
  const kind = node.tag === 'joint' && parent?.tag === 'equality' ? 'equality-joint' : node.tag;
  const ns = kind === 'equality-joint' ? 'equality' : parent?.tag === 'sensor' ? 'sensor' : NAMESPACE[node.tag];
  const name = node.attrs.name;
  if (ns !== undefined && typeof name === 'string') {
    const set = ctx.names.get(ns) ?? new Set<string>();
    if (set.has(name)) throw new MjcfError(`MJCF ${where}: duplicate ${ns} name "${name}"`);
    set.add(name);
    ctx.names.set(ns, set);
  }
  for (const [attr, targetNs] of Object.entries(REFERENCES[kind] ?? {})) {
    const v = node.attrs[attr];
    if (v !== undefined) ctx.refs.push({ where, attr, ns: targetNs, target: String(v) });
  }
}

function checkAttrs(node: XmlNode, where: string, parent: XmlNode | null): void {
  for (const [attr, value] of Object.entries(node.attrs)) {
    const arity = ARITY[attr] ?? (attr === 'size' ? sizeArity(node, where) : undefined);
    if (arity !== undefined) checkNumbers(value, arity, `${where} ${attr}`);
  }
  const num = (a: string): number[] => numbers(node.attrs[a]) ?? [];
  for (const attr of ['range', 'ctrlrange', 'forcerange']) {
    const [lo, hi] = num(attr);
    if (lo !== undefined && hi !== undefined && !(lo < hi))
      throw new MjcfError(`MJCF ${where}: ${attr} must have lo < hi, got ${lo} ${hi}`);
  }
  if (node.tag === 'geom' && parent?.tag !== 'default' && num('size').some((s) => !(s > 0)) && node.attrs.type !== 'plane') {
    throw new MjcfError(`MJCF ${where}: geom sizes must be positive, got "${String(node.attrs.size)}"`);
  }
  if (num('mass').some((m) => !(m > 0))) throw new MjcfError(`MJCF ${where}: mass must be positive`);
  if (node.attrs.axis !== undefined && Math.hypot(...num('axis')) === 0) throw new MjcfError(`MJCF ${where}: axis is zero`);
  if (node.tag === 'freejoint' && parent?.tag === 'body' && node !== parent.children.find((c) => c.tag === 'freejoint')) {
    throw new MjcfError(`MJCF ${where}: more than one freejoint in a body`);
  }
}

function sizeArity(node: XmlNode, where: string): readonly number[] {
  if (node.tag !== 'geom' && node.tag !== 'site') return [1, 2, 3];
  const type = String(node.attrs.type ?? 'sphere');
  const arity = GEOM_SIZE_ARITY[type];
  if (arity === undefined) throw new MjcfError(`MJCF ${where}: unsupported geom type "${type}"`);
  return arity;
}

function numbers(value: AttrValue | undefined): number[] | undefined {
  if (value === undefined || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return [value];
  if (typeof value === 'string') return value.trim() === '' ? [] : value.trim().split(/\s+/).map(Number);
  return [...value];
}

function checkNumbers(value: AttrValue, arity: readonly number[], where: string): void {
  const ns = numbers(value);
  if (ns === undefined) throw new MjcfError(`MJCF ${where}: expected numbers, got ${String(value)}`);
  if (!arity.includes(ns.length)) throw new MjcfError(`MJCF ${where}: expected ${arity.join(' or ')} numbers, got ${ns.length}`);
  if (ns.some((n) => !Number.isFinite(n))) throw new MjcfError(`MJCF ${where}: not a finite number in "${String(value)}"`);
}
