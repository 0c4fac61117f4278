// What promoted a skill: the held-out and confirmation comparisons (parent vs candidate successes)
// and the shadow replay's triggers vs false alarms, drawn in one container (data-testid=
// "evidence-plot"), then every gate decision its campaign made.
import type { SkillContent } from '../../../contract';
import { DecisionsTable } from '../components/gate-table';
import { pValue } from '../components/format';
import { pairedSuccessPlot, shadowPlot, type PairedSet } from '../components/evidence-plots';
import { PlotFigure, plotWidth } from '../components/plot-figure';
import { href } from '../router';

export function SkillEvidence({ content }: { content: SkillContent }) {
  const ev = content.evidence;
  const sets: PairedSet[] = [];
  if (ev.heldout) sets.push({ set: 'held-out', ...ev.heldout });
  if (ev.confirmation) sets.push({ set: 'confirmation', ...ev.confirmation });
  return (
    <section>
      <h2>Evidence</h2>
      <p>
        Campaign{' '}
        <a href={href.campaign(ev.campaign_id)}>
          <code>{ev.campaign_id.slice(0, 12)}</code>
        </a>
        , generation {ev.generation}, promoted candidate <code>{ev.promoted_candidate}</code>.
      </p>
      <ul class="figures">
        {ev.heldout ? <li>Held-out: {figures(ev.heldout)}</li> : null}
        {ev.confirmation ? <li>Confirmation on fresh seeds: {figures(ev.confirmation)}</li> : <li class="muted">No confirmation run.</li>}
        {ev.shadow ? (
          <li>
            Shadow replay: fired in time on {ev.shadow.triggers} of {ev.shadow.targeted_failures} targeted failures, false alarms on{' '}
            {ev.shadow.false_alarms} of {ev.shadow.successes} successes.
          </li>
        ) : null}
      </ul>
      <div class="evidence-plot" data-testid="evidence-plot">
        <PlotFigure draw={() => (sets.length ? pairedSuccessPlot(sets, plotWidth(560)) : null)} deps={[content]} />
        <PlotFigure draw={() => (ev.shadow ? shadowPlot(ev.shadow, plotWidth(560)) : null)} deps={[content]} />
      </div>
      <h3>Gate decisions</h3>
      <DecisionsTable decisions={ev.decisions} promoted={ev.promoted_candidate} />
    </section>
  );
}

function figures(f: {
  parent_successes: number;
  candidate_successes: number;
  episodes: number;
  p_value: number | null;
  b: number;
  c: number;
}) {
  return `parent ${f.parent_successes}/${f.episodes} → candidate ${f.candidate_successes}/${f.episodes} (b=${f.b}, c=${f.c}, one-sided McNemar p=${pValue(f.p_value)})`;
}
