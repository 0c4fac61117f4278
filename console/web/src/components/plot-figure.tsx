// Mounts an Observable Plot figure (a detached SVG or figure element) into the page, drawing it
// again when its inputs change. Plot builds DOM directly; Preact only owns the empty container.
import { useEffect, useRef } from 'preact/hooks';

export function PlotFigure({
  draw,
  deps,
  testid,
  className,
}: {
  /** Builds the figure; null draws nothing (e.g. no data). */
  draw: () => Element | null;
  /** What the figure depends on: it is drawn again only when one of these changes. */
  deps: readonly unknown[];
  testid?: string;
  className?: string;
}) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = container.current;
    if (!el) return;
    const figure = draw();
    el.replaceChildren(...(figure ? [figure] : []));
    return () => figure?.remove();
  }, deps);
  return <div class={className ?? 'plot'} ref={container} data-testid={testid} />;
}

/** Width for a plot that fills its column without overflowing small screens. */
export function plotWidth(max = 880): number {
  return Math.max(320, Math.min(max, (document.querySelector('main')?.clientWidth ?? max) - 8));
}
