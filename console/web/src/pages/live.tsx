// Campaigns as they run: the server's event stream (/api/live, event `campaign`) folded into the
// latest phase, generation and candidate per campaign. EventSource reconnects by itself; the
// status line says whether it is connected.
import { useEffect, useState } from 'preact/hooks';
import { apiGet } from '../api/http';
import type { LiveEvent } from '../../../contract';
import { href } from '../router';

interface Latest extends LiveEvent {
  readonly received: Date;
  readonly events: number;
}

type Status = 'connecting' | 'open' | 'reconnecting' | 'closed';

export function LivePage() {
  const [latest, setLatest] = useState<ReadonlyMap<string, Latest>>(new Map());
  const [status, setStatus] = useState<Status>('connecting');

  useEffect(() => {
    const source = new EventSource('/api/live', { withCredentials: true });
    source.onopen = () => setStatus('open');
    // EventSource retries on its own after a dropped connection; an error answer (a 401 when the
    // session expired) closes it for good, so ask the session: a 401 there shows the login page
    source.onerror = () => {
      if (source.readyState !== EventSource.CLOSED) return setStatus('reconnecting');
      setStatus('closed');
      apiGet('/api/session').catch(() => {});
    };
    source.addEventListener('campaign', (event) => {
      let e: LiveEvent;
      try {
        e = JSON.parse((event as MessageEvent<string>).data) as LiveEvent;
      } catch {
        return;
      }
      setLatest((prev) => {
        const next = new Map(prev);
        next.set(e.id, { ...e, received: new Date(), events: (prev.get(e.id)?.events ?? 0) + 1 });
        return next;
      });
    });
    return () => source.close();
  }, []);

  // in a fixed order (by id): rows that jump at every event cannot be read
  const rows = [...latest.values()].sort((a, b) => a.id.localeCompare(b.id));
  return (
    <section>
      <h1>Live</h1>
      <p class="small">
        <span class={`badge live-${status}`} data-testid="live-status">
          {status === 'open' ? 'connected' : status}
        </span>{' '}
        <span class="muted">the latest state of every campaign that reported since this page opened</span>
      </p>
      {rows.length === 0 ? (
        <p class="empty card" data-testid="live-empty">
          No campaign has reported yet. A running <code>zetta evolve</code> shows up here as it moves.
        </p>
      ) : (
        <table data-testid="live">
          <thead>
            <tr>
              <th>campaign</th>
              <th>phase</th>
              <th class="num">generation</th>
              <th>candidate</th>
              <th>folder</th>
              <th>last event</th>
              <th class="num">events</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} data-testid="live-row" data-campaign-id={r.id}>
                <td>
                  <a href={href.campaign(r.id)}>
                    <code>{r.id.slice(0, 12)}</code>
                  </a>
                </td>
                <td>
                  <span class={`badge phase-${r.phase}`}>{r.phase}</span>
                </td>
                <td class="num">{r.generation ?? '—'}</td>
                <td>{r.candidate === null || r.candidate === undefined ? '—' : `k${String(r.candidate).replace(/^k/, '')}`}</td>
                <td>
                  <code>{r.dir}</code>
                </td>
                <td>{r.received.toLocaleTimeString()}</td>
                <td class="num">{r.events}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
