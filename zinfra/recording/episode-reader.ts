// Reads an episode MCAP written by EpisodeWriter back into an EpisodeRecord (for shadow replay and
// reports). A `.partial` file reads too, with a null summary.
import { readFile } from 'node:fs/promises';
import { McapStreamReader, type TypedMcapRecord } from '@mcap/core';
import type {
  ActionSource,
  CriticProposal,
  EpisodeHeader,
  EpisodeRecord,
  EpisodeSummary,
  GovernorDecision,
  StepRecord,
} from './episode-record.js';
import { DECOMPRESS_HANDLERS, compressionReady } from './chunk-compression.js';
import { CHANNELS } from './episode-writer.js';
import { featureValues } from './feature-fields.js';

interface StepParts {
  state?: number[];
  objects?: number[];
  milestones?: string[];
  reward?: number;
  action?: number[];
  policyAction?: number[] | null;
  source?: ActionSource;
  features?: Float64Array;
  proposals?: CriticProposal[];
  decision?: GovernorDecision | undefined;
}

export class EpisodeFileError extends Error {
  override readonly name = 'EpisodeFileError';
}

const decoder = new TextDecoder();

export async function readEpisode(path: string): Promise<EpisodeRecord> {
  await compressionReady();
  const reader = new McapStreamReader({ validateCrcs: true, decompressHandlers: DECOMPRESS_HANDLERS });
  reader.append(await readFile(path));
  let header: EpisodeHeader | undefined;
  let summary: EpisodeSummary | null = null;
  const topics = new Map<number, string>();
  const steps = new Map<number, StepParts>();
  try {
    for (let record: TypedMcapRecord | undefined; (record = reader.nextRecord()); ) {
      if (record.type === 'Metadata') {
        const body = JSON.parse(record.metadata.get('json') ?? 'null');
        if (record.name === 'zetta.episode.header') header = body;
        if (record.name === 'zetta.episode.summary') summary = body;
      } else if (record.type === 'Channel') topics.set(record.id, record.topic);
      else if (record.type === 'Message') absorb(steps, topics.get(record.channelId), JSON.parse(decoder.decode(record.data)), header);
    }
  } catch (err) {
    if (!path.endsWith('.partial')) throw new EpisodeFileError(`${path}: not a readable episode (${(err as Error).message})`);
  }
  if (!header) throw new EpisodeFileError(`${path}: no zetta.episode.header metadata; not a Zetta episode`);
  return { header, steps: assemble(steps), summary };
}

function absorb(
  steps: Map<number, StepParts>,
  topic: string | undefined,
  m: Record<string, unknown>,
  header: EpisodeHeader | undefined,
): void {
  if (typeof m.step !== 'number') return; // the scene and transform channels are for viewers
  const step = m.step;
  const s = steps.get(step) ?? {};
  steps.set(step, s);
  switch (topic) {
    case CHANNELS.observation:
      Object.assign(s, { state: m.state, objects: m.objects, milestones: m.milestones, reward: m.reward });
      break;
    case CHANNELS.action:
      Object.assign(s, { action: m.action, policyAction: m.policy_action, source: m.source });
      break;
    case CHANNELS.features:
      // Named fields (in the header's order); files written before them carry an unnamed `values` array.
      s.features = m.features
        ? featureValues(header?.featureNames ?? [], m.features as Record<string, unknown>)
        : Float64Array.from(m.values as (number | null)[], (v) => (v === null ? Number.NaN : v));
      break;
    case CHANNELS.critic:
      s.proposals = m.proposals as CriticProposal[];
      s.decision = (m.decision as GovernorDecision | null) ?? undefined;
      break;
  }
}

function assemble(steps: Map<number, StepParts>): StepRecord[] {
  return [...steps.entries()]
    .sort(([a], [b]) => a - b)
    .filter(([, s]) => s.state && s.action)
    .map(([step, s]) => ({
      step,
      state: s.state!,
      objects: s.objects ?? [],
      policyAction: s.policyAction ?? null,
      action: s.action!,
      source: s.source ?? 'policy',
      reward: s.reward ?? 0,
      milestones: s.milestones ?? [],
      ...(s.features ? { features: s.features } : {}),
      ...(s.proposals ? { proposals: s.proposals } : {}),
      ...(s.decision ? { decision: s.decision } : {}),
    }));
}
