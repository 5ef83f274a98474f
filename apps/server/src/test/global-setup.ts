import type { TestProject } from 'vitest/node';
import { ensureServicesInstalled, startPostgres, startRedis } from './services.js';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
    postgresUrl: string;
  }
}

/** One Redis and one PostgreSQL for the whole run; tests isolate by queue name and database. */
export default async function setup(project: TestProject) {
  ensureServicesInstalled();
  const [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
  project.provide('redisUrl', redis.url);
  project.provide('postgresUrl', postgres.url);
  return async () => {
    await Promise.all([redis.stop(), postgres.stop()]);
  };
}
