import { configure } from '@testing-library/react';
import { vi } from 'vitest';

// Screens are lazy chunks that Vitest transforms on first use; give them time on a busy machine.
configure({ asyncUtilTimeout: 8000 });

// Rendered screens send page views and events; in tests there is no API to receive them.
vi.mock('./src/lib/pageview', () => ({
  sendPageview: vi.fn(async () => undefined),
  sendEvent: vi.fn(async () => undefined),
}));
