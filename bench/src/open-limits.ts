/**
 * Limits opened wide, so a benchmark measures the server and not its load shedding. Every simulated
 * visitor connects from this one address, so the per-address cap is off too.
 */
export const OPEN_LIMITS = {
  QUEUE_LIMIT: '100000',
  STREAM_LIMIT: '20000',
  POLL_LIMIT: '10000000',
  RATE_LIMIT_UPLOAD: '100000',
  RATE_LIMIT_CONSENT: '100000',
  CONNECTIONS_PER_IP: '0',
};
