// Every answer of the console API against the contract (console/contract): on the fixture's runs
// folder and skill store, each answer and the objects inside it hold every field its contract type
// requires and none it lacks, so what the server sends is what the web app is compiled against.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as F from './contract-fields.js';
import { addVariant, makeWorld, server, type World } from './fixture.js';
import { get, login, post, SseReader, type Login } from './http.js';

let w: World;
let app: FastifyInstance;
let vic: Login;

beforeAll(async () => {
  w = await makeWorld();
  app = await server(w);
  vic = await login(app, w.tokens.vic);
}, 60_000);

afterAll(async () => {
  await app?.close();
});

const answer = async (url: string, s: Login = vic): Promise<unknown> => {
  const res = await get(app, url, s);
  expect(res.statusCode, url).toBe(200);
  return res.json();
};

describe('the console API answers as its contract says', () => {
  it('sessions, logins, logouts and errors', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/login', payload: { token: w.tokens.ada } });
    F.expectFields(res.json(), F.session, 'POST /api/login');
    const ada = await login(app, w.tokens.ada);
    F.expectFields(await answer('/api/session', ada), F.session, 'GET /api/session');
    const bearer = await get(app, '/api/session', { bearer: w.tokens.vic });
    expect(F.expectFields(bearer.json(), F.session, 'GET /api/session (bearer)').csrf).toBeNull();
    F.expectFields((await post(app, '/api/logout', ada, {})).json(), F.logout, 'POST /api/logout');
    const refused = await get(app, '/api/skills/0123456789ab', vic);
    expect(refused.statusCode).toBe(404);
    F.expectFields(F.expectFields(refused.json(), F.errorBody, 'a 404').error, F.errorDetail, 'a 404 error');
  });

  it('the skill list, one skill in full, and a lifecycle move', async () => {
    const list = F.expectFields(await answer('/api/skills'), F.skillsAnswer, 'GET /api/skills');
    F.expectEach(list.skills, F.skillRow, 'skills');
    const detail = F.expectFields(await answer(`/api/skills/${w.skillId}`), F.skillDetail, 'GET /api/skills/:id');
    expectSkillRecord(detail.skill, 'skill');
    F.expectEach(detail.audit, F.auditRow, 'audit');
    F.expectEach(detail.files, F.skillFile, 'files');
    const ada = await login(app, w.tokens.ada);
    const moved = await post(app, `/api/skills/${addVariant(w, 'contract')}/approve`, ada, { reason: 'contract check' });
    expect(moved.statusCode).toBe(200);
    expectSkillRecord(F.expectFields(moved.json(), F.skillMove, 'POST approve').skill, 'moved skill');
  });

  it('the campaign list, one campaign with its report and generation files, and its episodes', async () => {
    const list = F.expectFields(await answer('/api/campaigns'), F.campaignsAnswer, 'GET /api/campaigns');
    F.expectEach(list.campaigns, F.campaignRow, 'campaigns');
    const detail = F.expectFields(await answer(`/api/campaigns/${w.campaignId}`), F.campaignDetail, 'GET /api/campaigns/:id');
    F.expectFields(detail.campaign, F.campaignRow, 'campaign');
    expectReport(detail.report);
    for (const g of F.expectEach(detail.generations, F.generationArtifacts, 'generations')) expectGeneration(g);
    const episodes = F.expectFields(await answer(`/api/campaigns/${w.campaignId}/episodes`), F.episodesAnswer, 'GET episodes');
    F.expectEach(episodes.episodes, F.episodeRef, 'episodes');
  });

  it('one episode decoded', async () => {
    const [first] = ((await answer(`/api/campaigns/${w.campaignId}/episodes`)) as { episodes: { path: string }[] }).episodes;
    const data = F.expectFields(await answer(`/api/episode?path=${encodeURIComponent(first!.path)}`), F.episodeData, 'GET /api/episode');
    F.expectFields(data.header, F.episodeHeader, 'header');
    F.expectFields(data.summary, F.episodeSummary, 'summary');
    F.expectEach(data.steps, F.episodeStep, 'steps');
  });

  it('the overview of runs and campaigns', async () => {
    const o = F.expectFields(await answer('/api/overview'), F.overview, 'GET /api/overview');
    for (const run of F.expectEach(o.runs, F.overviewRun, 'runs')) {
      for (const [name, c] of Object.entries(run.conditions as Record<string, unknown>)) {
        const condition = F.expectFields(c, F.conditionFigures, name);
        expectArms(F.expectFields(condition.macro, F.armFigures, `${name} macro`), `${name} macro`);
        for (const [task, t] of Object.entries(condition.tasks as Record<string, unknown>))
          expectArms(F.expectFields(t, F.taskArmFigures, task), task);
      }
      F.expectEach(run.evolution, F.runCampaignRef, 'evolution');
      F.expectEach(run.campaigns, F.campaignFigures, 'run campaigns');
      const final = F.expectFields(run.final, F.finalFigures, 'final');
      for (const side of ['reference', 'final'] as const)
        for (const [name, arms] of Object.entries(final[side] as Record<string, unknown>))
          expectArms(F.expectFields(arms, F.armFigures, `final ${side} ${name}`), `final ${side} ${name}`);
    }
    for (const c of F.expectEach(o.campaigns, F.campaignFigures, 'campaigns')) {
      F.expectFields(c.heldout, F.pairFigures, 'heldout');
      F.expectFields(c.confirmation, F.pairFigures, 'confirmation');
      for (const g of F.expectEach(c.generations, F.campaignGenerationFigures, 'campaign generations'))
        F.expectEach(g.heldout, F.heldoutGateFigures, 'held-out gates');
    }
  });

  it("the live stream's campaign events", async () => {
    const port = await app.listen({ host: '127.0.0.1', port: 0 }).then((url) => new URL(url).port);
    const res = await fetch(`http://127.0.0.1:${port}/api/live`, { headers: { cookie: vic.cookie } });
    const sse = new SseReader(res.body!.getReader());
    F.expectFields((await sse.next((e) => e.event === 'campaign')).data, F.liveEvent, 'a campaign event');
    await sse.close();
  });
});

function expectSkillRecord(value: unknown, where: string): void {
  const content = F.expectFields(F.expectFields(value, F.skillRecord, where).content, F.skillContent, `${where}.content`);
  F.expectFields(content.guard, F.skillGuard, 'guard');
  F.expectFields(content.provenance, F.skillProvenance, 'provenance');
  const changes = F.expectFields(content.changes, F.skillChanges, 'changes');
  F.expectFields(changes.rules, F.entryChanges, 'changes.rules');
  const evidence = F.expectFields(content.evidence, F.skillEvidence, 'evidence');
  F.expectFields(evidence.heldout, F.pairFigures, 'evidence.heldout');
  F.expectFields(evidence.confirmation, F.pairFigures, 'evidence.confirmation');
  for (const d of F.expectEach(evidence.decisions, F.gateDecision, 'decisions')) F.expectEach(d.gates, F.reportGate, 'decision gates');
}

function expectReport(value: unknown): void {
  const report = F.expectFields(value, F.campaignReport, 'report');
  F.expectFields(report.heldout, F.pairFigures, 'report.heldout');
  for (const g of F.expectEach(report.generations, F.reportGeneration, 'report.generations')) {
    for (const c of F.expectEach(g.candidates, F.reportCandidate, 'report candidates')) F.expectEach(c.gates, F.reportGate, 'report gates');
  }
}

function expectGeneration(g: Record<string, unknown>): void {
  const clusters = F.expectFields(g.clusters, F.clustersFile, 'clusters.json');
  F.expectEach(clusters.clusters, F.failureCluster, 'clusters');
  const diagnoses = F.expectFields(g.diagnoses, F.diagnosesFile, 'diagnoses.json');
  for (const d of F.expectEach(diagnoses.diagnoses, F.diagnosis, 'diagnoses')) F.expectEach(d.hypotheses, F.hypothesis, 'hypotheses');
  for (const c of F.expectEach(g.candidates, F.candidateArtifacts, 'candidates')) {
    F.expectFields(F.expectFields(c.synthesis, F.candidateSpec, 'synthesis.json').hypothesis, F.hypothesis, 'synthesis hypothesis');
    F.expectFields(c.shadow, F.shadowReport, 'shadow.json');
    const verdict = F.expectFields(c.gates, F.candidateVerdict, 'gates.json');
    for (const r of F.expectEach(verdict.gates, F.gateResult, 'gates.json gates')) F.expectFields(r.counts, F.pairCounts, 'gate counts');
    F.expectFields(verdict.critic_alone, F.criticAloneResult, 'gates.json critic_alone');
    F.expectFields(c.changes, F.skillChanges, 'candidate changes');
  }
}

function expectArms(arms: Record<string, unknown>, where: string): void {
  for (const arm of ['policy', 'critic', 'both', 'synergy']) F.expectFields(arms[arm], F.interval, `${where} ${arm}`);
}
