/** One message of an event stream: its event name (`message` unless named) and its `data:` parsed as JSON. */
export interface StreamMessage {
  event: string;
  data: unknown;
}

export interface OpenedStream {
  status: number;
  headers: Headers;
  /** Every message so far, in order (heartbeat comments left out). */
  messages: StreamMessage[];
  /** Resolves once `count` messages have arrived; rejects if they have not within `timeoutMs`. */
  until(count: number, timeoutMs?: number): Promise<StreamMessage[]>;
  /** Resolves when the server has ended the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Reads an event stream over a plain fetch, as a browser's EventSource would, keeping what it says. */
export async function openEventStream(url: string, headers: Record<string, string> = {}): Promise<OpenedStream> {
  const abort = new AbortController();
  const response = await fetch(url, { headers, signal: abort.signal });
  const messages: StreamMessage[] = [];
  const waiters = new Set<() => void>();
  const reader = response.body?.getReader();
  const ended = (async () => {
    if (!reader) return;
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
        const field = (name: string) =>
          block
            .split('\n')
            .find((line) => line.startsWith(`${name}: `))
            ?.slice(name.length + 2);
        const data = field('data');
        if (data === undefined) continue;
        messages.push({ event: field('event') ?? 'message', data: JSON.parse(data) });
        for (const wake of waiters) wake();
      }
    }
  })();
  const until = (count: number, timeoutMs = 10_000) =>
    new Promise<StreamMessage[]>((resolve, reject) => {
      const check = () => {
        if (messages.length < count) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(messages.slice(0, count));
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`${messages.length} of ${count} stream messages after ${timeoutMs} ms`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return {
    status: response.status,
    headers: response.headers,
    messages,
    until,
    ended,
    close: () => abort.abort(),
  };
}
