// Where the real-LIBERO tests find LIBERO: ZETTA_LIBERO_PYTHON names a Python in which `libero.libero`,
// robosuite and mujoco import, with the environment that installation needs already set (MUJOCO_GL
// for headless rendering, LIBERO_CONFIG_PATH for LIBERO's paths). Elsewhere those tests are skipped,
// the reason in their names.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const LIBERO_PYTHON = process.env.ZETTA_LIBERO_PYTHON ?? '';

/** null when a real LIBERO imports under ZETTA_LIBERO_PYTHON, else why not (for the skipped tests' names). */
export function liberoMissing(): string | null {
  if (!LIBERO_PYTHON) return 'ZETTA_LIBERO_PYTHON is not set: no real LIBERO here';
  // Without its config.yaml, importing libero.libero asks on stdin where the datasets go.
  const config = join(process.env.LIBERO_CONFIG_PATH ?? join(homedir(), '.libero'), 'config.yaml');
  if (!existsSync(config)) return `no LIBERO config at ${config} (set LIBERO_CONFIG_PATH to a folder with one)`;
  const r = spawnSync(LIBERO_PYTHON, ['-c', 'import mujoco, robosuite, libero.libero; print(mujoco.__version__, robosuite.__version__)'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 180_000,
  });
  if (r.error) return `${LIBERO_PYTHON} does not run: ${r.error.message}`;
  if (r.status !== 0) return `LIBERO does not import under ${LIBERO_PYTHON}: ${r.stderr.trim().split('\n').at(-1) ?? `exit ${r.status}`}`;
  return null;
}
