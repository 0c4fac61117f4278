// The replay panel (data-testid="replay"): a <canvas> with the three.js scene, loaded on demand
// and shown at the step the slider names. Where WebGL cannot start, a 2-D top view takes the
// canvas's place, so the panel always shows where things were.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { EpisodeStep } from '../../../contract';
import { drawTopView } from './replay-fallback';
import { objectColor, workspace } from './replay-bounds';
import type { ReplayScene } from './replay-scene';

const HEIGHT = 360;

export function EpisodeReplay({
  steps,
  objectNames,
  index,
}: {
  steps: readonly EpisodeStep[];
  objectNames: readonly string[];
  index: number;
}) {
  const holder = useRef<HTMLDivElement>(null);
  const scene = useRef<ReplayScene | null>(null);
  const fallback = useRef<HTMLCanvasElement | null>(null);
  const indexNow = useRef(index);
  indexNow.current = index;
  const [mode, setMode] = useState<'loading' | 'webgl' | '2d'>('loading');
  const ws = useMemo(() => workspace(steps, objectNames), [steps, objectNames]);

  useEffect(() => {
    const el = holder.current;
    if (!el) return;
    let cancelled = false;
    // the canvas joins the page only once it shows a frame, so whoever finds it sees the scene
    const canvas = document.createElement('canvas');
    el.replaceChildren();
    const size = () => ({ width: Math.max(200, el.clientWidth), height: HEIGHT });
    const useFallback = () => {
      // a canvas that had a WebGL attempt cannot give a 2-D context: start on a fresh one
      const flat = document.createElement('canvas');
      fallback.current = flat;
      const { width, height } = size();
      flat.width = width;
      flat.height = height;
      drawTopView(flat, steps, ws, indexNow.current);
      el.replaceChildren(flat);
      setMode('2d');
    };
    import('./replay-scene')
      .then(({ createReplayScene }) => {
        if (cancelled) return;
        try {
          scene.current = createReplayScene(canvas, steps, ws);
          const { width, height } = size();
          scene.current.resize(width, height);
          scene.current.show(indexNow.current);
          el.replaceChildren(canvas);
          setMode('webgl');
        } catch {
          useFallback();
        }
      })
      .catch(() => !cancelled && useFallback());
    const observer = new ResizeObserver(() => {
      const { width, height } = size();
      if (scene.current) scene.current.resize(width, height);
      else if (fallback.current) {
        fallback.current.width = width;
        fallback.current.height = height;
        drawTopView(fallback.current, steps, ws, indexNow.current);
      }
    });
    observer.observe(el);
    return () => {
      cancelled = true;
      observer.disconnect();
      scene.current?.dispose();
      scene.current = null;
      fallback.current = null;
      el.replaceChildren();
    };
  }, [steps, ws]);

  useEffect(() => {
    if (scene.current) scene.current.show(index);
    else if (fallback.current) drawTopView(fallback.current, steps, ws, index);
  }, [index, steps, ws]);

  return (
    <div class="replay-panel">
      <div class="replay" ref={holder} data-testid="replay" data-mode={mode} style={{ height: `${HEIGHT}px` }} />
      <p class="legend small">
        <span class="legend-item">
          <span class="swatch" style={{ background: '#1f2933' }} />
          gripper (cone; its path in grey)
        </span>
        {ws.objectNames.map((name, i) => (
          <span key={name} class="legend-item">
            <span class="swatch" style={{ background: objectColor(i) }} />
            {name}
          </span>
        ))}
        {mode === 'webgl' ? <span class="muted"> · drag to orbit, scroll to zoom</span> : null}
      </p>
    </div>
  );
}
