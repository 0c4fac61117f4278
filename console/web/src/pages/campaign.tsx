// One campaign: its standing and claim (held-out, confirmation), then per generation the failure
// clusters (sizes, example episodes to open) and the candidates with their decision and stage.
import { useApi } from '../api/use-api';
import type { CampaignDetail, CampaignReport, EpisodeRef, EpisodesAnswer, GenerationArtifacts } from '../../../contract';
import { pValue, shortSha } from '../components/format';
import { Await } from '../components/messages';
import { href } from '../router';

/** Example episodes shown per cluster (the medoid first). */
const EXAMPLES = 4;

export function CampaignPage({ id }: { id: string }) {
  const detail = useApi<CampaignDetail>(`/api/campaigns/${encodeURIComponent(id)}`);
  const episodes = useApi<EpisodesAnswer>(`/api/campaigns/${encodeURIComponent(id)}/episodes`);
  return (
    <Await data={detail.data} error={detail.error} what="the campaign">
      {(d) => <CampaignView detail={d} episodes={episodes.data?.episodes ?? []} />}
    </Await>
  );
}

function CampaignView({ detail, episodes }: { detail: CampaignDetail; episodes: readonly EpisodeRef[] }) {
  const { campaign, report } = detail;
  return (
    <article>
      <p class="crumbs">
        <a href={href.campaigns()}>Campaigns</a> / <code>{campaign.id.slice(0, 12)}</code>
      </p>
      <h1>
        {campaign.task} <span class="muted">under {campaign.perturbation}</span>
      </h1>
      <dl class="facts">
        <dt>phase</dt>
        <dd>
          <span class={`badge phase-${campaign.phase}`} data-testid="campaign-phase">
            {campaign.phase}
          </span>
        </dd>
        <dt>generation</dt>
        <dd>{campaign.generation ?? '—'}</dd>
        <dt>suite</dt>
        <dd>{campaign.suite}</dd>
        <dt>folder</dt>
        <dd>
          <code>{campaign.dir}</code>
        </dd>
        <dt>promoted</dt>
        <dd>{campaign.promoted ? 'yes' : 'no'}</dd>
      </dl>
      {report ? <ReportSummary report={report} /> : <p class="muted">No report yet: the campaign has not finished.</p>}
      {detail.generations.length === 0 ? <p class="muted">No generation has started.</p> : null}
      {detail.generations.map((g) => (
        <Generation key={g.generation} campaignId={campaign.id} generation={g} report={report} episodes={episodes} />
      ))}
    </article>
  );
}

function ReportSummary({ report }: { report: CampaignReport }) {
  const h = report.heldout;
  const c = report.confirmation;
  return (
    <section class="card">
      <h2>Claim</h2>
      <ul class="figures">
        <li>
          Policy <code>{report.policy}</code>, diagnoser {report.diagnoser}, α {report.gates.alpha} (first held-out test of a generation at
          α {pValue(report.heldout_alpha)}, a second at half that), min gain {report.gates.min_gain}.
        </li>
        <li>
          Base <code>{report.base_bundle.name}</code> ({shortSha(report.base_bundle.sha256)}) → final{' '}
          <code>{report.final_bundle.name}</code> ({shortSha(report.final_bundle.sha256)}).
        </li>
        <li>
          Held-out: {h.parent_successes}/{h.episodes} → {h.candidate_successes}/{h.episodes}, p={pValue(h.p_value)}.
        </li>
        <li>
          {c
            ? `Confirmation: ${c.parent_successes}/${c.episodes} → ${c.candidate_successes}/${c.episodes}, p=${pValue(c.p_value)}.`
            : 'No confirmation run.'}
        </li>
      </ul>
    </section>
  );
}

function Generation({
  campaignId,
  generation,
  report,
  episodes,
}: {
  campaignId: string;
  generation: GenerationArtifacts;
  report: CampaignReport | null;
  episodes: readonly EpisodeRef[];
}) {
  const g = generation.generation;
  const row = report?.generations.find((r) => r.generation === g);
  const clusters = generation.clusters?.clusters ?? [];
  // dev rollouts of generation g live in split dev-g<g> (evolution/campaign/generation.ts)
  const devEpisodes = new Map(episodes.filter((e) => e.split === `dev-g${g}`).map((e) => [e.seed, e]));
  return (
    <section class="generation" data-testid="generation">
      <h2>Generation {g}</h2>
      {row ? (
        <p class="muted">
          dev: {row.dev.successes}/{row.dev.episodes} successes
          {row.dev.infra_failures ? `, ${row.dev.infra_failures} infrastructure failures` : ''}; parent {shortSha(row.parent_sha256)}
          {row.promoted ? (
            <>
              ; promoted <code>{row.promoted}</code>
            </>
          ) : null}
        </p>
      ) : null}
      <h3>Failure clusters</h3>
      {generation.clusters === null ? (
        <p class="muted">Not clustered yet.</p>
      ) : clusters.length === 0 ? (
        <p class="muted">No task failures to learn from.</p>
      ) : (
        <table data-testid="clusters">
          <thead>
            <tr>
              <th>cluster</th>
              <th class="num">size</th>
              <th>first missing milestone</th>
              <th>diagnosis</th>
              <th>example episodes</th>
            </tr>
          </thead>
          <tbody>
            {clusters.map((c) => {
              const diagnosis = (row?.diagnoses ?? generation.diagnoses?.diagnoses ?? []).find((d) => d.cluster === c.id);
              const seeds = [c.medoid_seed, ...c.seeds.filter((s) => s !== c.medoid_seed)].slice(0, EXAMPLES);
              return (
                <tr key={c.id}>
                  <td>
                    <code>{c.id}</code>
                  </td>
                  <td class="num">{c.size}</td>
                  <td>{c.first_missing ?? 'none (stalled at the end)'}</td>
                  <td>{diagnosis ? `${diagnosis.layer}: ${diagnosis.mechanism}` : <span class="muted">—</span>}</td>
                  <td>
                    {seeds.map((seed) => {
                      const ep = devEpisodes.get(seed);
                      const label = seed === c.medoid_seed ? `seed ${seed} (medoid)` : `seed ${seed}`;
                      return ep ? (
                        <a key={seed} class="chip" href={href.episode(ep.path)} data-testid="episode-link">
                          {label}
                        </a>
                      ) : (
                        <span key={seed} class="chip muted">
                          {label}
                        </span>
                      );
                    })}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <h3>Candidates</h3>
      {generation.candidates.length === 0 ? (
        <p class="muted">No candidate yet.</p>
      ) : (
        <table data-testid="candidates">
          <thead>
            <tr>
              <th>k</th>
              <th>candidate</th>
              <th>change</th>
              <th>decision</th>
              <th>stopped at</th>
              <th>reason</th>
            </tr>
          </thead>
          <tbody>
            {generation.candidates.map((c) => {
              const k = String(c.k).replace(/^k/, '');
              return (
                <tr key={k} data-testid="candidate-row">
                  <td>
                    <a href={href.candidate(campaignId, g, k)}>k{k}</a>
                  </td>
                  <td>
                    <code>{c.synthesis?.id ?? '—'}</code>
                  </td>
                  <td>
                    {c.synthesis ? (
                      `${c.synthesis.hypothesis.template}: ${c.synthesis.hypothesis.mechanism}`
                    ) : (
                      <span class="muted">synthesizing…</span>
                    )}
                  </td>
                  <td>
                    {c.gates ? <span class={`badge ${c.gates.decision}`}>{c.gates.decision}</span> : <span class="muted">in progress</span>}
                  </td>
                  <td>{c.gates?.stage ?? '—'}</td>
                  <td class="reason">{c.gates?.reason ?? ''}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
