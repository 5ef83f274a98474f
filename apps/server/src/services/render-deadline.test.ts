import { afterAll, describe, expect, it } from 'vitest';
import { facePhoto } from '../test/fixtures.js';
import { Client, MODES, modeEnv, RENDER_FAILED, startTestServer, type TestServer } from '../test/harness.js';

/** Short, so a test waits little for each hung render, yet ample for a real render on a fresh thread. */
const RENDER_TIMEOUT = '2';

interface LogLine {
  level: number;
  msg: string;
  jobId?: string;
  attempt?: number;
  timeoutMs?: number;
}

/** A render that never returns (TEST_HANG_ATTEMPTS: a blocking loop in the worker thread) is stopped at RENDER_TIMEOUT. */
describe.each(MODES)('render deadline, %s mode', (mode) => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.stop();
  });

  async function start(env: Record<string, string>): Promise<{ server: TestServer; warnings: LogLine[] }> {
    const warnings: LogLine[] = [];
    const server = await startTestServer(
      { ...(await modeEnv(mode)), RENDER_TIMEOUT, LOG_LEVEL: 'warn', ...env },
      { logStream: { write: (line) => void warnings.push(JSON.parse(line)) } },
    );
    servers.push(server);
    return { server, warnings };
  }

  it('stops a render past the deadline, replaces its thread and retries the job, which completes', async () => {
    const { server, warnings } = await start({ TEST_HANG_ATTEMPTS: '1' });
    const client = await new Client(server.url).init();
    const jobId = await client.submit(await facePhoto());
    expect(await client.waitUntilFinal(jobId)).toEqual({
      status: 'completed',
      queue_position: 0,
      error_message: null,
      error_code: null,
      eta_seconds: null,
    });
    expect((await server.app.services.backend.jobs.get(jobId))?.attempts).toBe(2);
    expect((await client.get(`/api/result/${jobId}`)).status).toBe(200);
    // The operator reads which job's attempt ran out of time.
    expect(warnings.filter((line) => line.msg.includes('deadline'))).toEqual([
      expect.objectContaining({ level: 40, jobId, attempt: 1, timeoutMs: Number(RENDER_TIMEOUT) * 1000 }),
    ]);
    // The retry ran on the thread that replaced the stopped one (there is one); the process keeps serving.
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });

  it('fails a job with a clear message once every attempt ran past the deadline', async () => {
    const { server } = await start({ MAX_ATTEMPTS: '2', TEST_HANG_ATTEMPTS: '2' });
    const client = await new Client(server.url).init();
    const jobId = await client.submit(await facePhoto());
    expect(await client.waitUntilFinal(jobId)).toEqual(RENDER_FAILED);
    expect((await server.app.services.backend.jobs.get(jobId))?.attempts).toBe(2);
    expect((await client.get(`/api/result/${jobId}`)).status).toBe(404);
  });
});
