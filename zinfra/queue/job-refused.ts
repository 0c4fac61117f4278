// A job a worker will not run: it asks for something the worker was not started with (a world, a
// policy, a folder) or is not a well-formed, well-signed job at all. The worker fails it at once,
// without retries and before anything is run, read or written, and the reason never quotes a file.
export class JobRefused extends Error {
  override readonly name = 'JobRefused';
}
