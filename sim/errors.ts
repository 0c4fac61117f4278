// Errors the simulator raises for bad input. They are thrown before anything reaches WebAssembly,
// so a caller sees a sentence, never a bare mjXError or a NaN-poisoned physics state.

/** The caller asked for something the simulator cannot do (unknown task, malformed action, ...). */
export class SimInputError extends Error {
  override readonly name = 'SimInputError';
}

/** A perturbation file that does not validate; `field` is the dotted path of the offending key. */
export class PerturbationError extends Error {
  override readonly name = 'PerturbationError';
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

/** Generated MJCF that is not a valid model. MuJoCo itself reports these with no text. */
export class MjcfError extends Error {
  override readonly name = 'MjcfError';
}

/**
 * The physics went numerically wrong (NaN state). The arm was driven there, so an episode that
 * meets it has failed its task (it is not an infrastructure failure).
 */
export class SimPhysicsError extends Error {
  override readonly name = 'SimPhysicsError';
}

/** The simulator itself is gone (its process or connection died): an infrastructure failure. */
export class SimUnavailable extends Error {
  override readonly name = 'SimUnavailable';
}
