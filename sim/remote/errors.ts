// What can go wrong between Zetta and a remote env server, sorted by whose fault it is. A server
// that is gone or stalls is the infrastructure's (a SimUnavailable: the runtime ends the episode as
// an infrastructure failure and runs it again); a reply that breaks the wire, or an error the server
// reports about the request, is a mistake to fix, so it stops the run with one sentence naming the
// op and the field.
import { SimUnavailable } from '../errors.js';

/** The server closed the connection or did not answer in time. */
export class RemoteEnvUnavailable extends SimUnavailable {
  constructor(
    readonly op: string,
    readonly reason: 'timeout' | 'disconnected',
    message: string,
  ) {
    super(message);
  }
}

/** A reply that does not follow the env wire: a missing key, a wrong dtype, a spec that does not validate. */
export class RemoteEnvReplyError extends Error {
  override readonly name = 'RemoteEnvReplyError';
  constructor(
    readonly op: string,
    /** Dotted path of the offending field in the reply, e.g. `obs.observation/state`. */
    readonly field: string,
    message: string,
  ) {
    super(`env server's "${op}" reply: ${field ? `${field}: ` : ''}${message}`);
  }
}

/** `{ok: false, error: {code, message}}`: the server refused the request (an unknown task, a bad action). */
export class RemoteEnvError extends Error {
  override readonly name = 'RemoteEnvError';
  constructor(
    readonly op: string,
    readonly code: string,
    readonly serverMessage: string,
  ) {
    super(`env server refused "${op}": ${code}: ${serverMessage}`);
  }
}

/**
 * `{ok: false}` with a code that says the simulator itself broke (it crashed, it is restarting): the
 * infrastructure's fault, like a server that is gone.
 */
export class RemoteEnvFailed extends SimUnavailable {
  constructor(
    readonly op: string,
    readonly code: string,
    readonly serverMessage: string,
  ) {
    super(`env server failed "${op}": ${code}: ${serverMessage}`);
  }
}

/**
 * An observation holding NaN or ±Inf: the simulator's state is broken even if it reports success, so
 * the episode is the infrastructure's failure, never a success, and the field is named.
 */
export class RemoteEnvNonFinite extends SimUnavailable {
  constructor(
    readonly op: string,
    /** Dotted path of the array, e.g. `obs.observation/state`. */
    readonly field: string,
    readonly index: number,
    value: number,
  ) {
    super(`env server's "${op}" reply: ${field}[${index}] is ${value} (a non-finite observation: the simulator broke)`);
  }
}

/** Error codes a server sends when its simulator, not the request, is at fault. */
export const INFRA_ERROR_CODES: ReadonlySet<string> = new Set(['SIM_FAILED', 'SHUTTING_DOWN', 'UNAVAILABLE']);

/** Any of the above: what a command tells the user in one line (the server, not Zetta, is at fault). */
export function isRemoteEnvFailure(err: unknown): boolean {
  return (
    err instanceof RemoteEnvUnavailable ||
    err instanceof RemoteEnvReplyError ||
    err instanceof RemoteEnvError ||
    err instanceof RemoteEnvFailed ||
    err instanceof RemoteEnvNonFinite
  );
}
