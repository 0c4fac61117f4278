// What goes wrong before or around the queue rather than inside an episode: a bad URL, a Redis that
// is not there, a worker or coordinator speaking another protocol version. Each is one line for the
// user, never a hang.
export class QueueSetupError extends Error {
  override readonly name = 'QueueSetupError';
}
