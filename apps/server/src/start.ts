import type { AddressInfo } from 'node:net';
import { type BuildOptions, buildApp } from './app.js';
import { type Config, loadConfig } from './config.js';
import type { App } from './routes/context.js';

export interface StartedServer {
  app: App;
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  close(): Promise<void>;
}

/**
 * Starts a listening server from environment-style settings (tests, benchmarks, tools):
 * `startServer({ PORT: '0', DATA_DIR: dir })`. Unset variables take their defaults.
 */
export async function startServer(
  env: Record<string, string | undefined>,
  options: BuildOptions = {},
): Promise<StartedServer> {
  const config: Config = loadConfig({ HOST: '127.0.0.1', PORT: '0', ...env });
  const app = await buildApp(config, options);
  await app.listen({ port: config.port, host: config.host });
  const { port } = app.server.address() as AddressInfo;
  return { app, url: `http://${config.host}:${port}`, close: () => app.close() };
}
