// The env wire's replies as zod schemas (see README.md beside this file for the table). Every reply
// is validated here before anything else reads it; a reply that does not validate becomes one
// RemoteEnvReplyError naming the op and the field.
import { z } from 'zod';
import { isNdArray, type NdArray } from '../../protocol/ndarray.js';
import { INFRA_ERROR_CODES, RemoteEnvError, RemoteEnvFailed, RemoteEnvNonFinite, RemoteEnvReplyError } from './errors.js';
import { canonicalWireDType, wireDTypeHint } from './wire-dtype.js';

/** The runtime's action layout (LIBERO's); a server maps it to its robot's own (RoboCasa: 12-D). */
export const WIRE_ACTION_DIM = 7;

/** Prefixes of the critic's own features: a world's feature may not take one. */
const RESERVED_PREFIXES = ['robot.', 'command.', 'episode.', 'derived.'];

/**
 * The most steps an episode may take: a spec asking for more is refused (a server that never says
 * `done` would otherwise run its episode for as long as it claims). LIBERO's longest suite takes 520.
 */
export const MAX_EPISODE_STEPS = 10_000;

/** Any spelling numpy accepts for a wire dtype ("float32", "f4", "<f4"), as the canonical name. */
const dtype = z.string().transform((name, ctx) => {
  const canonical = canonicalWireDType(name);
  if (canonical !== undefined) return canonical;
  ctx.addIssue({ code: 'custom', message: `"${name}" is not a dtype of the wire: ${wireDTypeHint()}` });
  return z.NEVER;
});
const maxSteps = z
  .number()
  .int()
  .positive()
  .max(MAX_EPISODE_STEPS, { message: `must be at most ${MAX_EPISODE_STEPS}: an episode runs at most ${MAX_EPISODE_STEPS} steps` });

const featureSchema = z.object({
  name: z
    .string()
    .min(1)
    .refine((n) => !RESERVED_PREFIXES.some((p) => n.startsWith(p)), {
      message: `must not start with ${RESERVED_PREFIXES.join(', ')} (the critic's own features)`,
    }),
  unit: z.string(),
  kind: z.enum(['number', 'boolean']),
  provenance: z.enum(['observed', 'privileged']),
  meaning: z.string(),
});

const box = z.tuple([z.number(), z.number(), z.number()]);

/**
 * A restore program the server's world offers evolution: an action, never a condition. The program
 * is in the critic's recoveries format; it is checked against that format where a campaign reads it
 * (the critic is not this floor's to import). `stages`: the milestone kinds it restores, if any.
 */
const restoreSchema = z.strictObject({
  id: z.string().regex(/^[a-z][a-z0-9_]*$/, 'restore id: lower-case letters, digits and _, starting with a letter'),
  summary: z.string().min(1),
  program: z.record(z.string(), z.unknown()),
  stages: z.array(z.string().min(1)).default([]),
});

export const envSpecSchema = z
  .object({
    name: z.string().min(1),
    suites: z
      .record(z.string().min(1), z.array(z.string().min(1)).min(1))
      .refine((s) => Object.keys(s).length > 0, { message: 'must name at least one suite' }),
    action_dim: z.literal(WIRE_ACTION_DIM, {
      message: `must be ${WIRE_ACTION_DIM}: the runtime sends LIBERO's [dx, dy, dz, dax, day, daz, gripper]; a server maps it to its robot's own`,
    }),
    control_hz: z.number().positive(),
    max_steps: z.record(z.string(), maxSteps),
    observation: z.record(z.string().min(1), z.object({ dtype, shape: z.array(z.number().int().nonnegative()) })),
    features: z.array(featureSchema),
    // Optional, beyond the table: the evaluation protocol the server follows (stated in reports),
    // task instructions for listings, and the envelope's workspace box.
    protocol: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
    instructions: z.record(z.string(), z.string()).optional(),
    workspace: z.object({ min: box, max: box }).optional(),
    restores: z.array(restoreSchema).optional(),
  })
  .superRefine((spec, ctx) => {
    for (const suite of Object.keys(spec.suites)) {
      if (spec.max_steps[suite] === undefined)
        ctx.addIssue({ code: 'custom', path: ['max_steps', suite], message: `missing: every suite needs its max steps` });
    }
    const seen = new Set<string>();
    spec.features.forEach((f, i) => {
      if (seen.has(f.name)) ctx.addIssue({ code: 'custom', path: ['features', i, 'name'], message: `"${f.name}" is declared twice` });
      seen.add(f.name);
    });
    const ids = new Set<string>();
    spec.restores?.forEach((r, i) => {
      if (ids.has(r.id)) ctx.addIssue({ code: 'custom', path: ['restores', i, 'id'], message: `"${r.id}" is declared twice` });
      ids.add(r.id);
    });
  });

export type WireEnvSpec = z.infer<typeof envSpecSchema>;

const ndarray = z.custom<NdArray>(isNdArray, { message: 'expected an ndarray ({__ndarray__, data, dtype, shape})' });
const obsMap = z.record(z.string(), z.union([ndarray, z.string()]));

const resetReply = z.object({
  obs: obsMap,
  info: z.object({ reset_digest: z.string().min(1), instruction: z.string() }),
});

const stepReply = z.object({
  obs: obsMap,
  reward: z.number(),
  done: z.boolean(),
  info: z.object({ success: z.boolean(), features: z.record(z.string(), z.union([z.number(), z.boolean()])) }),
});

export type WireObservation = z.infer<typeof obsMap>;
export type WireReset = z.infer<typeof resetReply>;
export type WireStep = z.infer<typeof stepReply>;

const envelope = z.object({ ok: z.boolean() });
const errorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

/** The payload of an `ok: true` reply; an `ok: false` one throws RemoteEnvError (or RemoteEnvFailed). */
function payload(op: string, reply: unknown): Record<string, unknown> {
  const head = envelope.safeParse(reply);
  if (!head.success) throw replyError(op, head.error);
  if (!head.data.ok) {
    const body = errorBody.safeParse(reply);
    if (!body.success) throw replyError(op, body.error);
    const { code, message } = body.data.error;
    throw INFRA_ERROR_CODES.has(code) ? new RemoteEnvFailed(op, code, message) : new RemoteEnvError(op, code, message);
  }
  return reply as Record<string, unknown>;
}

function parse<T>(op: string, schema: z.ZodType<T>, value: unknown, prefix = ''): T {
  const r = schema.safeParse(value);
  if (!r.success) throw replyError(op, r.error, prefix);
  return r.data;
}

function replyError(op: string, error: z.ZodError, prefix = ''): RemoteEnvReplyError {
  const issue = error.issues[0]!;
  const field = [prefix, ...issue.path.map(String)].filter((p) => p !== '').join('.');
  return new RemoteEnvReplyError(op, field, issue.message);
}

export function parseSpecReply(reply: unknown): WireEnvSpec {
  return parse('spec', envSpecSchema, payload('spec', reply).spec, 'spec');
}

export function parseResetReply(reply: unknown): WireReset {
  return parse('reset', resetReply, payload('reset', reply));
}

export function parseStepReply(reply: unknown): WireStep {
  return parse('step', stepReply, payload('step', reply));
}

export function parseCloseReply(reply: unknown): void {
  payload('close', reply);
}

/** Every array the spec declares is there with its dtype and shape; no undeclared array comes along. */
export function checkObservation(op: string, obs: WireObservation, declared: WireEnvSpec['observation']): void {
  for (const [key, want] of Object.entries(declared)) {
    const got = obs[key];
    const field = `obs.${key}`;
    if (got === undefined) throw new RemoteEnvReplyError(op, field, 'missing: the spec declares it');
    if (typeof got === 'string') throw new RemoteEnvReplyError(op, field, `a string; the spec declares an ndarray of ${want.dtype}`);
    if (got.dtype !== want.dtype) throw new RemoteEnvReplyError(op, field, `dtype ${got.dtype}; the spec declares ${want.dtype}`);
    if (got.shape.length !== want.shape.length || got.shape.some((d, i) => d !== want.shape[i])) {
      throw new RemoteEnvReplyError(op, field, `shape [${got.shape.join(', ')}]; the spec declares [${want.shape.join(', ')}]`);
    }
  }
  for (const [key, value] of Object.entries(obs)) {
    if (typeof value !== 'string' && declared[key] === undefined)
      throw new RemoteEnvReplyError(op, `obs.${key}`, 'an array the spec does not declare');
  }
  checkFinite(op, obs);
}

/** NaN or ±Inf in a float array: the simulator broke, whatever it says of the episode. */
function checkFinite(op: string, obs: WireObservation): void {
  for (const [key, value] of Object.entries(obs)) {
    if (typeof value === 'string' || (value.dtype !== '<f4' && value.dtype !== '<f8')) continue;
    const data = value.data as Float32Array | Float64Array;
    for (let i = 0; i < data.length; i++) {
      if (!Number.isFinite(data[i]!)) throw new RemoteEnvNonFinite(op, `obs.${key}`, i, data[i]!);
    }
  }
}

/** Step features: only declared names, each of its declared kind. */
export function checkFeatures(values: WireStep['info']['features'], declared: WireEnvSpec['features']): void {
  const kinds = new Map(declared.map((f) => [f.name, f.kind]));
  for (const [name, v] of Object.entries(values)) {
    const kind = kinds.get(name);
    const field = `info.features.${name}`;
    if (kind === undefined) throw new RemoteEnvReplyError('step', field, 'not declared in the spec');
    if (kind === 'boolean' && typeof v !== 'boolean')
      throw new RemoteEnvReplyError('step', field, `a ${typeof v}; the spec declares a boolean`);
    if (kind === 'number' && typeof v !== 'number')
      throw new RemoteEnvReplyError('step', field, `a ${typeof v}; the spec declares a number`);
  }
}
