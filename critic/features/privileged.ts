// Copies an env's world features into the frame's `privileged.*` or `observed.*` slots (one reader
// per source: privileged ones only when the run authorizes them). Two input shapes are
// accepted, because envs differ: a plain record `{ grasped: true, object_height: 0.07, … }`, or a
// names/values frame `{ names: [...], values: Float64Array }` (the embedded suite's `features()`).
// Env keys that are not in the registry are ignored; registry keys the env lacks read NaN.
//
// Privileged keys are bare (`grasped`); observed ones carry their full name (`observed.object_x`), so
// a world never confuses the two. Aliases rename privileged env keys to registry keys (e.g.
// `subject_x` → `object_x`) without touching the env.
// Names are resolved once: per record key at construction, per names array when a new one is seen
// (compared by identity, so an env that reuses its names array costs nothing per step).
import { FeatureFrame } from './frame.js';
import { FEATURES, OBSERVED_PREFIX, PRIVILEGED_PREFIX } from './registry.js';

export type PrivilegedRecord = Readonly<Record<string, number | boolean>>;
export interface PrivilegedFrame {
  readonly names: readonly string[];
  readonly values: ArrayLike<number>;
}
export type PrivilegedInput = PrivilegedRecord | PrivilegedFrame;

/** env key → registry key (without the `privileged.` prefix). */
export type PrivilegedAliases = Readonly<Record<string, string>>;

export class PrivilegedReader {
  private readonly slots: Int32Array;
  /** The env key each slot is read from, for the record shape. */
  private readonly keys: readonly string[];
  private readonly byKey: ReadonlyMap<string, number>;
  private names: readonly string[] | null = null;
  private map = new Int32Array(0);

  constructor(
    private readonly aliases: PrivilegedAliases = {},
    source: 'privileged' | 'observed' = 'privileged',
  ) {
    const prefix = source === 'privileged' ? PRIVILEGED_PREFIX : OBSERVED_PREFIX;
    const names = FEATURES.filter((f) => f.source === source).map((f) => f.name.slice(prefix.length));
    for (const [from, to] of Object.entries(aliases)) {
      if (!names.includes(to)) throw new Error(`${source} alias "${from}" → "${to}": unknown ${source} feature "${to}"`);
    }
    const reverse = new Map(Object.entries(aliases).map(([from, to]) => [to, from]));
    // Observed features keep their prefix in the env's names; privileged ones go without it.
    const lookup = source === 'observed' ? names.map((k) => prefix + k) : names;
    this.keys = lookup.map((k) => reverse.get(k) ?? k);
    this.slots = Int32Array.from(names.map((k) => FeatureFrame.index(prefix + k)));
    this.byKey = new Map(lookup.map((k, i) => [k, this.slots[i]!]));
  }

  /** All of this reader's slots NaN (an unauthorized run, or no features this step). */
  clear(v: Float64Array): void {
    const slots = this.slots;
    for (let i = 0; i < slots.length; i++) v[slots[i]!] = Number.NaN;
  }

  read(v: Float64Array, env: PrivilegedInput): void {
    if (isFrame(env)) this.readFrame(v, env);
    else this.readRecord(v, env);
  }

  private readRecord(v: Float64Array, env: PrivilegedRecord): void {
    const slots = this.slots;
    const keys = this.keys;
    for (let i = 0; i < slots.length; i++) {
      const x = env[keys[i]!];
      v[slots[i]!] = typeof x === 'number' ? x : typeof x === 'boolean' ? (x ? 1 : 0) : Number.NaN;
    }
  }

  private readFrame(v: Float64Array, env: PrivilegedFrame): void {
    if (env.names !== this.names) this.resolve(env.names);
    this.clear(v);
    const map = this.map;
    const values = env.values;
    for (let i = 0; i < map.length; i++) if (map[i]! >= 0) v[map[i]!] = values[i]!;
  }

  /** env name index → frame slot (−1: not a registry feature). Runs when the names array changes. */
  private resolve(names: readonly string[]): void {
    this.names = names;
    this.map = Int32Array.from(names.map((n) => this.byKey.get(this.aliases[n] ?? n) ?? -1));
  }
}

function isFrame(env: PrivilegedInput): env is PrivilegedFrame {
  return Array.isArray((env as PrivilegedFrame).names) && typeof (env as PrivilegedFrame).values === 'object';
}
