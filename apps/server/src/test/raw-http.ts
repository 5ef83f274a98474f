import net from 'node:net';

/** What came back on a raw connection: the status line's code, the body, and when the server closed it. */
export interface RawAnswer {
  status: number | undefined;
  headers: string;
  body: string;
  /** Milliseconds from connecting until the server closed the connection. */
  closedAfterMs: number;
}

function parse(raw: string, startedAt: number): RawAnswer {
  const [head = '', ...rest] = raw.split('\r\n\r\n');
  const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1];
  return {
    status: status ? Number(status) : undefined,
    headers: head,
    body: rest.join('\r\n\r\n'),
    closedAfterMs: Date.now() - startedAt,
  };
}

/**
 * Opens a TCP connection to the server, sends `parts` (a string or bytes each, `pauseMs` apart, then
 * keeps sending `trickle` every `pauseMs` until the server hangs up if given) and resolves with what the
 * server answered once it closes the connection. Rejects after `giveUpMs`: a server that never closes.
 */
export function rawExchange(
  url: string,
  parts: (string | Buffer)[],
  options: { pauseMs?: number; trickle?: string; giveUpMs?: number; onConnect?: (socket: net.Socket) => void } = {},
): Promise<RawAnswer> {
  const { port, hostname } = new URL(url);
  const { pauseMs = 0, trickle, giveUpMs = 60_000 } = options;
  return new Promise((resolve, reject) => {
    const startedAt = Date.now();
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${giveUpMs} ms`));
    }, giveUpMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    // A reset after the answer is still a close: what matters is what was answered and when.
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(giveUp);
      clearTimeout(timer);
      resolve(parse(Buffer.concat(chunks).toString('latin1'), startedAt));
    });
    socket.on('connect', () => {
      options.onConnect?.(socket);
      const queue = [...parts];
      const next = () => {
        if (socket.destroyed) return;
        const part = queue.shift() ?? trickle;
        if (part === undefined) return;
        socket.write(part);
        timer = setTimeout(next, pauseMs);
      };
      next();
    });
  });
}

/** The XSRF cookie and header pair a browser would send, from the cookie the server sets. */
export async function xsrfPair(url: string): Promise<{ cookie: string; token: string }> {
  const response = await fetch(`${url}/healthz`);
  const cookie = (response.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
  return { cookie, token: decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1)) };
}
