import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';
import { buildInfo, createBuildId } from './build/build-info-plugin';
import { devCampaign } from './build/campaign-plugin';
import { faceGuideAssets } from './build/face-guide-assets-plugin';
import { preloadFirstScreen } from './build/first-screen-preload-plugin';
import { preloadLatinFonts } from './build/font-preload-plugin';
import { precompress } from './build/precompress-plugin';

const buildId = createBuildId();
const apiTarget = process.env.API_TARGET ?? 'http://localhost:3000';

export default defineConfig({
  // React's plugin: the automatic JSX runtime, and Fast Refresh under `npm run dev`.
  plugins: [
    react(),
    devCampaign(),
    buildInfo(buildId),
    preloadLatinFonts(),
    preloadFirstScreen(),
    faceGuideAssets(),
    precompress(),
  ],
  // The workspace packages bundle from their TypeScript sources.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  define: { __BUILD_ID__: JSON.stringify(buildId) },
  server: {
    proxy: { '/api': apiTarget, '/files': apiTarget },
  },
  // The face guide's detector runs in a module worker (its own chunk, loaded on the photo screen only).
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    // Read by scripts/measure-start-js.mjs to size what the start screen loads.
    manifest: true,
  },
});
