// Flags of an evolution campaign: where it lives, its seeds, its diagnoser and its gates.
import { DEFAULT_GATES, builtinDiagnoser, llmDiagnoser, llmSettingsFromEnv, parseSeedList, type Diagnoser } from '../../evolution/index.js';
import { parseDecimalInt } from '../../util/decimal-int.js';
import { UsageError } from '../command.js';
import { fraction, int, loaded, text } from './flag.js';
import { MAX_SEED } from './table.js';

export const root = text('root', { metavar: 'DIR', help: "the campaign's directory (created; reused to resume)" });

/** The base bundle is handed to the campaign as written: it resolves and hashes it itself. */
export const baseCritic = text('critic', {
  metavar: 'B',
  help: 'the bundle generation 1 starts from: default, none or a bundle directory',
}).default('default', 'the shipped bundle');

/**
 * A seed list whose every seed is one --seed would take, checked before parseSeedList reads it: that
 * reads any run of digits, and its range loop never ends at 1e20 (where s + 1 === s).
 */
function seedList(flag: string, text: string): number[] {
  for (const [digits] of text.matchAll(/\d+/g)) {
    const n = parseDecimalInt(digits);
    if (n === undefined || n > MAX_SEED) throw new UsageError(`--${flag} ${text}: seeds must be integers from 0 to ${MAX_SEED}`);
  }
  return parseSeedList(text);
}

export const heldoutSeeds = loaded('heldout-seeds', {
  metavar: 'LIST',
  help: 'held-out seeds, e.g. 1000-1019 or 1000,1004,1009-1012; never used for\ndevelopment',
  parse: (t) => seedList('heldout-seeds', t),
}).default(() => parseSeedList('1000-1019'), '1000-1019: scenes the base policy never trained on');

export const confirmSeeds = loaded('confirm-seeds', {
  metavar: 'LIST',
  help: 'fresh seeds for the final base-vs-promoted comparison; none skips it',
  parse: (t) => (t === 'none' ? [] : seedList('confirm-seeds', t)),
}).default(() => parseSeedList('2000-2019'), '2000-2019');

/** The diagnoser itself: llm reads its endpoint from the environment, and says what is missing. */
export const diagnoser = loaded('diagnoser', {
  metavar: 'D',
  help: 'builtin | llm (ZETTA_LLM_BASE_URL, ZETTA_LLM_MODEL, ZETTA_LLM_API_KEY)',
  parse: (t): Diagnoser => {
    if (t === 'builtin') return builtinDiagnoser();
    if (t === 'llm') return llmDiagnoser(llmSettingsFromEnv());
    throw new UsageError(`--diagnoser must be builtin or llm, got "${t}"`);
  },
}).default(() => builtinDiagnoser(), 'builtin');

export const maxCandidates = int('max-candidates', {
  metavar: 'N',
  min: 1,
  help: 'candidates that may run development rollouts per generation',
}).default(DEFAULT_GATES.max_candidates);

export const maxExtraSafetyEvents = int('max-extra-safety-events', {
  metavar: 'N',
  min: 0,
  help: 'safety events (safety-rule firings, aborts, workspace stops) a candidate may add\nover its parent in the regression and held-out gates',
}).default(DEFAULT_GATES.max_extra_safety_events);

export const criticAloneCap = fraction('critic-alone-cap', {
  metavar: 'R',
  help: 'highest success (0..1) the candidate may reach with null:open, null:closed or\nnull:random:0 on the development seeds',
}).default(DEFAULT_GATES.critic_alone_cap);
