import { expect, it } from 'vitest';
import { LogThrottle } from './log-throttle.js';

it('logs the first warning of a kind, then that kind once per quiet interval with how many it left out', () => {
  const lines: { fields: Record<string, unknown>; message: string }[] = [];
  let now = 0;
  const throttle = new LogThrottle(
    { warn: (fields: Record<string, unknown>, message: string) => lines.push({ fields, message }) } as never,
    1000,
    () => now,
  );
  for (let i = 0; i < 50; i++) {
    throttle.warn('redis:ECONNREFUSED', { dependency: 'redis' }, 'redis unreachable');
    now += 10;
  }
  throttle.warn('database:57P01', { dependency: 'database' }, 'database unreachable');
  expect(lines.map((line) => line.message)).toEqual(['redis unreachable', 'database unreachable']);

  now = 1000;
  throttle.warn('redis:ECONNREFUSED', { dependency: 'redis' }, 'redis unreachable');
  expect(lines.at(-1)).toEqual({ fields: { dependency: 'redis', repeated: 49 }, message: 'redis unreachable' });
});
