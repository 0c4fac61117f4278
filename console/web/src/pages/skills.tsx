// The skill library: every skill grouped by state, pending first (what waits for an approver).
// With no skills at all, how to get one.
import { useApi } from '../api/use-api';
import type { SkillRow, SkillsAnswer, SkillState } from '../../../contract';
import { when } from '../components/format';
import { Await } from '../components/messages';
import { href } from '../router';

const GROUPS: ReadonlyArray<{ state: SkillState; title: string; hint: string }> = [
  { state: 'pending', title: 'Pending', hint: 'waiting for an approver' },
  { state: 'active', title: 'Active', hint: 'loaded by runs with --skills active' },
  { state: 'retired', title: 'Retired', hint: 'no longer loaded' },
  { state: 'rejected', title: 'Rejected', hint: 'never loaded' },
];

export function SkillsPage() {
  const list = useApi<SkillsAnswer>('/api/skills');
  return (
    <section>
      <h1>Skills</h1>
      <Await data={list.data} error={list.error} what="skills">
        {({ skills }) => (skills.length === 0 ? <EmptySkills /> : <SkillGroups skills={skills} />)}
      </Await>
    </section>
  );
}

function SkillGroups({ skills }: { skills: readonly SkillRow[] }) {
  return (
    <>
      {GROUPS.map((g) => {
        const rows = skills.filter((s) => s.state === g.state);
        if (rows.length === 0) return null;
        return (
          <section key={g.state} class="group" data-testid={`skills-${g.state}`}>
            <h2>
              {g.title} <span class="count">{rows.length}</span> <span class="muted small">{g.hint}</span>
            </h2>
            <div class="table-wrap">
              <table class="skills-table">
                <colgroup>
                  <col class="c-name" />
                  <col class="c-id" />
                  <col class="c-world" />
                  <col class="c-task" />
                  <col class="c-campaign" />
                  <col class="c-updated" />
                </colgroup>
                <thead>
                  <tr>
                    <th>skill</th>
                    <th>id</th>
                    <th>world / suite</th>
                    <th>from task</th>
                    <th>campaign</th>
                    <th>updated</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((s) => (
                    <tr
                      key={s.id}
                      class="clickable"
                      data-testid="skill-row"
                      data-skill-id={s.id}
                      data-state={s.state}
                      onClick={openRow(s.id)}
                    >
                      <td>
                        <a href={href.skill(s.id)}>{s.name}</a>
                        {s.privileged ? (
                          <span class="badge privileged" title="reads simulator ground truth">
                            privileged
                          </span>
                        ) : null}
                      </td>
                      <td>
                        <code>{s.id}</code>
                      </td>
                      <td>
                        {s.world} / {s.suite}
                      </td>
                      <td>{s.source_task}</td>
                      <td>
                        <a href={href.campaign(s.campaign_id)}>
                          <code>{s.campaign_id.slice(0, 12)}</code>
                        </a>
                      </td>
                      <td>{when(s.updated_at)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        );
      })}
    </>
  );
}

/** The whole row opens the skill; a click on a link inside it (the campaign) goes where that link goes. */
function openRow(id: string) {
  return (event: MouseEvent) => {
    if ((event.target as Element | null)?.closest('a')) return;
    window.location.hash = href.skill(id);
  };
}

function EmptySkills() {
  return (
    <div class="empty card" data-testid="empty-skills">
      <h2>No skills yet</h2>
      <p>
        A skill is a critic bundle that an evolution campaign promoted after it passed every gate. To get one, run a campaign that promotes
        into the store:
      </p>
      <pre>zetta evolve --suite SUITE --task TASK --perturb PERTURBATION --root CAMPAIGN_DIR --promote-to runs/skills.db</pre>
      <p>or add a finished campaign's promotion:</p>
      <pre>zetta skills add CAMPAIGN_DIR</pre>
      <p class="muted">It arrives as pending; an approver then approves or rejects it here.</p>
    </div>
  );
}
