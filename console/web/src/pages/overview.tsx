// The headline: for each run and perturbation, the three governance arms per task and their
// synergy; then what the runs' campaigns achieved on held-out and confirmation seeds.
import { useApi } from '../api/use-api';
import type { FinalFigures, Overview, OverviewRun } from '../../../contract';
import { pValue, pct, points, when } from '../components/format';
import { Await } from '../components/messages';
import { armsPlot, campaignArrowsPlot, finalPlot, synergyPlot } from '../components/overview-plots';
import { PlotFigure, plotWidth } from '../components/plot-figure';
import { href } from '../router';

export function OverviewPage() {
  const overview = useApi<Overview>('/api/overview');
  return (
    <section>
      <h1>Overview</h1>
      <Await data={overview.data} error={overview.error} what="the runs">
        {({ runs }) =>
          runs.length === 0 ? (
            <p class="empty card" data-testid="empty-overview">
              No runs yet. <code>zetta run</code> writes one under <code>runs/</code>.
            </p>
          ) : (
            runs.map((run) => <RunView key={run.out} run={run} />)
          )
        }
      </Await>
    </section>
  );
}

function RunView({ run }: { run: OverviewRun }) {
  return (
    <section class="run" data-testid="run">
      <h2>
        <code>{run.out}</code> <span class="muted small">started {when(run.started)}</span>
      </h2>
      {Object.entries(run.conditions).map(([perturbation, c]) => (
        <section key={perturbation} class="condition">
          <h3>
            {perturbation}{' '}
            <span class="muted small">
              macro: policy {pct(c.macro.policy.value)}, critic {pct(c.macro.critic.value)}, both {pct(c.macro.both.value)}, synergy{' '}
              {points(c.macro.synergy.value)} points ({points(c.macro.synergy.low)} to {points(c.macro.synergy.high)})
            </span>
          </h3>
          <div class="two-col">
            <figure class="panel">
              <figcaption>Success per task: policy alone, critic alone (best trivial policy), both, with 95% intervals</figcaption>
              <PlotFigure testid="arms-plot" draw={() => armsPlot(c.tasks, plotWidth(620))} deps={[c]} />
            </figure>
            <figure class="panel">
              <figcaption>Synergy = both − max(policy alone, critic alone), with paired-bootstrap 95% intervals</figcaption>
              <PlotFigure testid="synergy-plot" draw={() => synergyPlot(c.tasks, c.macro, plotWidth(440))} deps={[c]} />
            </figure>
          </div>
        </section>
      ))}
      {run.final ? <FinalView final={run.final} /> : null}
      {run.campaigns.length > 0 ? (
        <section>
          <h3>Campaigns</h3>
          <PlotFigure
            draw={() =>
              campaignArrowsPlot(
                run.campaigns.map((c) => ({ label: `${c.task} / ${c.perturbation}`, heldout: c.heldout, confirmation: c.confirmation })),
                plotWidth(),
              )
            }
            deps={[run]}
          />
          <table>
            <thead>
              <tr>
                <th>campaign</th>
                <th>task</th>
                <th>perturbation</th>
                <th>held-out parent → candidate</th>
                <th>confirmation parent → candidate</th>
              </tr>
            </thead>
            <tbody>
              {run.campaigns.map((c) => (
                <tr key={c.id}>
                  <td>
                    <a href={href.campaign(c.id)}>
                      <code>{c.id.slice(0, 12)}</code>
                    </a>
                  </td>
                  <td>{c.task}</td>
                  <td>{c.perturbation}</td>
                  <td>
                    {c.heldout
                      ? `${c.heldout.parent_successes}/${c.heldout.episodes} → ${c.heldout.candidate_successes}/${c.heldout.episodes} (p=${pValue(c.heldout.p_value)})`
                      : '—'}
                  </td>
                  <td>
                    {c.confirmation
                      ? `${c.confirmation.parent_successes}/${c.confirmation.episodes} → ${c.confirmation.candidate_successes}/${c.confirmation.episodes} (p=${pValue(c.confirmation.p_value)})`
                      : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
    </section>
  );
}

/** The final system beside the default, at seeds that chose nothing in the run (older runs: the governance seeds). */
function FinalView({ final }: { final: FinalFigures }) {
  const system = final.from_scratch ? 'evolved from the empty bundle' : 'default critic + skills';
  const seeds =
    final.first_seed === null
      ? 'at the governance seeds, which also chose the campaigns'
      : `at seeds ${final.first_seed}–${final.first_seed + final.episodes_per_task - 1} per task, which chose nothing in the run`;
  return (
    <section class="final" data-testid="final">
      <h3>
        Final system ({system}, {final.active_skills.length} active skill{final.active_skills.length === 1 ? '' : 's'}){' '}
        <span class="muted small">
          {seeds}: mean synergy {points(final.final_mean_synergy)} points
          {final.reference ? `; the default ${points(final.reference_mean_synergy)} points` : ''}
        </span>
      </h3>
      <figure class="panel">
        <figcaption>Macro success per perturbation: the final system beside the default at the same seeds, with 95% intervals</figcaption>
        <PlotFigure testid="final-plot" draw={() => finalPlot(final.reference, final.final, plotWidth(720))} deps={[final]} />
      </figure>
    </section>
  );
}
