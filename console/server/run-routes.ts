// What the runs folder holds, read-only: campaigns, their generations and episodes, one episode
// decoded, and the overview of `zetta run` reports. Every path a client names is resolved inside
// runs (run-files.ts) before anything is opened. Answers are the API contract's types.
import { existsSync, statSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { EpisodeFileError } from '../../zinfra/recording/episode-reader.js';
import type { CampaignDetail, CampaignsAnswer, EpisodeData, EpisodesAnswer, Overview } from '../contract/index.js';
import { badRequest, notFound } from './api-error.js';
import { campaignDetail, campaignEpisodes } from './campaign-detail.js';
import { findCampaign, listCampaigns, type CampaignRef } from './campaigns.js';
import { episodeView } from './episode-view.js';
import { overview } from './overview.js';
import { resolveInside } from './run-files.js';
import type { RunReportReader } from './run-reports.js';

export function runRoutes(app: FastifyInstance, runs: string, readRunReport: RunReportReader): void {
  const viewer = { config: { access: 'viewer' as const } };

  app.get('/api/campaigns', viewer, async (): Promise<CampaignsAnswer> => ({ campaigns: listCampaigns(runs).map((c) => c.listing) }));

  app.get<{ Params: { id: string } }>('/api/campaigns/:id', viewer, async (request): Promise<CampaignDetail> => {
    const c = campaign(runs, request.params.id);
    return campaignDetail(runs, c.root, c.listing);
  });

  app.get<{ Params: { id: string } }>('/api/campaigns/:id/episodes', viewer, async (request): Promise<EpisodesAnswer> => {
    const c = campaign(runs, request.params.id);
    return { episodes: campaignEpisodes(runs, c.root) };
  });

  app.get<{ Querystring: { path?: unknown } }>('/api/episode', viewer, async (request): Promise<EpisodeData> => {
    const rel = request.query.path;
    if (typeof rel !== 'string' || rel === '') throw badRequest('give the episode as ?path=<path relative to runs>.mcap');
    const abs = resolveInside(runs, rel);
    if (abs === null || !rel.endsWith('.mcap') || !abs.endsWith('.mcap'))
      throw badRequest(`${rel}: not an .mcap file inside the runs folder`);
    if (!existsSync(abs) || !statSync(abs).isFile()) throw notFound(`no episode ${rel}`);
    try {
      return await episodeView(abs);
    } catch (err) {
      if (err instanceof EpisodeFileError) throw badRequest(err.message.replace(abs, rel));
      throw err;
    }
  });

  app.get('/api/overview', viewer, async (): Promise<Overview> => overview(runs, readRunReport));
}

function campaign(runs: string, id: string): CampaignRef {
  const c = findCampaign(runs, id);
  if (!c) throw notFound(`no campaign "${id}" under the runs folder`);
  return c;
}
