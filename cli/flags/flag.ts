// One command-line flag, defined once: its name, how --help shows it, and how its text becomes a
// typed value. The flags live in this folder's tables; a command names the ones it takes, and both
// its parsing (read.ts) and the flag lines of its --help (help.ts) come from those definitions.
import { parseDecimalInt } from '../../util/decimal-int.js';
import { UsageError } from '../command.js';

/** What --help and the parser need to know about a flag, whatever its value's type. */
export interface FlagInfo {
  /** Without the dashes: `envs-per-worker`. */
  readonly name: string;
  readonly type: 'string' | 'boolean';
  /** The value's placeholder in --help: `--episodes N`. */
  readonly metavar?: string | undefined;
  /** What the flag does; each '\n' starts a continuation line in --help. */
  readonly help: string;
  /** Shown as "(default …)" after the help; nothing when undefined. */
  readonly defaultNote?: string | undefined;
  /** The smallest value a numeric flag accepts. */
  readonly min?: number | undefined;
  /** The largest value an integer flag accepts (MAX_COUNT when not said). */
  readonly max?: number | undefined;
}

interface FlagSpec<T> extends FlagInfo {
  /** The value when the flag is not given. */
  readonly absent: () => T;
  /** The value of the text given (`'true'` for a boolean); throws UsageError with one line. */
  readonly parse: (text: string, info: FlagInfo) => T;
}

export class Flag<T> {
  constructor(private readonly spec: FlagSpec<T>) {}

  get info(): FlagInfo {
    return this.spec;
  }

  /** parseArgs' value for this flag (undefined when absent) → the typed value. */
  read(raw: string | boolean | undefined): T {
    return raw === undefined ? this.spec.absent() : this.spec.parse(String(raw), this.spec);
  }

  /** The same flag told differently in one command's --help, or with other bounds. */
  with(o: Pick<Partial<FlagInfo>, 'help' | 'metavar' | 'defaultNote' | 'min' | 'max'>): Flag<T> {
    return new Flag({ ...this.spec, ...o });
  }

  /** The flag with a value when it is not given; --help shows `note` (by default the value). */
  default(value: NonNullable<T>, note?: string): Flag<NonNullable<T>>;
  default(value: () => NonNullable<T>, note: string): Flag<NonNullable<T>>;
  default(value: NonNullable<T> | (() => NonNullable<T>), note?: string): Flag<NonNullable<T>> {
    const absent = typeof value === 'function' ? (value as () => NonNullable<T>) : () => value;
    const spec = this.spec as unknown as FlagSpec<NonNullable<T>>;
    return new Flag({ ...spec, absent, defaultNote: note ?? String(value) });
  }

  /** The flag must be given, and not empty. */
  required(message = `--${this.spec.name} is required`): Flag<NonNullable<T>> {
    const spec = this.spec as unknown as FlagSpec<NonNullable<T>>;
    const missing = (): never => {
      throw new UsageError(message);
    };
    return new Flag({ ...spec, absent: missing, parse: (text, info) => (text === '' ? missing() : spec.parse(text, info)) });
  }
}

interface Shown {
  readonly metavar?: string;
  readonly help: string;
}

/** A flag whose value is its text. */
export function text(name: string, o: Shown): Flag<string | undefined> {
  return new Flag({ name, type: 'string', ...o, absent: () => undefined, parse: (t) => t });
}

/** An on/off flag: false unless given. */
export function bool(name: string, help: string): Flag<boolean> {
  return new Flag({ name, type: 'boolean', help, absent: () => false, parse: () => true });
}

/**
 * The largest count an integer flag takes unless it names its own `max`: a bound on how much a typo
 * can allocate. Every integer flag's range is in its error message and in README.md.
 */
export const MAX_COUNT = 1_000_000;

/**
 * An integer from min to max (MAX_COUNT unless given), in plain decimal digits: `1e3`, `0x10`,
 * ` 7 ` and `+7` are refused rather than read as Number() would, and so is anything out of range.
 */
export function int(name: string, o: Shown & { readonly min: number; readonly max?: number }): Flag<number | undefined> {
  const parse = (t: string, info: FlagInfo): number => {
    const n = parseDecimalInt(t);
    const min = info.min ?? 0;
    const max = info.max ?? MAX_COUNT;
    if (n === undefined || n < min || n > max)
      throw new UsageError(`--${info.name} must be an integer from ${min} to ${max} in decimal digits, got "${t}"`);
    return n;
  };
  return new Flag({ name, type: 'string', ...o, absent: () => undefined, parse });
}

/** A number from 0 to 1. */
export function fraction(name: string, o: Shown): Flag<number | undefined> {
  const parse = (t: string): number => {
    const x = Number(t);
    if (!(x >= 0 && x <= 1)) throw new UsageError(`--${name} must be a number from 0 to 1, got "${t}"`);
    return x;
  };
  return new Flag({ name, type: 'string', ...o, absent: () => undefined, parse });
}

/**
 * A flag whose text is loaded or checked by a function of another module (a task id, a
 * perturbation file, a bundle): whatever that function throws becomes a UsageError, same message.
 */
export function loaded<T>(name: string, o: Shown & { readonly parse: (text: string) => T }): Flag<T | undefined> {
  const parse = (t: string): T => {
    try {
      return o.parse(t);
    } catch (err) {
      throw err instanceof UsageError ? err : new UsageError((err as Error).message);
    }
  };
  return new Flag({ name, type: 'string', metavar: o.metavar, help: o.help, absent: () => undefined, parse });
}
