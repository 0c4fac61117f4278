// The node's parameters (`ros2 param set /zetta stale_state_ms 80`): the watchdog's limits and the
// twist's speed caps can change while running; the control rate and chunking cannot (they shape
// the pipeline and the critic's windows), so setting them is refused with the reason.
import type { CommandOutput } from './command-output.js';
import type { Ros2Config } from './config.js';
import type { RosGraph } from './graph.js';
import type { Watchdog } from './watchdog.js';

const positive = (name: string, apply: (v: number) => void) => (v: number) => {
  if (!(Number.isFinite(v) && v > 0)) return `${name} must be a positive number`;
  apply(v);
  return null;
};

const fixed = (name: string) => () => `${name} is fixed at start (restart the node with another config)`;

export function declareNodeParameters(graph: RosGraph, config: Ros2Config, watchdog: Watchdog, outputs: CommandOutput): void {
  graph.declareParameter('control_hz', config.control_hz, fixed('control_hz'));
  graph.declareParameter('execute_steps', config.execute_steps, fixed('execute_steps'));
  graph.declareParameter(
    'stale_state_ms',
    config.safety.stale_state_ms,
    positive('stale_state_ms', (v) => (watchdog.staleStateMs = v)),
  );
  graph.declareParameter(
    'chunk_timeout_ms',
    config.safety.chunk_timeout_ms,
    positive('chunk_timeout_ms', (v) => (watchdog.chunkTimeoutMs = v)),
  );
  graph.declareParameter(
    'max_linear_mps',
    config.safety.max_linear_mps,
    positive('max_linear_mps', (v) => (outputs.maxLinear = v)),
  );
  graph.declareParameter(
    'max_angular_rps',
    config.safety.max_angular_rps,
    positive('max_angular_rps', (v) => (outputs.maxAngular = v)),
  );
}
