// One skill: what it is and does, where it applies, why it was promoted, where it came from, and
// who moved it when and why. An approver acts on it here; after every action it is loaded again.
import { useApi } from '../api/use-api';
import type { AuditRow, ReachRow, Session, SkillDetail } from '../../../contract';
import { ChangesView } from '../components/changes-view';
import { conditionText } from '../components/rule-text';
import { shortSha, when } from '../components/format';
import { Await } from '../components/messages';
import { href } from '../router';
import { SkillActions } from './skill-actions';
import { SkillEvidence } from './skill-evidence';

export function SkillPage({ id, session }: { id: string; session: Session }) {
  const detail = useApi<SkillDetail>(`/api/skills/${encodeURIComponent(id)}`);
  return (
    <Await data={detail.data} error={detail.error} what="the skill">
      {(d) => <SkillView detail={d} session={session} reload={detail.reload} />}
    </Await>
  );
}

function SkillView({ detail, session, reload }: { detail: SkillDetail; session: Session; reload: () => Promise<void> }) {
  const { skill, audit, files, changes_text, reach } = detail;
  const c = skill.content;
  return (
    <article class="skill">
      <p class="crumbs">
        <a href={href.skills()}>Skills</a> / <code>{skill.id}</code>
      </p>
      <h1>
        {c.name}{' '}
        <span class={`badge state-${skill.state}`} data-testid="skill-state">
          {skill.state}
        </span>
      </h1>
      <p class="lead" data-testid="skill-description">
        {c.description}
      </p>
      <p class="muted small">
        created {when(skill.created_at)} · updated {when(skill.updated_at)} · content {shortSha(skill.content_sha256)}
      </p>

      <SkillActions skillId={skill.id} state={skill.state} session={session} onChanged={reload} />

      <section>
        <h2>Where it applies</h2>
        <dl class="facts">
          <dt>world</dt>
          <dd>{c.guard.world}</dd>
          <dt>suite</dt>
          <dd>{c.guard.tags.suite}</dd>
          <dt>source task</dt>
          <dd>{c.guard.tags.source_task}</dd>
          <dt>privileged</dt>
          <dd>{c.guard.privileged ? 'yes: reads simulator ground truth; only a run that authorizes it loads it' : 'no'}</dd>
          <dt>features read</dt>
          <dd>
            {c.guard.features.length
              ? c.guard.features.map((f) => (
                  <code key={f} class="chip">
                    {f}
                  </code>
                ))
              : '—'}
          </dd>
          <dt>conditions</dt>
          <dd>{c.guard.conditions.length ? c.guard.conditions.map(conditionText).join(' and ') : 'none'}</dd>
        </dl>
        <ReachTable rows={reach} suite={c.guard.tags.suite} />
      </section>

      <section>
        <h2>Change</h2>
        {changes_text.length ? (
          <ul class="change-list" data-testid="changes">
            {changes_text.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ul>
        ) : (
          <p class="muted">No change listed.</p>
        )}
        <details>
          <summary>Rules and programs in full</summary>
          <ChangesView changes={c.changes} />
        </details>
      </section>

      <SkillEvidence content={c} />

      <section>
        <h2>Provenance</h2>
        <dl class="facts mono">
          <dt>code version</dt>
          <dd>{c.provenance.code_version}</dd>
          <dt>bundle</dt>
          <dd>{c.provenance.bundle_sha256}</dd>
          <dt>manifest</dt>
          <dd>{c.provenance.manifest_sha256}</dd>
          <dt>report</dt>
          <dd>{c.provenance.report_sha256}</dd>
          <dt>evidence</dt>
          <dd>{c.provenance.evidence_sha256}</dd>
          {Object.entries(c.provenance.rollouts).map(([path, sha]) => [<dt key={`t${path}`}>{path}</dt>, <dd key={`d${path}`}>{sha}</dd>])}
        </dl>
        <h3>Bundle files</h3>
        <table>
          <thead>
            <tr>
              <th>file</th>
              <th class="num">bytes</th>
              <th>sha256</th>
            </tr>
          </thead>
          <tbody>
            {files.map((f) => (
              <tr key={f.name}>
                <td>{f.name}</td>
                <td class="num">{f.bytes}</td>
                <td>
                  <code>{f.sha256}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section>
        <h2>Audit log</h2>
        <AuditLog rows={audit} />
      </section>
    </article>
  );
}

/** Where reach trials decided: the tasks it loads on (and those refused), whatever its suite. */
function ReachTable({ rows, suite }: { rows: readonly ReachRow[]; suite: string }) {
  if (rows.length === 0) return <p class="muted small">No reach trial yet: it loads on the tasks of its suite ({suite}).</p>;
  const loads = rows.filter((r) => r.loads).length;
  return (
    <>
      <h3>Reach trials</h3>
      <p class="muted small">
        Loads on {loads} of {rows.length} tasks tried (with and without it at paired development seeds, under{' '}
        {rows[0]!.perturbations.join(', ')}); where a trial ran it decides, elsewhere its suite does.
      </p>
      <table data-testid="reach">
        <thead>
          <tr>
            <th>task</th>
            <th>loads</th>
            <th class="num">without → with</th>
            <th class="num">rescued</th>
            <th class="num">broken</th>
            <th class="num">critic alone</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.task} data-testid="reach-row" title={r.reason}>
              <td>{r.task}</td>
              <td>{r.loads ? <b>yes</b> : 'no'}</td>
              <td class="num">
                {r.without} → {r.with} of {r.episodes}
              </td>
              <td class="num">{r.rescued}</td>
              <td class="num">{r.broken}</td>
              <td class="num">{Math.round(100 * r.critic_alone)}%</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function AuditLog({ rows }: { rows: readonly AuditRow[] }) {
  return (
    <ol class="audit" data-testid="audit">
      {rows.map((r) => (
        <li key={r.seq} data-testid="audit-row">
          <span class="when">{when(r.at)}</span> <strong class="actor">{r.actor}</strong>{' '}
          <span class="transition">
            {r.from_state ?? 'created'} → {r.to_state}
          </span>
          {r.reason ? <span class="reason">: {r.reason}</span> : null}
        </li>
      ))}
    </ol>
  );
}
