import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The lint rules that keep the layers apart (biome.json, `overrides`): a feature never reaches into
 * another feature, and a package never imports an app. Each case writes a real file into the tree,
 * lints it as `npm run lint` would, and removes it again.
 */

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const BIOME = path.join(ROOT, 'node_modules', '.bin', 'biome');
const RULE = 'lint/style/noRestrictedImports';
const run = promisify(execFile);

const written: string[] = [];
afterEach(() => {
  for (const file of written.splice(0)) rmSync(file, { force: true });
});

/** Lints `source` as a file in `folder` (relative to the repository root); the output when it fails. */
async function lint(folder: string, source: string): Promise<{ failed: boolean; output: string }> {
  const file = path.join(ROOT, folder, `boundary-probe-${randomBytes(4).toString('hex')}.ts`);
  written.push(file);
  writeFileSync(file, source);
  try {
    await run(BIOME, ['lint', `--only=${RULE.replace('lint/', '')}`, '--colors=off', file], { cwd: ROOT });
    return { failed: false, output: '' };
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    return { failed: true, output: `${stdout}${stderr}` };
  }
}

describe('import boundaries', () => {
  it("fails a feature that imports another feature's internals", async () => {
    const result = await lint(
      'apps/web/src/features/camera',
      "import ResultScreen from '../result/ResultScreen';\nexport const screen = ResultScreen;\n",
    );
    expect(result.failed).toBe(true);
    expect(result.output).toContain(RULE);
    expect(result.output).toContain('never another feature');
  });

  it('also fails the detour through the features folder', async () => {
    const result = await lint(
      'apps/web/src/features/camera',
      "import { shareArtwork } from '../../features/result/share';\nexport const share = shareArtwork;\n",
    );
    expect(result.failed).toBe(true);
    expect(result.output).toContain(RULE);
  });

  it('lets a feature import its own files, src/lib and the packages', async () => {
    const result = await lint(
      'apps/web/src/features/camera',
      [
        "import { ARTWORK } from '@selfie-mosaic/contract';",
        "import { useSession } from '../../lib/session';",
        "import { fitWithin } from './capture';",
        'export const all = [ARTWORK, useSession, fitWithin];',
        '',
      ].join('\n'),
    );
    expect(result).toEqual({ failed: false, output: '' });
  });

  it('fails a package that imports an app', async () => {
    const result = await lint(
      'packages/campaign/src',
      "import { loadConfig } from '../../../apps/server/src/config.js';\nexport const config = loadConfig;\n",
    );
    expect(result.failed).toBe(true);
    expect(result.output).toContain(RULE);
    expect(result.output).toContain('never import them');
  });
});
