// Hash routing: #/overview, #/campaigns/:id, #/episode?path=…, … The server then only ever serves
// index.html at '/', and a reload keeps the page the operator was on (also across a login).
import { useEffect, useState } from 'preact/hooks';

export type Route =
  | { readonly page: 'overview' }
  | { readonly page: 'campaigns' }
  | { readonly page: 'campaign'; readonly id: string }
  | { readonly page: 'candidate'; readonly id: string; readonly generation: number; readonly k: string }
  | { readonly page: 'episode'; readonly path: string }
  | { readonly page: 'skills' }
  | { readonly page: 'skill'; readonly id: string }
  | { readonly page: 'live' }
  | { readonly page: 'not-found'; readonly hash: string };

export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#/, '') || '/overview';
  const [pathPart = '', queryPart = ''] = raw.split('?', 2);
  const parts = pathPart
    .split('/')
    .filter((p) => p !== '')
    .map(safeDecode);
  const query = new URLSearchParams(queryPart);
  const [first, second, third, fourth, fifth] = parts;
  if (parts.length === 0 || (first === 'overview' && parts.length === 1)) return { page: 'overview' };
  if (first === 'campaigns') {
    if (parts.length === 1) return { page: 'campaigns' };
    if (parts.length === 2 && second) return { page: 'campaign', id: second };
    if (parts.length === 5 && second && third === 'candidates' && fourth && fifth && /^\d+$/.test(fourth)) {
      return { page: 'candidate', id: second, generation: Number(fourth), k: fifth };
    }
  }
  if (first === 'episode' && parts.length === 1) return { page: 'episode', path: query.get('path') ?? '' };
  if (first === 'skills') {
    if (parts.length === 1) return { page: 'skills' };
    if (parts.length === 2 && second) return { page: 'skill', id: second };
  }
  if (first === 'live' && parts.length === 1) return { page: 'live' };
  return { page: 'not-found', hash: raw };
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(window.location.hash));
  useEffect(() => {
    const update = () => setRoute(parseHash(window.location.hash));
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}

/** Links, built in one place so every page spells a route the same way. */
export const href = {
  overview: () => '#/overview',
  campaigns: () => '#/campaigns',
  campaign: (id: string) => `#/campaigns/${encodeURIComponent(id)}`,
  candidate: (id: string, generation: number, k: number | string) =>
    `#/campaigns/${encodeURIComponent(id)}/candidates/${generation}/${encodeURIComponent(String(k))}`,
  episode: (path: string) => `#/episode?${new URLSearchParams({ path }).toString()}`,
  skills: () => '#/skills',
  skill: (id: string) => `#/skills/${encodeURIComponent(id)}`,
  live: () => '#/live',
};
