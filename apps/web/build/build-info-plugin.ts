import type { Plugin } from 'vite';

/**
 * Writes `builds/latest.json` ({buildId}) and `builds/meta/{buildId}.json` into the build so a running app can notice
 * that a newer build was deployed (docs/product.md#new-deployments) and offer a reload. The id is baked into the bundle
 * as `__BUILD_ID__`.
 */
export function buildInfo(buildId: string): Plugin {
  return {
    name: 'selfie-mosaic:build-info',
    apply: 'build',
    generateBundle() {
      const builtAt = new Date().toISOString();
      this.emitFile({ type: 'asset', fileName: 'builds/latest.json', source: JSON.stringify({ buildId }) });
      this.emitFile({
        type: 'asset',
        fileName: `builds/meta/${buildId}.json`,
        source: JSON.stringify({ buildId, builtAt }),
      });
    },
  };
}

/** A fresh id per build: time plus a random suffix, safe in a file name. */
export function createBuildId(now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:TZ.]/g, '')
    .slice(0, 14);
  return `${stamp}-${Math.random().toString(36).slice(2, 8)}`;
}
