import { act, render } from '@testing-library/react';
import { Suspense } from 'react';
import { Router, useLocation } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { AppRoutes } from '../app/router';

/** The router's current path, for tests that follow redirects and navigation. */
function Where() {
  const [pathname] = useLocation();
  return <span data-testid="where">{pathname}</span>;
}

/**
 * Renders the app at `path` with an in-memory location (the browser's history is left alone),
 * inside an awaited act so React replays the suspended locale and screen loads.
 */
export async function renderApp(path: string): Promise<void> {
  await act(async () =>
    render(
      <Router hook={memoryLocation({ path }).hook}>
        <Suspense fallback={null}>
          <AppRoutes />
        </Suspense>
        <Where />
      </Router>,
    ),
  );
}

/** The path the app is at now, as rendered by renderApp. */
export function currentPath(): string | null {
  return document.querySelector('[data-testid="where"]')?.textContent ?? null;
}
