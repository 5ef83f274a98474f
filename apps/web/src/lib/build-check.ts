/** Polls builds/latest.json and reports when a build other than the running one was deployed. */

const BUILD_CHECK_INTERVAL_MS = 5 * 60 * 1000;

interface BuildCheckDeps {
  currentBuildId: string;
  fetchJson(url: string): Promise<unknown>;
  onNewBuild(buildId: string): void;
}

function buildIdOf(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const id = (value as { buildId?: unknown }).buildId;
  return typeof id === 'string' && /^[\w-]+$/.test(id) ? id : null;
}

/**
 * One check: a differing id only counts once its meta file is readable too, so a deployment that
 * is still uploading files does not prompt a reload into a half-written build.
 */
export async function checkForNewBuild({ currentBuildId, fetchJson, onNewBuild }: BuildCheckDeps): Promise<boolean> {
  try {
    const latest = buildIdOf(await fetchJson(`/builds/latest.json?t=${Date.now()}`));
    if (!latest || latest === currentBuildId) return false;
    const meta = buildIdOf(await fetchJson(`/builds/meta/${latest}.json`));
    if (meta !== latest) return false;
    onNewBuild(latest);
    return true;
  } catch {
    // Offline or between deployments: try again at the next interval.
    return false;
  }
}

async function fetchJson(url: string): Promise<unknown> {
  const response = await fetch(url, { cache: 'no-store' });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.json();
}

/** Checks every few minutes and whenever the tab becomes visible again. */
export function watchForNewBuild(onNewBuild: (buildId: string) => void): () => void {
  let notified = false;
  const check = () => {
    if (notified) return;
    void checkForNewBuild({
      currentBuildId: __BUILD_ID__,
      fetchJson,
      onNewBuild: (id) => {
        notified = true;
        onNewBuild(id);
      },
    });
  };
  const timer = setInterval(check, BUILD_CHECK_INTERVAL_MS);
  const onVisible = () => {
    if (document.visibilityState === 'visible') check();
  };
  document.addEventListener('visibilitychange', onVisible);
  return () => {
    clearInterval(timer);
    document.removeEventListener('visibilitychange', onVisible);
  };
}
