// Flags of demonstration recording: how many initial states, how much execution noise.
import { DEFAULT_NOISE_STD, HELD_OUT_SEED_MIN, INITIAL_STATES_PER_TASK } from '../../models/demos/index.js';
import { UsageError } from '../command.js';
import { bool, int, loaded } from './flag.js';

export const noise = loaded('noise', {
  metavar: 'STD',
  help: 'execution-noise std in action units; 0 = no noise',
  parse: (value): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1)
      throw new UsageError(`--noise must be a number in [0, 1], got "${value}"`);
    return n;
  },
}).default(DEFAULT_NOISE_STD);

/** Its integer check, reused: the held-out bound comes on top. */
const count = int('initial-states', { min: 1, help: '' });

/** More states than seeds below the held-out range would train on evaluation scenes. */
export const initialStates = loaded('initial-states', {
  metavar: 'S',
  help: `distinct initial states per task, seeds 0..S-1; at most ${HELD_OUT_SEED_MIN}, so no\ntraining seed reaches the held-out range`,
  parse: (value): number => {
    const n = count.read(value)!;
    if (n > HELD_OUT_SEED_MIN) {
      throw new UsageError(
        `--initial-states ${n} would use seeds 0..${n - 1}, but held-out evaluation seeds start at ${HELD_OUT_SEED_MIN}; at most ${HELD_OUT_SEED_MIN}`,
      );
    }
    return n;
  },
}).default(INITIAL_STATES_PER_TASK);

export const keepFailed = bool('keep-failed', 'keep failed episodes too (episode_success = 0)');
