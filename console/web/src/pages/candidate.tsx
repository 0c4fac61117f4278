// One candidate's evidence: what it changes (its hypothesis, the rules it adds or changes, the
// fitted threshold), the gate table with successes, Wilson intervals and p-values, and its shadow
// replay (triggers vs false alarms). A promoted candidate that became a skill also shows the
// skill's full rule/program diff against the campaign's base.
import { useEffect, useState } from 'preact/hooks';
import { apiGet } from '../api/http';
import { useApi } from '../api/use-api';
import type { CandidateArtifacts, CampaignDetail, SkillChanges, SkillDetail, SkillsAnswer } from '../../../contract';
import { ChangesView } from '../components/changes-view';
import { shadowCounts, shadowPlot } from '../components/evidence-plots';
import { num, shortSha, threshold } from '../components/format';
import { fromGateResult, GateTable } from '../components/gate-table';
import { Await, ErrorMessage } from '../components/messages';
import { PlotFigure, plotWidth } from '../components/plot-figure';
import { href } from '../router';

export function CandidatePage({ id, generation, k }: { id: string; generation: number; k: string }) {
  const detail = useApi<CampaignDetail>(`/api/campaigns/${encodeURIComponent(id)}`);
  return (
    <Await data={detail.data} error={detail.error} what="the campaign">
      {(d) => {
        const wanted = k.replace(/^k/, '');
        const candidate = d.generations
          .find((g) => g.generation === generation)
          ?.candidates.find((c) => String(c.k).replace(/^k/, '') === wanted);
        if (!candidate)
          return <ErrorMessage message={`campaign ${id.slice(0, 12)} has no candidate k${wanted} in generation ${generation}`} />;
        return <CandidateView campaignId={d.campaign.id} generation={generation} candidate={candidate} />;
      }}
    </Await>
  );
}

function CandidateView({ campaignId, generation, candidate }: { campaignId: string; generation: number; candidate: CandidateArtifacts }) {
  const spec = candidate.synthesis;
  const verdict = candidate.gates;
  const shadow = shadowCounts(candidate.shadow);
  const k = String(candidate.k).replace(/^k/, '');
  return (
    <article>
      <p class="crumbs">
        <a href={href.campaigns()}>Campaigns</a> /{' '}
        <a href={href.campaign(campaignId)}>
          <code>{campaignId.slice(0, 12)}</code>
        </a>{' '}
        / generation {generation} / k{k}
      </p>
      <h1>
        Candidate <code>{spec?.id ?? `k${k}`}</code>{' '}
        {verdict ? (
          <span class={`badge ${verdict.decision}`} data-testid="candidate-decision">
            {verdict.decision}
          </span>
        ) : (
          <span class="muted">in progress</span>
        )}
      </h1>
      {verdict ? (
        <p class="lead">
          Stopped at <strong>{verdict.stage}</strong>: {verdict.reason}
        </p>
      ) : null}

      <section>
        <h2>Change</h2>
        {spec ? <SpecView spec={spec} /> : <p class="muted">Not synthesized yet.</p>}
        {candidate.changes ? (
          <>
            <h3>Rule and program diff against the parent</h3>
            <ChangesView changes={candidate.changes} />
          </>
        ) : verdict?.decision === 'promoted' && spec ? (
          <PromotedDiff campaignId={campaignId} candidateId={spec.id} />
        ) : null}
      </section>

      <section>
        <h2>Gates</h2>
        {verdict ? (
          <GateTable rows={verdict.gates.map(fromGateResult)} criticAlone={verdict.critic_alone ?? null} />
        ) : (
          <p class="muted">Not gated yet.</p>
        )}
      </section>

      <section>
        <h2>Shadow replay</h2>
        {shadow ? (
          <>
            <p>
              Over the parent's recordings, the new rules fired in time on {shadow.triggers} of {shadow.targeted_failures} targeted failures
              {candidate.shadow?.other_triggers ? ` (and on ${candidate.shadow.other_triggers} other failures)` : ''}, and on{' '}
              {shadow.false_alarms} of {shadow.successes} successes.
            </p>
            <PlotFigure testid="shadow-plot" draw={() => shadowPlot(shadow, plotWidth(640))} deps={[candidate]} />
          </>
        ) : (
          <p class="muted">No shadow replay (the candidate was unbuildable, a duplicate, or not replayed yet).</p>
        )}
      </section>
    </article>
  );
}

function SpecView({ spec }: { spec: NonNullable<CandidateArtifacts['synthesis']> }) {
  const h = spec.hypothesis;
  return (
    <>
      {spec.unbuildable ? <p class="message error">Unbuildable: {spec.unbuildable}</p> : null}
      <dl class="facts">
        <dt>template</dt>
        <dd>
          <code>{h.template}</code> ({h.layer} layer, score {num(h.score)})
        </dd>
        <dt>mechanism</dt>
        <dd>{h.mechanism}</dd>
        <dt>rationale</dt>
        <dd>{h.rationale || '—'}</dd>
        {h.rule_id ? (
          <>
            <dt>blamed rule</dt>
            <dd>
              <code>{h.rule_id}</code>
            </dd>
          </>
        ) : null}
        {h.program_id ? (
          <>
            <dt>blamed program</dt>
            <dd>
              <code>{h.program_id}</code>
            </dd>
          </>
        ) : null}
        <dt>targets clusters</dt>
        <dd>
          {(spec.pooled ?? [spec.cluster]).map((c) => (
            <code key={c} class="chip">
              {c}
            </code>
          ))}
        </dd>
        <dt>rules added or changed</dt>
        <dd>
          {spec.changed_rules.length
            ? spec.changed_rules.map((r) => (
                <code key={r} class="chip">
                  {r}
                </code>
              ))
            : 'none'}
        </dd>
        {spec.fit ? (
          <>
            <dt>fitted threshold</dt>
            <dd>
              θ = {threshold(spec.fit.theta)}, dwell {spec.fit.dwell} {spec.fit.dwell === 1 ? 'step' : 'steps'} (best of {spec.fit.tried}{' '}
              tried: {spec.fit.triggers}/{spec.fit.targeted} triggers, {spec.fit.false_alarms}/{spec.fit.successes} false alarms)
            </dd>
          </>
        ) : null}
        {spec.tolerances ? (
          <>
            <dt>refitted tolerances</dt>
            <dd>
              {Object.entries(spec.tolerances).map(([name, v]) => (
                <code key={name} class="chip">
                  {name} = {num(v, 4)}
                </code>
              ))}
            </dd>
          </>
        ) : null}
        <dt>bundle</dt>
        <dd>
          <code>{shortSha(spec.parent_sha256)}</code> → <code>{shortSha(spec.bundle_sha256)}</code>
        </dd>
      </dl>
    </>
  );
}

/** The skill a promoted candidate became, if it is in the store: its diff against the base. */
function PromotedDiff({ campaignId, candidateId }: { campaignId: string; candidateId: string }) {
  const [found, setFound] = useState<{ id: string; changes: SkillChanges } | null | 'none'>(null);
  useEffect(() => {
    let live = true;
    (async () => {
      const { skills } = await apiGet<SkillsAnswer>('/api/skills');
      for (const s of skills.filter((row) => row.campaign_id === campaignId)) {
        const d = await apiGet<SkillDetail>(`/api/skills/${encodeURIComponent(s.id)}`);
        if (d.skill.content.evidence.promoted_candidate === candidateId) return { id: s.id, changes: d.skill.content.changes };
      }
      return 'none' as const;
    })().then(
      (r) => live && setFound(r),
      () => live && setFound('none'),
    );
    return () => {
      live = false;
    };
  }, [campaignId, candidateId]);
  if (found === null) return null;
  if (found === 'none')
    return (
      <p class="muted">
        Not in the skill store, so its full rule diff is not shown (add it with <code>zetta skills add CAMPAIGN_DIR</code>).
      </p>
    );
  return (
    <div>
      <h3>
        Rule and program diff (skill{' '}
        <a href={href.skill(found.id)}>
          <code>{found.id}</code>
        </a>
        )
      </h3>
      <ChangesView changes={found.changes} />
    </div>
  );
}
