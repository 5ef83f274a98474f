import { describe, expect, it, vi } from 'vitest';
import { checkForNewBuild } from './build-check';

describe('new build detection', () => {
  it('reports a different build once its meta file is there', async () => {
    const onNewBuild = vi.fn();
    const fetchJson = vi.fn(async (url: string) =>
      url.startsWith('/builds/latest.json') ? { buildId: 'b2' } : { buildId: 'b2', builtAt: 'now' },
    );
    await expect(checkForNewBuild({ currentBuildId: 'b1', fetchJson, onNewBuild })).resolves.toBe(true);
    expect(fetchJson).toHaveBeenCalledWith('/builds/meta/b2.json');
    expect(onNewBuild).toHaveBeenCalledWith('b2');
  });

  it('stays quiet for the same build, a missing meta file, a bad id or a network error', async () => {
    const onNewBuild = vi.fn();
    const same = async () => ({ buildId: 'b1' });
    await checkForNewBuild({ currentBuildId: 'b1', fetchJson: same, onNewBuild });
    const noMeta = async (url: string) => {
      if (url.includes('meta')) throw new Error('404');
      return { buildId: 'b2' };
    };
    await checkForNewBuild({ currentBuildId: 'b1', fetchJson: noMeta, onNewBuild });
    await checkForNewBuild({ currentBuildId: 'b1', fetchJson: async () => ({ buildId: '../x' }), onNewBuild });
    await checkForNewBuild({ currentBuildId: 'b1', fetchJson: () => Promise.reject(new Error('offline')), onNewBuild });
    expect(onNewBuild).not.toHaveBeenCalled();
  });
});
