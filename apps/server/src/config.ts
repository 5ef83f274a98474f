import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Campaign, CampaignError, DEFAULT_CAMPAIGN, parseCampaignText } from '@selfie-mosaic/campaign';
import { HANDOFF, RESULT_TTL_MS, STREAM_HEARTBEAT_MS } from '@selfie-mosaic/contract';
import { z } from 'zod';
import { ADMIN_TOKEN_MIN_LENGTH, type AdminSecretConfig, parsePasswordHash } from './admin/secret.js';
import type { TestFault } from './worker/render-task.js';

/** apps/server/{src,dist}/config.* → the repository root. */
const REPOSITORY_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const ROLES = ['all', 'api', 'worker'] as const;
type Role = (typeof ROLES)[number];

/**
 * Far above what a browser needs (6 per host, plus event streams) yet far below what exhausts the
 * process; generous because mobile carriers put many visitors behind one address.
 */
const DEFAULT_CONNECTIONS_PER_IP = 256;

const integer = (min: number) => z.coerce.number().int().min(min);
const seconds = (min = 0) => z.coerce.number().min(min);

/**
 * Every environment variable the server reads, with its default. The README's configuration table
 * lists the same names; `describe` texts are the meaning column.
 */
const envSchema = z.object({
  PORT: integer(0).max(65_535).default(3000).describe('TCP port to listen on'),
  HOST: z.string().min(1).default('0.0.0.0').describe('Interface to listen on'),
  DATA_DIR: z.string().min(1).default('./data').describe('SQLite database, uploaded photos and results'),
  WEB_DIST: z
    .string()
    .min(1)
    .default('apps/web/dist')
    .describe('The web build to serve (a relative default is taken from the repository root); skipped if missing'),
  WORKERS: integer(1).default(availableParallelism()).describe('Render worker threads (default: CPU cores)'),
  WARM_UP_RENDERS: integer(0)
    .default(3)
    .describe(
      "Renders of a bundled portrait each render worker makes before the server is ready: a fresh worker's first renders take 2–3× as long",
    ),
  QUEUE_LIMIT: integer(1).default(1000).describe('Waiting jobs before uploads get 503'),
  STREAM_LIMIT: integer(0).default(10_000).describe('Open event streams before new ones get the overload message'),
  POLL_LIMIT: integer(1).default(20_000).describe('Status polls per second before polls get 408'),
  RATE_LIMIT_WINDOW: seconds(1).default(60).describe('Rate-limit window in seconds'),
  // Generous per address: mobile carriers put many visitors behind one address (carrier-grade NAT).
  RATE_LIMIT_CONSENT: integer(1).default(60).describe('Consent requests per client address per window'),
  RATE_LIMIT_UPLOAD: integer(1).default(20).describe('Uploads per client address per window'),
  // A desktop asks for a new code when one runs out, a phone claims once: a few a minute is plenty, and far
  // too few to guess a code's 140-bit token.
  RATE_LIMIT_HANDOFF: integer(1)
    .default(20)
    .describe('Phone hand-off codes asked for, and codes claimed, per client address per window (each)'),
  // Enough for typos, far too few to guess a 24-character token.
  RATE_LIMIT_SIGN_IN: integer(1).default(5).describe('Operator sign-in attempts per client address per window'),
  RESULT_TTL: seconds(1)
    .default(RESULT_TTL_MS / 1000)
    .describe('Seconds a finished job and its artwork are kept'),
  HANDOFF_TTL: seconds(1)
    .max(HANDOFF.followMs / 1000)
    .default(HANDOFF.claimMs / 1000)
    .describe('Seconds a phone hand-off code can be used (once)'),
  SWEEP_INTERVAL: seconds(0.05).default(60).describe('Seconds between retention sweeps'),
  HEARTBEAT_INTERVAL: seconds(0.05)
    .default(STREAM_HEARTBEAT_MS / 1000)
    .describe('Seconds between `: ping` comments on event streams'),
  MAX_ATTEMPTS: integer(1).default(3).describe('Render attempts before a job fails'),
  // Far above any real render, even on a busy machine: only a stuck one meets it.
  RENDER_TIMEOUT: seconds(1)
    .default(30)
    .describe('Seconds a render may run before it is stopped (its worker thread replaced) and the job retried'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info').describe('pino log level'),
  TRUST_PROXY: z
    .string()
    .default('false')
    .describe('Fastify trustProxy: true, false, a hop count or a list of addresses'),
  // Connection bounds: each one closes a kind of socket a client could otherwise hold for free.
  CONNECTION_TIMEOUT: seconds(0.1)
    .default(30)
    .describe(
      'Seconds a connection may stay silent (no byte either way) before it is closed; above HEARTBEAT_INTERVAL',
    ),
  HEADERS_TIMEOUT: seconds(0.1).default(15).describe("Seconds a client has to send a request's headers"),
  REQUEST_TIMEOUT: seconds(0.1)
    .default(120)
    .describe('Seconds a client has to send a whole request, upload body included'),
  KEEP_ALIVE_TIMEOUT: seconds(0.1)
    .default(72)
    .describe('Seconds an idle keep-alive connection stays open (above the load balancer idle timeout)'),
  CONNECTIONS_PER_IP: integer(0)
    .optional()
    .describe('Open connections per peer address, 0 for no cap (default 256, or 0 when TRUST_PROXY is set)'),
  ROLE: z
    .enum(ROLES)
    .default('all')
    .describe('What this process runs: api (HTTP only), worker (queue consumer and render workers), all'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'expected a redis:// or rediss:// URL')
    .optional()
    .describe('Scale mode: BullMQ queue and status events on this Redis (set together with DATABASE_URL)'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'expected a postgres:// or postgresql:// URL')
    .optional()
    .describe('Scale mode: jobs, consents and page views in this PostgreSQL database (set with REDIS_URL)'),
  QUEUE_NAME: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'expected letters, digits, - or _')
    .default('renders')
    .describe('Scale mode: BullMQ queue name (deployments sharing one Redis need different names)'),
  QUEUE_LOCK_TIMEOUT: seconds(1)
    .default(30)
    .describe("Scale mode: seconds without a worker's heartbeat before its job goes back to the queue"),
  STORAGE_DIR: z
    .string()
    .min(1)
    .optional()
    .describe('Photos and artworks (default: DATA_DIR); in scale mode a directory every process shares'),
  S3_BUCKET: z
    .string()
    .min(3)
    .optional()
    .describe('Keep photos and artworks in this S3 bucket instead (credentials from the standard AWS_* variables)'),
  S3_ENDPOINT: z.url().optional().describe('S3-compatible endpoint (MinIO, Ceph…); unset for AWS'),
  S3_REGION: z.string().min(1).default('us-east-1').describe('S3 region'),
  ADMIN_TOKEN: z
    .string()
    .min(ADMIN_TOKEN_MIN_LENGTH, `must be at least ${ADMIN_TOKEN_MIN_LENGTH} characters (e.g. openssl rand -base64 32)`)
    .optional()
    .describe('Turns on the dashboard (/admin) and the regulator export: the token operators sign in with'),
  ADMIN_PASSWORD_HASH: z
    .string()
    .superRefine((value, context) => {
      const parsed = parsePasswordHash(value);
      if (typeof parsed === 'string') context.addIssue({ code: 'custom', message: parsed });
    })
    .optional()
    .describe(
      'Instead of ADMIN_TOKEN: an operator password, as the scrypt hash `npm run admin:hash -w apps/server` prints',
    ),
  CAMPAIGN_FILE: z
    .string()
    .min(1)
    .optional()
    .describe('The campaign (brand, theme, art, markets, legal links, copy) as JSON; default: the built-in campaign'),
  TEST_CRASH_ATTEMPTS: integer(0)
    .default(0)
    .describe('Test only: a worker thread exits during attempts 1…n of each job (a real crash mid-job)'),
  TEST_HANG_ATTEMPTS: integer(0)
    .default(0)
    .describe('Test only: a render never returns during attempts 1…n of each job (its thread blocks in a loop)'),
});

/** Settings that are only wrong together; each issue names the variable to change. */
const checkedEnvSchema = envSchema.superRefine((env, context) => {
  const problem = (name: string, message: string) => context.addIssue({ code: 'custom', path: [name], message });
  if (env.REDIS_URL && !env.DATABASE_URL) problem('DATABASE_URL', 'scale mode needs it too when REDIS_URL is set');
  if (env.DATABASE_URL && !env.REDIS_URL) problem('REDIS_URL', 'scale mode needs it too when DATABASE_URL is set');
  if (env.ROLE !== 'all' && !(env.REDIS_URL && env.DATABASE_URL)) {
    problem('ROLE', 'api and worker processes share REDIS_URL and DATABASE_URL; set both, or use ROLE=all');
  }
  if (env.ADMIN_TOKEN && env.ADMIN_PASSWORD_HASH) {
    problem('ADMIN_PASSWORD_HASH', 'choose one way to sign in: ADMIN_TOKEN or ADMIN_PASSWORD_HASH');
  }
  if (env.S3_ENDPOINT && !env.S3_BUCKET) problem('S3_ENDPOINT', 'set S3_BUCKET as well');
  if (env.S3_BUCKET && env.STORAGE_DIR) problem('STORAGE_DIR', 'choose one storage: STORAGE_DIR or S3_BUCKET');
  // Heartbeats are what keeps a quiet event stream alive through the idle timeout.
  if (env.HEARTBEAT_INTERVAL >= env.CONNECTION_TIMEOUT) {
    problem('HEARTBEAT_INTERVAL', 'must be below CONNECTION_TIMEOUT, or idle event streams are cut');
  }
  // Node refuses a headers timeout longer than the whole-request timeout.
  if (env.HEADERS_TIMEOUT > env.REQUEST_TIMEOUT) problem('HEADERS_TIMEOUT', 'must not exceed REQUEST_TIMEOUT');
});

export type StorageConfig =
  | { kind: 'directory'; dir: string }
  | { kind: 's3'; bucket: string; endpoint: string | undefined; region: string };

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  webDist: string;
  workers: number;
  warmUpRenders: number;
  queueLimit: number;
  streamLimit: number;
  pollLimit: number;
  rateLimit: { windowMs: number; consent: number; upload: number; handoff: number; signIn: number };
  resultTtlMs: number;
  /** How long a desktop → phone code can be used. */
  handoffClaimMs: number;
  sweepIntervalMs: number;
  heartbeatMs: number;
  maxAttempts: number;
  /** A render running longer is stopped and its worker thread replaced; the job is retried. */
  renderTimeoutMs: number;
  logLevel: (typeof LOG_LEVELS)[number];
  /** Fastify's trustProxy: a flag, addresses/CIDRs, or a function trusting the first n hops. */
  trustProxy: boolean | string | ((address: string, hop: number) => boolean);
  /** Socket timeouts in milliseconds (see `plugins/connection-limits.ts`). */
  timeouts: { idleMs: number; headersMs: number; requestMs: number; keepAliveMs: number };
  /** Open connections one peer address may hold; 0: no cap. */
  connectionsPerAddress: number;
  /** Test hooks: how many of each job's first attempts each fault takes (0 in production). */
  testFaultAttempts: Record<TestFault, number>;
  role: Role;
  /** Both set: scale mode (BullMQ, PostgreSQL, Redis pub/sub); both unset: embedded mode. */
  scale: { redisUrl: string; databaseUrl: string; queueName: string; lockDurationMs: number } | undefined;
  storage: StorageConfig;
  /** The operators' sign-in secret; undefined: the dashboard and the export are off (404). */
  admin: AdminSecretConfig | undefined;
  /** The campaign file's campaign, validated; the built-in one without CAMPAIGN_FILE. */
  campaign: Campaign;
}

/** Variables whose values never appear in a message. */
const SECRETS = new Set(['ADMIN_TOKEN', 'ADMIN_PASSWORD_HASH']);

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads the configuration from the environment; one error names every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(
    Object.keys(envSchema.shape)
      .filter((key) => env[key] !== undefined && env[key] !== '')
      .map((key) => [key, env[key]]),
  );
  const parsed = checkedEnvSchema.safeParse(present);
  // The campaign file is checked too when a variable is bad: one start names every problem.
  const campaign = present.CAMPAIGN_FILE ? loadCampaign(present.CAMPAIGN_FILE) : DEFAULT_CAMPAIGN;
  const lines = parsed.success
    ? []
    : parsed.error.issues.map((issue) => {
        const name = String(issue.path[0]);
        const value = SECRETS.has(name) ? '(hidden)' : JSON.stringify(present[name]);
        return `  ${issue.path.join('.')}=${value}: ${issue.message}`;
      });
  if (typeof campaign === 'string') lines.push(campaign);
  if (!parsed.success || typeof campaign === 'string') {
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    // The default works whichever folder the process starts in (repository root or apps/server).
    webDist: present.WEB_DIST === undefined ? path.resolve(REPOSITORY_ROOT, e.WEB_DIST) : path.resolve(e.WEB_DIST),
    workers: e.WORKERS,
    warmUpRenders: e.WARM_UP_RENDERS,
    queueLimit: e.QUEUE_LIMIT,
    streamLimit: e.STREAM_LIMIT,
    pollLimit: e.POLL_LIMIT,
    rateLimit: {
      windowMs: e.RATE_LIMIT_WINDOW * 1000,
      consent: e.RATE_LIMIT_CONSENT,
      upload: e.RATE_LIMIT_UPLOAD,
      handoff: e.RATE_LIMIT_HANDOFF,
      signIn: e.RATE_LIMIT_SIGN_IN,
    },
    resultTtlMs: e.RESULT_TTL * 1000,
    handoffClaimMs: e.HANDOFF_TTL * 1000,
    sweepIntervalMs: e.SWEEP_INTERVAL * 1000,
    heartbeatMs: e.HEARTBEAT_INTERVAL * 1000,
    maxAttempts: e.MAX_ATTEMPTS,
    renderTimeoutMs: e.RENDER_TIMEOUT * 1000,
    logLevel: e.LOG_LEVEL,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    timeouts: {
      idleMs: e.CONNECTION_TIMEOUT * 1000,
      headersMs: e.HEADERS_TIMEOUT * 1000,
      requestMs: e.REQUEST_TIMEOUT * 1000,
      keepAliveMs: e.KEEP_ALIVE_TIMEOUT * 1000,
    },
    // Behind a proxy every visitor shares the proxy's address: there the proxy is the place to cap clients.
    connectionsPerAddress: e.CONNECTIONS_PER_IP ?? (e.TRUST_PROXY === 'false' ? DEFAULT_CONNECTIONS_PER_IP : 0),
    testFaultAttempts: { crash: e.TEST_CRASH_ATTEMPTS, hang: e.TEST_HANG_ATTEMPTS },
    role: e.ROLE,
    scale:
      e.REDIS_URL && e.DATABASE_URL
        ? {
            redisUrl: e.REDIS_URL,
            databaseUrl: e.DATABASE_URL,
            queueName: e.QUEUE_NAME,
            lockDurationMs: e.QUEUE_LOCK_TIMEOUT * 1000,
          }
        : undefined,
    storage: e.S3_BUCKET
      ? { kind: 's3', bucket: e.S3_BUCKET, endpoint: e.S3_ENDPOINT, region: e.S3_REGION }
      : { kind: 'directory', dir: path.resolve(e.STORAGE_DIR ?? e.DATA_DIR) },
    admin: e.ADMIN_TOKEN
      ? { kind: 'token', token: e.ADMIN_TOKEN }
      : e.ADMIN_PASSWORD_HASH
        ? { kind: 'passwordHash', passwordHash: e.ADMIN_PASSWORD_HASH }
        : undefined,
    campaign,
  };
}

/** Reads and validates the campaign file; else the line for the configuration error, naming every bad field. */
function loadCampaign(file: string): Campaign | string {
  const resolved = path.resolve(file);
  let text: string;
  try {
    text = readFileSync(resolved, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    return `  CAMPAIGN_FILE=${JSON.stringify(file)}: ${reason} (${resolved})`;
  }
  try {
    return parseCampaignText(text, resolved);
  } catch (error) {
    if (!(error instanceof CampaignError)) throw error;
    return `  CAMPAIGN_FILE=${JSON.stringify(file)}: ${error.message}`;
  }
}

function parseTrustProxy(value: string): Config['trustProxy'] {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  return value;
}
