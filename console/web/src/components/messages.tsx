// The page-level states every page shares: loading, an API error (data-testid="error", the one
// place an operator reads what went wrong) and a short notice after an action went through.
import type { ComponentChildren } from 'preact';

export function ErrorMessage({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p class="message error" role="alert" data-testid="error">
      {message}
    </p>
  );
}

export function Notice({ children }: { children: ComponentChildren }) {
  return (
    <p class="message notice" role="status" data-testid="notice">
      {children}
    </p>
  );
}

export function Loading({ what }: { what: string }) {
  return <p class="muted">Loading {what}…</p>;
}

/** A page body that waits for its data: the error, a loading line, or the content. */
export function Await<T>({
  data,
  error,
  what,
  children,
}: {
  data: T | null;
  error: string | null;
  what: string;
  children: (data: T) => ComponentChildren;
}) {
  if (error && data === null) return <ErrorMessage message={error} />;
  if (data === null) return <Loading what={what} />;
  return <>{children(data)}</>;
}
