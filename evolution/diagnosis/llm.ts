// The LLM diagnoser: an OpenAI-compatible chat endpoint (POST {base}/chat/completions) asked for one
// diagnosis as JSON. Its answer must validate against the same zod schema as the built-in one; an
// invalid answer is sent back with the validation error and asked again, a failed request is retried,
// and after the last attempt the error says what went wrong each time. The API key goes in the
// Authorization header and nowhere else: the transcript kept as an artifact holds the model, the
// prompt and the answers, never the key.
import { DiagnosisSchema, TEMPLATES, LAYERS, type Diagnosis } from './schema.js';
import type { ClusterEvidence } from './evidence.js';

export interface LlmSettings {
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey: string | undefined;
  /** Attempts in all (requests that fail and answers that do not validate both count). */
  readonly attempts?: number;
  readonly timeoutMs?: number;
  /** Pause before a retry after a failed request (ms; doubles each time). */
  readonly backoffMs?: number;
}

export class LlmConfigError extends Error {
  override readonly name = 'LlmConfigError';
}

export class LlmDiagnosisError extends Error {
  override readonly name = 'LlmDiagnosisError';
}

/** What is kept of a conversation (no key, no headers). */
export interface LlmTranscript {
  readonly model: string;
  readonly attempts: ReadonlyArray<{ readonly answer: string | null; readonly problem: string | null }>;
}

export function llmSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): LlmSettings {
  const baseUrl = env.ZETTA_LLM_BASE_URL;
  const model = env.ZETTA_LLM_MODEL;
  if (!baseUrl || !model)
    throw new LlmConfigError(
      '--diagnoser llm needs ZETTA_LLM_BASE_URL and ZETTA_LLM_MODEL (and ZETTA_LLM_API_KEY if the endpoint wants one)',
    );
  return { baseUrl, model, apiKey: env.ZETTA_LLM_API_KEY || undefined };
}

const SYSTEM = [
  'You diagnose failures of a robot policy that must stay frozen. A runtime critic (rules + recovery programs) may be changed.',
  "Given one failure cluster's evidence, answer with ONE JSON object and nothing else:",
  '{"cluster": string, "layer": L, "mechanism": string, "hypotheses": [{"id": /^[a-z0-9_-]+$/, "layer": L, "mechanism": string,',
  ` "template": one of ${JSON.stringify(TEMPLATES)}, "rule_id"?: string, "score": 0..1, "rationale": string}, ...],`,
  ' "falsifier": {"statement": string, "metric": "shadow_trigger_rate" | "shadow_false_alarm_rate", "op": "lt" | "gt", "value": 0..1}}',
  `where L is one of ${JSON.stringify(LAYERS)}. The first hypothesis is your diagnosis; "layer" and "mechanism" repeat it.`,
].join('\n');

export async function diagnoseWithLlm(
  e: ClusterEvidence,
  settings: LlmSettings,
): Promise<{ diagnosis: Diagnosis; transcript: LlmTranscript }> {
  const attempts = settings.attempts ?? 3;
  const messages: Array<{ role: string; content: string }> = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: `Evidence:\n${JSON.stringify(e, null, 1)}` },
  ];
  const log: Array<{ answer: string | null; problem: string | null }> = [];
  let backoff = settings.backoffMs ?? 250;
  for (let i = 0; i < attempts; i++) {
    let answer: string;
    try {
      answer = await complete(settings, messages);
    } catch (err) {
      log.push({ answer: null, problem: redact((err as Error).message, settings.apiKey) });
      await new Promise((r) => setTimeout(r, backoff));
      backoff *= 2;
      continue;
    }
    const problem = validate(answer, e.cluster);
    log.push({ answer: redact(answer, settings.apiKey), problem });
    if (problem === null)
      return { diagnosis: DiagnosisSchema.parse(JSON.parse(extractJson(answer))), transcript: { model: settings.model, attempts: log } };
    messages.push(
      { role: 'assistant', content: answer },
      { role: 'user', content: `That answer is invalid: ${problem}. Answer again with one valid JSON object.` },
    );
  }
  const reasons = log.map((a, k) => `attempt ${k + 1}: ${a.problem}`).join('; ');
  throw new LlmDiagnosisError(`the LLM diagnoser gave no valid diagnosis for cluster ${e.cluster} in ${attempts} attempts (${reasons})`);
}

async function complete(settings: LlmSettings, messages: ReadonlyArray<{ role: string; content: string }>): Promise<string> {
  const url = `${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}) },
    body: JSON.stringify({ model: settings.model, messages, temperature: 0, response_format: { type: 'json_object' } }),
    signal: AbortSignal.timeout(settings.timeoutMs ?? 60_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`HTTP ${res.status} from the chat endpoint: ${text.slice(0, 200)}`);
  const content = (JSON.parse(text) as { choices?: Array<{ message?: { content?: unknown } }> }).choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new Error('the chat endpoint answered without choices[0].message.content');
  return content;
}

/** null when the answer is a valid diagnosis of this cluster, else what is wrong with it. */
function validate(answer: string, cluster: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(extractJson(answer));
  } catch {
    return 'not JSON';
  }
  const parsed = DiagnosisSchema.safeParse(value);
  if (!parsed.success) return parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
  if (parsed.data.cluster !== cluster) return `cluster must be "${cluster}"`;
  return null;
}

/** Models sometimes wrap JSON in a code fence; take what is inside. */
function extractJson(text: string): string {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text);
  return (fenced ? fenced[1]! : text).trim();
}

function redact(text: string, key: string | undefined): string {
  return key ? text.split(key).join('[redacted]') : text;
}
