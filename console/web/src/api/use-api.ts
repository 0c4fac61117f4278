// Loading one GET for a page: data, error and a reload, with answers to an older path (the user
// navigated on) dropped, so a slow request never overwrites the page that is showing now.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { apiGet, errorMessage } from './http';

export interface Loaded<T> {
  readonly data: T | null;
  readonly error: string | null;
  readonly loading: boolean;
  /** Fetch again; resolves when the new answer (or error) is in place. */
  readonly reload: () => Promise<void>;
}

export function useApi<T>(path: string | null): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(path !== null);
  const latest = useRef(0);

  const load = useCallback(async () => {
    if (path === null) return;
    const ticket = ++latest.current;
    setLoading(true);
    try {
      const answer = await apiGet<T>(path);
      if (ticket !== latest.current) return;
      setData(answer);
      setError(null);
    } catch (err) {
      if (ticket !== latest.current) return;
      setError(errorMessage(err));
    } finally {
      if (ticket === latest.current) setLoading(false);
    }
  }, [path]);

  useEffect(() => {
    setData(null);
    setError(null);
    void load();
  }, [load]);

  return { data, error, loading, reload: load };
}
