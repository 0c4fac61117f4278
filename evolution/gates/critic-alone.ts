// The critic-alone gate: a candidate bundle run with policies that do nothing (the trivial
// controls) must stay at or under the cap. A change that raises what the critic achieves without the
// policy has made the critic a second expert, which is not what a campaign may promote however much
// it helps the policy.
import type { EpisodeResult } from '../campaign/rollouts.js';

export interface CriticAloneResult {
  readonly gate: 'critic_alone';
  readonly pass: boolean;
  readonly reason: string;
  /** Each control's successes over the episodes that counted (infrastructure failures left out). */
  readonly controls: Readonly<Record<string, { readonly successes: number; readonly episodes: number }>>;
  /** The highest control success rate, the figure held against the cap. */
  readonly best_rate: number;
  readonly cap: number;
}

export function criticAloneGate(byControl: Readonly<Record<string, readonly EpisodeResult[]>>, cap: number): CriticAloneResult {
  const controls: Record<string, { successes: number; episodes: number }> = {};
  let best = 0;
  for (const [name, results] of Object.entries(byControl)) {
    const counted = results.filter((r) => r.infra_failure === null);
    const successes = counted.filter((r) => r.success).length;
    controls[name] = { successes, episodes: counted.length };
    best = Math.max(best, counted.length ? successes / counted.length : 0);
  }
  const pass = best <= cap;
  const figures = Object.entries(controls)
    .map(([n, c]) => `${n} ${c.successes}/${c.episodes}`)
    .join(', ');
  const reason = `critic alone ${(100 * best).toFixed(0)}% (${figures}); cap ${(100 * cap).toFixed(0)}%`;
  return { gate: 'critic_alone', pass, reason, controls, best_rate: best, cap };
}
