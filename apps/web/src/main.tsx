import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { ErrorBoundary } from './app/ErrorPages';
import { AppRoutes } from './app/router';
import { Splash } from './app/Splash';
import { warmUpRoute } from './app/warm-up';
import { installChunkErrorReload } from './lib/chunk-reload';
import './lib/fonts';
import './styles/global.css';

installChunkErrorReload();
warmUpRoute(window.location.pathname);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <ErrorBoundary framed>
      <Suspense fallback={<Splash />}>
        <AppRoutes />
      </Suspense>
    </ErrorBoundary>
  </StrictMode>,
);
