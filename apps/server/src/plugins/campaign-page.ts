import { readFile, stat } from 'node:fs/promises';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { type Campaign, withCampaign } from '@selfie-mosaic/campaign';

export interface IndexPage {
  body: Buffer;
  encoding: 'br' | 'gzip' | undefined;
}

/**
 * The campaign's index.html, built once per build of the web app and kept compressed both ways: the page is sent on
 * every visit, and a new build may replace the file while the server runs (its modification time tells).
 */
export function campaignIndex(file: string, campaign: Campaign) {
  let cached: { version: string; plain: Buffer; br: Buffer; gzip: Buffer } | undefined;
  return async (acceptEncoding: string | undefined): Promise<IndexPage> => {
    const info = await stat(file);
    const version = `${info.mtimeMs}:${info.size}`;
    if (cached?.version !== version) {
      const plain = Buffer.from(withCampaign(await readFile(file, 'utf8'), campaign));
      cached = {
        version,
        plain,
        br: brotliCompressSync(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        gzip: gzipSync(plain, { level: 9 }),
      };
    }
    const accepts = (name: string) => new RegExp(`\\b${name}\\b`).test(acceptEncoding ?? '');
    if (accepts('br')) return { body: cached.br, encoding: 'br' };
    if (accepts('gzip')) return { body: cached.gzip, encoding: 'gzip' };
    return { body: cached.plain, encoding: undefined };
  };
}
