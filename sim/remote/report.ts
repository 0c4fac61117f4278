// What an evaluation report says about a remote env: which server, and the evaluation protocol it
// ran under (trials per task, max steps, and what the server says of its own protocol: LIBERO's wait
// steps and initial states), and whether the critic read privileged features.
import { readFileSync } from 'node:fs';
import type { World } from '../world.js';
import { isRemoteWorld } from './remote-world.js';

export interface RemoteEnvReport {
  readonly server: string;
  readonly world: string;
  readonly protocol: Readonly<Record<string, unknown>>;
  readonly privileged_features: { readonly read_by_critic: boolean; readonly declared: readonly string[] };
}

export interface RunFacts {
  readonly episodesPerTask: number;
  readonly tasks: readonly string[];
  /** The critic bundle's manifest path, when the run has a critic. */
  readonly bundleManifest?: string | undefined;
}

/** `{ env: … }` for a remote world, `{}` for any other. */
export function remoteEnvReport(world: World, run: RunFacts): { env?: RemoteEnvReport } {
  if (!isRemoteWorld(world)) return {};
  const wire = world.wireSpec;
  const suites = [...new Set(run.tasks.map((id) => world.task(id).suite))];
  const protocol = {
    trials_per_task: run.episodesPerTask,
    max_steps: Object.fromEntries(suites.map((s) => [s, wire.max_steps[s]])),
    control_hz: wire.control_hz,
    ...(wire.protocol ?? {}),
  };
  const declared = wire.features.filter((f) => f.provenance === 'privileged').map((f) => f.name);
  return {
    env: {
      server: world.endpoint.address,
      world: wire.name,
      protocol,
      privileged_features: { read_by_critic: bundleDeclaresPrivileged(run.bundleManifest), declared },
    },
  };
}

/** One line for the terminal. */
export function formatRemoteEnvReport(report: RemoteEnvReport): string {
  const p = Object.entries(report.protocol)
    .map(([k, v]) => `${k} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
    .join(', ');
  const privileged = report.privileged_features.read_by_critic
    ? `the critic read privileged features (${report.privileged_features.declared.join(', ') || 'none declared'})`
    : 'the critic read no privileged features';
  return `  env ${report.world} at ${report.server}; protocol: ${p}; ${privileged}`;
}

/** A bundle may read privileged features only when its manifest says so (critic/bundles loads it under that rule). */
function bundleDeclaresPrivileged(manifestPath: string | undefined): boolean {
  if (!manifestPath) return false;
  try {
    return (JSON.parse(readFileSync(manifestPath, 'utf8')) as { privileged?: unknown }).privileged === true;
  } catch {
    return false;
  }
}
