// One interface over the two diagnosis back ends. The campaign asks for a diagnosis per cluster and
// keeps the result (and for the LLM, its transcript) as an artifact, so a resumed campaign never asks
// again and reaches the same decisions even though an LLM would not answer the same way twice.
import { diagnoseBuiltin } from './builtin.js';
import type { ClusterEvidence } from './evidence.js';
import { diagnoseWithLlm, type LlmSettings, type LlmTranscript } from './llm.js';
import type { Diagnosis } from './schema.js';

export interface Diagnoser {
  readonly kind: 'builtin' | 'llm';
  /** The model name for the manifest (null for builtin). */
  readonly model: string | null;
  diagnose(evidence: ClusterEvidence): Promise<{ diagnosis: Diagnosis; transcript: LlmTranscript | null }>;
}

export function builtinDiagnoser(): Diagnoser {
  return { kind: 'builtin', model: null, diagnose: async (e) => ({ diagnosis: diagnoseBuiltin(e), transcript: null }) };
}

export function llmDiagnoser(settings: LlmSettings): Diagnoser {
  return { kind: 'llm', model: settings.model, diagnose: (e) => diagnoseWithLlm(e, settings) };
}
