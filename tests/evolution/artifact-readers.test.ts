// A campaign's manifest.json and report.json read back with their writers' readers: what a real
// campaign wrote reads back unchanged (and names the same campaign), and a file that is not JSON,
// lacks a field, holds one of the wrong type or one the writer never writes is refused with an
// ArtifactFormatError that says which file and which field.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ArtifactFormatError } from '../../evolution/campaign/artifact-format.js';
import { campaignId, parseManifest } from '../../evolution/campaign/manifest.js';
import { parseCampaignReport } from '../../evolution/report/report-reader.js';
import type { CampaignSummary } from '../../evolution/index.js';
import { campaign, tmp } from '../skills/campaign.js';

let root: string;
let summary: CampaignSummary;
let manifestText: string;
let reportText: string;

beforeAll(async () => {
  root = tmp('zetta-readers-');
  summary = await campaign(root, true);
  manifestText = readFileSync(join(root, 'manifest.json'), 'utf8');
  reportText = readFileSync(join(root, 'report.json'), 'utf8');
}, 60_000);

/** The error `read` throws, for its message and fields. */
function refusal(read: () => unknown): ArtifactFormatError {
  try {
    read();
  } catch (err) {
    expect(err).toBeInstanceOf(ArtifactFormatError);
    return err as ArtifactFormatError;
  }
  throw new Error('the reader accepted it');
}

const edited = (text: string, edit: (value: Record<string, unknown>) => void): string => {
  const value = JSON.parse(text) as Record<string, unknown>;
  edit(value);
  return JSON.stringify(value);
};

describe('the campaign manifest reader', () => {
  it('reads what the campaign wrote unchanged, and names the same campaign', () => {
    const manifest = parseManifest(manifestText);
    expect(manifest).toEqual(JSON.parse(manifestText));
    expect(campaignId(manifest)).toBe(summary.campaign_id);
  });

  it('refuses text that is not JSON, naming the file', () => {
    const err = refusal(() => parseManifest('{"version": 1,', 'runs/c1/manifest.json'));
    expect(err.message).toMatch(/^runs\/c1\/manifest\.json is not a campaign manifest: not valid JSON \(/);
    expect(err.file).toBe('runs/c1/manifest.json');
  });

  it('names a field of the wrong type, a missing one and one the writer never writes', () => {
    const wrongType = refusal(() =>
      parseManifest(edited(manifestText, (m) => ((m.seeds as Record<string, unknown>).heldout = '1000-1007'))),
    );
    expect(wrongType.message).toMatch(/^manifest\.json is not a campaign manifest: seeds\.heldout: .*expected array/);
    const missing = refusal(() => parseManifest(edited(manifestText, (m) => delete m.task)));
    expect(missing.problems).toEqual([expect.stringMatching(/^task: /)]);
    const unknown = refusal(() => parseManifest(edited(manifestText, (m) => (m.tasks = ['a']))));
    expect(unknown.message).toContain('tasks');
    expect(() => parseManifest(edited(manifestText, (m) => (m.version = 2)))).toThrow(/version: /);
  });
});

describe('the campaign report reader', () => {
  it('reads what the campaign wrote unchanged', () => {
    const report = parseCampaignReport(reportText);
    expect(report).toEqual(JSON.parse(reportText));
    expect(report).toMatchObject({ campaign_id: summary.campaign_id, promoted: true });
    expect(report.generations[0]!.candidates[0]!.gates.map((g) => g.gate)).toContain('heldout');
  });

  it('refuses a report with a field of the wrong type or a missing one, naming the path', () => {
    const promoted = refusal(() =>
      parseCampaignReport(
        edited(reportText, (r) => (r.promoted = 'yes')),
        'c1/report.json',
      ),
    );
    expect(promoted.message).toMatch(/^c1\/report\.json is not a campaign report: promoted: .*expected boolean/);
    const gates = refusal(() =>
      parseCampaignReport(
        edited(reportText, (r) => {
          const [generation] = r.generations as { candidates: Record<string, unknown>[] }[];
          delete generation!.candidates[0]!.gates;
        }),
      ),
    );
    expect(gates.problems).toEqual([expect.stringMatching(/^generations\.0\.candidates\.0\.gates: /)]);
    expect(() => parseCampaignReport('[]')).toThrow(/is not a campaign report: \(top level\): /);
  });

  it('lists at most five problems of a file wrong everywhere', () => {
    const err = refusal(() => parseCampaignReport(JSON.stringify({ campaign_id: 7 })));
    expect(err.problems).toHaveLength(6);
    expect(err.problems.at(-1)).toMatch(/^… and \d+ more$/);
  });
});
