/** Polls until cond() holds, failing after timeoutMs (for states a real peer reaches in its own time). */
export async function waitFor(cond: () => boolean, timeoutMs: number): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!cond()) {
    if (performance.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
