// The header: where to go, who is signed in with which role, and the way out.
import type { Session } from '../../../contract';
import { href, type Route } from '../router';

const SECTIONS: ReadonlyArray<{ label: string; link: string; pages: readonly Route['page'][] }> = [
  { label: 'Overview', link: href.overview(), pages: ['overview'] },
  { label: 'Campaigns', link: href.campaigns(), pages: ['campaigns', 'campaign', 'candidate', 'episode'] },
  { label: 'Skills', link: href.skills(), pages: ['skills', 'skill'] },
  { label: 'Live', link: href.live(), pages: ['live'] },
];

export function Header({ session, route, onLogout }: { session: Session; route: Route; onLogout: () => void }) {
  return (
    <header class="top">
      <a class="brand" href={href.overview()}>
        Zetta console
      </a>
      <nav aria-label="sections">
        {SECTIONS.map((s) => (
          <a key={s.label} href={s.link} aria-current={s.pages.includes(route.page) ? 'page' : undefined}>
            {s.label}
          </a>
        ))}
      </nav>
      <div class="who">
        <span data-testid="user-name">{session.name}</span>
        <span class={`badge role-${session.role}`} data-testid="user-role">
          {session.role}
        </span>
        <button type="button" class="secondary" data-testid="logout" onClick={onLogout}>
          Log out
        </button>
      </div>
    </header>
  );
}
