// What an operator does to a running node from a shell, as calls on a real graph: `ros2 service
// call /zetta/estop std_srvs/srv/Trigger`, `ros2 param get /zetta stale_state_ms`, `ros2 param set
// /zetta stale_state_ms 80`. The node's own parameter services (rcl_interfaces) answer them, so a
// test through these calls sees what `ros2 param` sees.
import type { TriggerResponse } from './messages.js';

/** The one thing these calls need from a graph (RclnodejsGraph has it). */
export interface ServiceCaller {
  callService<Response>(type: string, name: string, request: unknown, timeoutMs?: number): Promise<Response>;
}

/** rcl_interfaces/msg/ParameterType, the two numeric kinds. */
const PARAMETER_INTEGER = 2;
const PARAMETER_DOUBLE = 3;

interface ParameterValue {
  type: number;
  integer_value?: bigint | number;
  double_value?: number;
}

export interface SetParameterResult {
  readonly successful: boolean;
  readonly reason: string;
}

/** `ros2 service call <service> std_srvs/srv/Trigger`. */
export function callTrigger(graph: ServiceCaller, service: string, timeoutMs?: number): Promise<TriggerResponse> {
  return graph.callService<TriggerResponse>('std_srvs/Trigger', service, {}, timeoutMs);
}

/**
 * `ros2 param set <node> <name> <value>`: a bigint is sent as an integer parameter (what the shell
 * sends for `80`), a number as a double (`80.0`).
 */
export async function setParameter(graph: ServiceCaller, node: string, name: string, value: number | bigint): Promise<SetParameterResult> {
  const parameterValue: ParameterValue =
    typeof value === 'bigint' ? { type: PARAMETER_INTEGER, integer_value: value } : { type: PARAMETER_DOUBLE, double_value: value };
  const response = await graph.callService<{ results: SetParameterResult[] }>('rcl_interfaces/SetParameters', `/${node}/set_parameters`, {
    parameters: [{ name, value: parameterValue }],
  });
  const result = response.results[0];
  if (!result) throw new Error(`/${node}/set_parameters answered no result for ${name}`);
  return { successful: result.successful, reason: result.reason };
}

/** `ros2 param get <node> <name>` for numeric parameters; an undeclared one is null. */
export async function getNumericParameters(graph: ServiceCaller, node: string, names: readonly string[]): Promise<(number | null)[]> {
  const response = await graph.callService<{ values: ParameterValue[] }>('rcl_interfaces/GetParameters', `/${node}/get_parameters`, {
    names: [...names],
  });
  return names.map((_, i) => {
    const v = response.values[i];
    if (v?.type === PARAMETER_DOUBLE) return v.double_value ?? null;
    if (v?.type === PARAMETER_INTEGER) return v.integer_value === undefined ? null : Number(v.integer_value);
    return null;
  });
}
