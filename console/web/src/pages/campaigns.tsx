// Every campaign the server knows: where it stands (phase, generation) and whether it promoted.
import { useApi } from '../api/use-api';
import type { CampaignsAnswer } from '../../../contract';
import { Await } from '../components/messages';
import { href } from '../router';

export function CampaignsPage() {
  const list = useApi<CampaignsAnswer>('/api/campaigns');
  return (
    <section>
      <h1>Campaigns</h1>
      <Await data={list.data} error={list.error} what="campaigns">
        {({ campaigns }) =>
          campaigns.length === 0 ? (
            <p class="empty card" data-testid="empty-campaigns">
              No campaigns found. Run one with <code>zetta evolve --suite SUITE --task TASK --root DIR</code> (or <code>zetta run</code>).
            </p>
          ) : (
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th>campaign</th>
                    <th>task</th>
                    <th>suite</th>
                    <th>perturbation</th>
                    <th>phase</th>
                    <th class="num">generation</th>
                    <th>promoted</th>
                  </tr>
                </thead>
                <tbody>
                  {campaigns.map((c) => (
                    <tr key={c.id} data-testid="campaign-row">
                      <td>
                        <a href={href.campaign(c.id)}>
                          <code>{c.id.slice(0, 12)}</code>
                        </a>
                        <div class="muted small">{c.dir}</div>
                      </td>
                      <td>{c.task}</td>
                      <td>{c.suite}</td>
                      <td>{c.perturbation}</td>
                      <td>
                        <span class={`badge phase-${c.phase}`}>{c.phase}</span>
                      </td>
                      <td class="num">{c.generation ?? '—'}</td>
                      <td>{c.promoted ? <span class="badge pass">promoted</span> : <span class="muted">no</span>}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Await>
    </section>
  );
}
