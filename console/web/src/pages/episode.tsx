// The episode viewer: what the episode was and how it ended, the feature timelines with the
// critic's proposals, the governor's decisions and recovery stretches, and a 3-D replay of the
// gripper and objects. One step index drives both: the slider, play/pause and clicks on a plot.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { useApi } from '../api/use-api';
import type { EpisodeData } from '../../../contract';
import { defaultFeatures, episodeMarks } from '../components/episode-marks';
import { EpisodeReplay } from '../components/episode-replay';
import { EpisodeTimeline, TimelineLegend } from '../components/episode-timeline';
import { FeaturePicker } from '../components/feature-picker';
import { pct } from '../components/format';
import { Await, ErrorMessage } from '../components/messages';

export function EpisodePage({ path }: { path: string }) {
  const episode = useApi<EpisodeData>(path ? `/api/episode?${new URLSearchParams({ path }).toString()}` : null);
  if (!path) return <ErrorMessage message="No episode named: open one from a campaign's clusters (#/episode?path=…)." />;
  return (
    <Await data={episode.data} error={episode.error} what="the episode">
      {(e) => <EpisodeView key={path} path={path} episode={e} />}
    </Await>
  );
}

function EpisodeView({ path, episode }: { path: string; episode: EpisodeData }) {
  const { header, summary, steps } = episode;
  const names = header.featureNames.length > 0 ? header.featureNames : Object.keys(steps[0]?.features ?? {});
  const [features, setFeatures] = useState(() => defaultFeatures(names));
  const [index, setIndex] = useState(0);
  const [playing, setPlaying] = useState(false);
  const marks = useMemo(() => episodeMarks(steps), [steps]);
  const last = Math.max(0, steps.length - 1);

  // advance at the control rate (capped so a fast world still replays visibly), stop at the end
  useEffect(() => {
    if (!playing) return;
    const hz = Math.min(30, Math.max(1, header.controlHz || 20));
    const timer = window.setInterval(() => setIndex((i) => Math.min(last, i + 1)), 1000 / hz);
    return () => window.clearInterval(timer);
  }, [playing, header.controlHz, last]);
  useEffect(() => {
    if (playing && index >= last) setPlaying(false);
  }, [playing, index, last]);

  const togglePlay = () => {
    if (!playing && index >= last) setIndex(0);
    setPlaying(!playing);
  };
  const step = steps[index];

  return (
    <article class="episode">
      <h1>
        {header.task} <span class="muted">seed {header.seed}</span>{' '}
        {summary ? (
          <span class={`badge ${summary.success ? 'pass' : 'fail'}`}>{summary.success ? 'success' : 'failure'}</span>
        ) : (
          <span class="badge fail">cut off</span>
        )}
      </h1>
      <p class="lead">{header.instruction}</p>
      <p class="muted small">
        <code>{path}</code> · policy <code>{header.policy}</code> · critic <code>{header.critic}</code> · {header.controlHz} Hz
      </p>
      {summary ? (
        <ul class="figures inline">
          <li>{summary.steps} steps</li>
          <li>milestones: {summary.milestones.length ? summary.milestones.join(', ') : 'none'}</li>
          <li>policy's own actions: {pct(summary.steps ? summary.unmodifiedPolicyActions / summary.steps : null)}</li>
          <li>recovery actions: {summary.recoveryActions}</li>
          {summary.infraFailure ? <li class="bad">infrastructure failure: {summary.infraFailure}</li> : null}
          {summary.physicsDivergence ? <li class="bad">physics diverged</li> : null}
        </ul>
      ) : null}

      {steps.length === 0 ? (
        <p class="muted">The episode has no steps.</p>
      ) : (
        <>
          <div class="player card">
            <button type="button" data-testid="play" onClick={togglePlay}>
              {playing ? 'Pause' : 'Play'}
            </button>
            <input
              type="range"
              min={0}
              max={last}
              value={index}
              aria-label="step"
              data-testid="step-slider"
              onInput={(e) => {
                setPlaying(false);
                setIndex(Number(e.currentTarget.value));
              }}
            />
            <span class="step-readout" data-testid="step-readout">
              step {step?.t ?? 0} / {steps[last]?.t ?? 0} · {step?.source ?? ''}
              {step?.decision && step.decision.kind !== 'execute'
                ? ` · ${[step.decision.kind, step.decision.recovery].filter(Boolean).join(' ')}`
                : ''}
            </span>
          </div>
          <div class="episode-grid">
            <section>
              <h2>Replay</h2>
              <EpisodeReplay steps={steps} objectNames={header.objectNames} index={index} />
              <StepDetails step={step} />
            </section>
            <section>
              <h2>Features</h2>
              <FeaturePicker names={names} selected={features} onChange={setFeatures} />
            </section>
          </div>
          <section>
            <h2>Timelines</h2>
            <TimelineLegend />
            <EpisodeTimeline
              steps={steps}
              marks={marks}
              features={features}
              cursor={index}
              onSeek={(i) => {
                setPlaying(false);
                setIndex(i);
              }}
            />
          </section>
        </>
      )}
    </article>
  );
}

function StepDetails({ step }: { step: EpisodeData['steps'][number] | undefined }) {
  if (!step) return null;
  return (
    <div class="step-details small" data-testid="step-details">
      {step.proposals.length ? (
        <ul class="plain">
          {step.proposals.map((p, i) => (
            <li key={i}>
              critic: <code>{p.ruleId}</code> proposes {p.proposal} (priority {p.priority}
              {p.safety ? ', safety' : ''})
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">No critic proposal at this step.</p>
      )}
      {step.decision ? (
        <p>
          governor: <strong>{step.decision.kind}</strong>
          {step.decision.recovery ? ` ${step.decision.recovery}` : ''}
          {step.decision.reason ? `: ${step.decision.reason}` : ''}
        </p>
      ) : null}
      {step.milestones.length ? <p>milestones: {step.milestones.join(', ')}</p> : null}
    </div>
  );
}
