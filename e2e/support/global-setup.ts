import type { TestProject } from 'vitest/node';
import { faceVideo } from './fixtures.js';
import { startServer } from './server-process.js';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    faceVideo: string;
  }
}

/** Starts the built app once for all specs, on a free port with its own data directory. */
export default async function setup(project: TestProject) {
  const server = await startServer(
    {
      LOG_LEVEL: 'warn',
      // Every spec's visitors come from 127.0.0.1, and one spec queues 40 other visitors' photos:
      // the per-address upload limit (20 a minute) would refuse whichever spec runs last.
      RATE_LIMIT_UPLOAD: '1000',
      RATE_LIMIT_CONSENT: '1000',
    },
    { logs: true },
  );
  project.provide('baseURL', server.url);
  project.provide('faceVideo', await faceVideo());
  return () => server.stop();
}
