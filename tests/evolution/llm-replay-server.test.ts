// The LLM diagnoser against a local HTTP server (node:http on 127.0.0.1) that replays recorded
// chat-completion responses: valid output, invalid output retried, a clear error after the last
// attempt, and the API key never written to any artifact of a campaign.
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LlmDiagnosisError, llmDiagnoser, runCampaign } from '../../evolution/index.js';
import type { ClusterEvidence } from '../../evolution/diagnosis/evidence.js';
import { diagnoseWithLlm } from '../../evolution/diagnosis/llm.js';
import { TASK, syntheticCampaignOptions } from './synthetic.js';

const RECORDED = JSON.parse(readFileSync(new URL('./fixtures/llm-recorded.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const KEY = 'sk-test-7f3a9c1e5b2d4068a1c3e5f7';

type Reply = keyof typeof RECORDED | 500;

interface Replay {
  readonly url: string;
  readonly requests: Array<{ headers: IncomingHttpHeaders; body: { model: string; messages: Array<{ role: string; content: string }> } }>;
  close(): Promise<void>;
}

/** Answers each request with the next scripted reply (the last one repeats). */
async function replayServer(script: readonly Reply[]): Promise<Replay> {
  const requests: Replay['requests'] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw);
      requests.push({ headers: req.headers, body });
      const reply = script[Math.min(requests.length - 1, script.length - 1)]!;
      if (req.url !== '/v1/chat/completions' || reply === 500) {
        res.writeHead(reply === 500 ? 500 : 404).end('{"error":"replayed failure"}');
        return;
      }
      const cluster = /"cluster": "(c\d+)"/.exec(body.messages[1].content)?.[1] ?? 'c1';
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(RECORDED[reply]).replaceAll('CLUSTER_ID', cluster));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, requests, close: () => new Promise((r) => server.close(() => r())) };
}

const evidence = {
  cluster: 'c1',
  task: TASK,
  milestones: ['a.reached'],
  first_missing: 'a.reached',
  size: 3,
} as unknown as ClusterEvidence;
const settings = (url: string) => ({ baseUrl: url, model: 'recorded-model', apiKey: KEY, backoffMs: 1 });
let open: Replay | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

describe('LLM diagnoser against a replay server', () => {
  it('turns a valid recorded answer into a diagnosis, sending the key only as a header', async () => {
    open = await replayServer(['valid']);
    const { diagnosis, transcript } = await diagnoseWithLlm(evidence, settings(open.url));
    expect(diagnosis.layer).toBe('planning');
    expect(diagnosis.hypotheses.map((h) => h.template)).toEqual(['stall', 'deadline']);
    expect(open.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(open.requests[0]!.body.model).toBe('recorded-model');
    expect(JSON.stringify(transcript)).not.toContain(KEY);
  });

  it('sends an invalid answer back with the validation error and retries', async () => {
    open = await replayServer(['invalid_schema', 500, 'valid']);
    const { diagnosis, transcript } = await diagnoseWithLlm(evidence, settings(open.url));
    expect(diagnosis.cluster).toBe('c1');
    expect(transcript.attempts.map((a) => a.problem === null)).toEqual([false, false, true]);
    expect(transcript.attempts[0]!.problem).toMatch(/layer/);
    expect(open.requests[1]!.body.messages.at(-1)!.content).toMatch(/invalid: .*layer/);
  });

  it('gives up after the last attempt with an error that says what was wrong each time', async () => {
    open = await replayServer(['not_json', 'invalid_schema', 'not_json']);
    const err = await diagnoseWithLlm(evidence, settings(open.url)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmDiagnosisError);
    expect((err as Error).message).toMatch(/no valid diagnosis for cluster c1 in 3 attempts.*attempt 1: not JSON.*attempt 2: layer/);
  });

  it("never writes the key into a campaign's artifacts", async () => {
    open = await replayServer(['valid']);
    const root = mkdtempSync(join(tmpdir(), 'zetta-llm-'));
    await runCampaign(syntheticCampaignOptions(root, { heldout: [1, 2, 3], diagnoser: llmDiagnoser(settings(open.url)) }));
    expect(open.requests.length).toBeGreaterThan(0);
    const diag = readFileSync(join(root, 'gen-1/diagnoses.json'), 'utf8');
    expect(diag).toContain('recorded-model');
    for (const file of walk(root)) expect(readFileSync(file).includes(KEY), file).toBe(false);
  });
});

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}
