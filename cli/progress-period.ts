// How long progress may stay silent without a terminal: 9 s by default (under the 10 s the README
// promises), or ZETTA_PROGRESS_MS milliseconds, so a test can watch the promise kept over a short
// stall and a quiet log can ask for fewer lines. zetta checks the variable before any command runs.
import { InputError } from './command.js';

export const PROGRESS_PERIOD_VARIABLE = 'ZETTA_PROGRESS_MS';
export const DEFAULT_PROGRESS_PERIOD_MS = 9000;
const MIN_MS = 100;
const MAX_MS = 600_000;

/** The longest silence between two progress lines on a pipe or a log, in milliseconds. */
export function progressPeriodMs(env: NodeJS.ProcessEnv = process.env): number {
  const text = env[PROGRESS_PERIOD_VARIABLE];
  if (text === undefined || text === '') return DEFAULT_PROGRESS_PERIOD_MS;
  const ms = /^\d{1,7}$/.test(text) ? Number(text) : Number.NaN;
  if (!(ms >= MIN_MS && ms <= MAX_MS))
    throw new InputError(`${PROGRESS_PERIOD_VARIABLE} must be an integer from ${MIN_MS} to ${MAX_MS} in decimal digits, got "${text}"`);
  return ms;
}
