// The console shell: finds out who is signed in (GET /api/session), shows the login page while
// nobody is, and otherwise the header and the page the hash names. A 401 from any later call drops
// the session, so the login page comes back and, once signed in, the same page again.
import { useEffect, useState } from 'preact/hooks';
import { apiGet, apiPost, errorMessage, setCsrfToken, setUnauthorizedHandler } from './api/http';
import type { Session } from '../../contract';
import { Header } from './components/header';
import { ErrorMessage } from './components/messages';
import { CampaignPage } from './pages/campaign';
import { CampaignsPage } from './pages/campaigns';
import { CandidatePage } from './pages/candidate';
import { EpisodePage } from './pages/episode';
import { LivePage } from './pages/live';
import { LoginPage } from './pages/login';
import { OverviewPage } from './pages/overview';
import { SkillPage } from './pages/skill';
import { SkillsPage } from './pages/skills';
import { href, useRoute, type Route } from './router';

type SessionState =
  | { readonly status: 'checking' }
  | { readonly status: 'signed-out' }
  | { readonly status: 'signed-in'; readonly session: Session };

export function App() {
  const [state, setState] = useState<SessionState>({ status: 'checking' });
  const [logoutError, setLogoutError] = useState<string | null>(null);
  const route = useRoute();

  const signIn = (session: Session) => {
    setCsrfToken(session.csrf);
    setState({ status: 'signed-in', session });
  };
  const signOut = () => {
    setCsrfToken(null);
    setState({ status: 'signed-out' });
  };

  useEffect(() => {
    setUnauthorizedHandler(signOut);
    apiGet<Session>('/api/session').then(signIn, signOut);
  }, []);

  const logout = async () => {
    try {
      await apiPost('/api/logout');
      setLogoutError(null);
      signOut();
    } catch (err) {
      setLogoutError(errorMessage(err));
    }
  };

  if (state.status === 'checking')
    return (
      <main class="page">
        <p class="muted">Checking the session…</p>
      </main>
    );
  if (state.status === 'signed-out') return <LoginPage onSignedIn={signIn} />;
  const { session } = state;
  return (
    <>
      <Header session={session} route={route} onLogout={logout} />
      <main class="page">
        <ErrorMessage message={logoutError} />
        <Page route={route} session={session} />
      </main>
    </>
  );
}

function Page({ route, session }: { route: Route; session: Session }) {
  switch (route.page) {
    case 'overview':
      return <OverviewPage />;
    case 'campaigns':
      return <CampaignsPage />;
    case 'campaign':
      return <CampaignPage id={route.id} />;
    case 'candidate':
      return <CandidatePage id={route.id} generation={route.generation} k={route.k} />;
    case 'episode':
      return <EpisodePage path={route.path} />;
    case 'skills':
      return <SkillsPage />;
    case 'skill':
      return <SkillPage id={route.id} session={session} />;
    case 'live':
      return <LivePage />;
    case 'not-found':
      return (
        <section>
          <h1>Not found</h1>
          <p>
            No page at <code>#{route.hash}</code>. Go to the <a href={href.overview()}>overview</a>.
          </p>
        </section>
      );
  }
}
