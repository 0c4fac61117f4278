// A remote env server as a World: everything the runtime and the critic need comes from the
// server's spec — its suites and tasks, control rate, and feature schema with each feature's
// provenance. worlds.ts calls openWorld with the `zmq://…` spec (in every thread that needs it).
import type { FeatureSchema } from '../../protocol/feature-schema.js';
import { SimInputError } from '../errors.js';
import { builtinPerturbationNames, resolvePerturbation } from '../perturbation/builtin.js';
import type { PolicyEncoder, World } from '../world.js';
import { parseEndpoint, type RemoteEnvEndpoint } from './endpoint.js';
import type { WireEnvSpec } from './env-wire.js';
import { REMOTE_ACTION_SCALE, RemoteEnv, fetchSpec, type RemoteObservation } from './remote-env.js';
import { remoteRestores } from './remote-restores.js';
import { findTask, remoteTasks } from './remote-tasks.js';

/** Without a workspace in the spec the envelope's box is wide open: the server's robot keeps its own limits. */
const OPEN_WORKSPACE = { min: [-1e3, -1e3, -1e3], max: [1e3, 1e3, 1e3] };

/** What a remote world knows beyond the World port: where it is, and the spec it was built from. */
export interface RemoteWorld extends World {
  readonly endpoint: RemoteEnvEndpoint;
  readonly wireSpec: WireEnvSpec;
}

export function isRemoteWorld(world: World): world is RemoteWorld {
  return 'wireSpec' in world && 'endpoint' in world;
}

export async function openWorld(spec: string): Promise<RemoteWorld> {
  const endpoint = parseEndpoint(spec);
  return remoteWorld(spec, endpoint, await fetchSpec(endpoint));
}

export function remoteWorld(name: string, endpoint: RemoteEnvEndpoint, wire: WireEnvSpec): RemoteWorld {
  const tasks = remoteTasks(wire);
  const features: FeatureSchema = Object.freeze({ world: wire.name, features: wire.features.map((f) => ({ ...f })) });
  return {
    name,
    summary: `remote env "${wire.name}" at ${endpoint.address} (${tasks.length} tasks in ${Object.keys(wire.suites).length} suites)`,
    action: { dim: 7, names: ['dx', 'dy', 'dz', 'dax', 'day', 'daz', 'gripper'], scale: REMOTE_ACTION_SCALE },
    controlHz: wire.control_hz,
    workspace: wire.workspace ?? OPEN_WORKSPACE,
    features,
    signature: signatureOf(wire),
    authorizesPrivileged: true,
    suites: Object.keys(wire.suites),
    tasks: (suite) => tasks.filter((t) => suite === undefined || t.suite === suite),
    task: (id) => findTask(tasks, id, wire.name),
    createEnv: async () => new RemoteEnv(endpoint, wire),
    policyEncoder,
    resolvePerturbation,
    perturbationNames: builtinPerturbationNames(),
    restores: remoteRestores(wire),
    endpoint,
    wireSpec: wire,
  };
}

/** The observation map as the server sent it (with `prompt`): what openpi and the shim expect. */
function policyEncoder(): PolicyEncoder {
  return { encode: (obs) => (obs as RemoteObservation).map };
}

/** Failure clustering compares every feature: 3 cm for lengths, 0.1 for other numbers, a flip for booleans. */
function signatureOf(wire: WireEnvSpec): Record<string, number> {
  return Object.fromEntries(wire.features.map((f) => [f.name, f.kind === 'boolean' ? 0.5 : f.unit === 'm' ? 0.03 : 0.1]));
}

/**
 * An env server runs one simulator for one client at a time (REP serves whoever asks next, so two
 * clients would interleave their episodes): more concurrent envs need more servers.
 */
export function checkRemoteEnvParallelism(world: World, concurrentEnvs: number): void {
  if (isRemoteWorld(world) && concurrentEnvs > 1) {
    throw new SimInputError(
      `env server ${world.endpoint.address} runs one simulator: use --workers 1 --envs-per-worker 1 (start one server per simulator to run more)`,
    );
  }
}
