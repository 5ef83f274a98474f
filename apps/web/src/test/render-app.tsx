import { act, render } from '@testing-library/react';
import { Suspense } from 'react';
import { AppRoutes } from '../app/router';

/**
 * Renders the app at `path` on the browser's own history, as it runs in the page (navigation state
 * included), inside an awaited act so React replays the suspended locale and screen loads.
 */
export async function renderApp(path: string): Promise<void> {
  window.history.replaceState(null, '', path);
  await act(async () =>
    render(
      <Suspense fallback={null}>
        <AppRoutes />
      </Suspense>,
    ),
  );
}

/** The path the app is at now. */
export function currentPath(): string {
  return window.location.pathname;
}
