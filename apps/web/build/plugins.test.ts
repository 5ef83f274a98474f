import { describe, expect, it } from 'vitest';
import { buildInfo, createBuildId } from './build-info-plugin';
import { firstScreenChunks } from './first-screen-preload-plugin';

describe('build info plugin', () => {
  it('writes builds/latest.json and builds/meta/<id>.json with the build id', () => {
    const emitted: Array<{ fileName: string; source: string }> = [];
    const plugin = buildInfo('20260101000000-abc123');
    const generateBundle = plugin.generateBundle as unknown as (this: unknown) => void;
    generateBundle.call({ emitFile: (file: { fileName: string; source: string }) => emitted.push(file) });
    expect(emitted.map((file) => file.fileName)).toEqual([
      'builds/latest.json',
      'builds/meta/20260101000000-abc123.json',
    ]);
    expect(JSON.parse(emitted[0]?.source ?? '')).toEqual({ buildId: '20260101000000-abc123' });
    expect(JSON.parse(emitted[1]?.source ?? '')).toMatchObject({ buildId: '20260101000000-abc123' });
  });

  it('makes ids that are safe in a file name and differ between builds', () => {
    const first = createBuildId(new Date('2026-11-22T02:00:00Z'));
    expect(first).toMatch(/^20261122020000-[a-z0-9]+$/);
    expect(createBuildId()).not.toBe(createBuildId());
  });
});

describe('first screen preload plugin', () => {
  it('preloads the start screen and i18next chunks, and no other screen or asset', () => {
    const bundle = {
      'assets/index-a.js': {
        type: 'chunk',
        fileName: 'assets/index-a.js',
        name: 'index',
        facadeModuleId: '/app/src/main.tsx',
      },
      'assets/StartScreen-b.js': {
        type: 'chunk',
        fileName: 'assets/StartScreen-b.js',
        name: 'StartScreen',
        facadeModuleId: '/app/src/features/age-gate/StartScreen.tsx',
      },
      'assets/i18next-c.js': { type: 'chunk', fileName: 'assets/i18next-c.js', name: 'i18next', facadeModuleId: null },
      'assets/PhotoScreen-d.js': {
        type: 'chunk',
        fileName: 'assets/PhotoScreen-d.js',
        name: 'PhotoScreen',
        facadeModuleId: '/app/src/features/camera/PhotoScreen.tsx',
      },
      'assets/en-e.json': { type: 'asset', fileName: 'assets/en-e.json' },
    };
    expect(firstScreenChunks(bundle).sort()).toEqual(['/assets/StartScreen-b.js', '/assets/i18next-c.js']);
  });
});
