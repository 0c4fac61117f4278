// Login: the operator's token in, a session (cookie) and CSRF token out. A bad token (401) or too
// many tries (429) is shown here, not treated as a lost session.
import { useState } from 'preact/hooks';
import { apiPost, errorMessage } from '../api/http';
import type { LoginAnswer, LoginBody, Session } from '../../../contract';
import { ErrorMessage } from '../components/messages';

export function LoginPage({ onSignedIn }: { onSignedIn: (s: Session) => void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    try {
      const body: LoginBody = { token };
      const session = await apiPost<LoginAnswer>('/api/login', body, { expectUnauthorized: true });
      setError(null);
      onSignedIn(session);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="page login">
      <h1>Zetta operator console</h1>
      <form class="card" onSubmit={submit}>
        <label for="token">Access token</label>
        <input
          id="token"
          type="password"
          autocomplete="current-password"
          data-testid="token"
          value={token}
          onInput={(e) => setToken(e.currentTarget.value)}
        />
        <button type="submit" data-testid="login" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <ErrorMessage message={error} />
      </form>
    </main>
  );
}
