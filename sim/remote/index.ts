// The public face of sim/remote/: what commands need to know about a remote env world.
export { isRemoteEnvSpec, parseEndpoint, type RemoteEnvEndpoint } from './endpoint.js';
export { RemoteEnvError, RemoteEnvFailed, RemoteEnvReplyError, RemoteEnvUnavailable, isRemoteEnvFailure } from './errors.js';
export { RemoteEnv, fetchSpec, type RemoteObservation } from './remote-env.js';
export { checkRemoteEnvParallelism, isRemoteWorld, openWorld, type RemoteWorld } from './remote-world.js';
export { formatRemoteEnvReport, remoteEnvReport, type RemoteEnvReport } from './report.js';
