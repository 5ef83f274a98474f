import { cleanup, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { mergeEnglish } from '../../lib/i18n';
import english from '../../locales/en.json';
import { QueueProgress } from './QueueProgress';

const i18n = i18next.createInstance();
await i18n.init({
  lng: 'en',
  resources: { en: { translation: mergeEnglish(english) } },
  interpolation: { escapeValue: false },
});
const t = i18n.getFixedT('en');

afterEach(cleanup);

function show(position: number, serverLoad = false, etaSeconds: number | null = null) {
  render(<QueueProgress t={t} position={position} serverLoad={serverLoad} etaSeconds={etaSeconds} />);
  return {
    message: screen.getByRole('status').textContent,
    progress: screen.getByRole('progressbar', { name: 'Progress' }).getAttribute('aria-valuenow'),
  };
}

describe('queue message and progress', () => {
  it('position 0: processing, full bar', () => {
    expect(show(0)).toEqual({ message: 'Processing your image...', progress: '100' });
  });

  it('position 1: next, 80%', () => {
    expect(show(1)).toEqual({ message: 'Your image is being processed now...', progress: '80' });
  });

  it('position n: the position, 20 points less per place, never below 10', () => {
    expect(show(3)).toEqual({ message: 'You are in queue position 3', progress: '40' });
    cleanup();
    expect(show(12)).toEqual({ message: 'You are in queue position 12', progress: '10' });
  });

  it('adds the time estimate to the announced message, and leaves it out under heavy load', () => {
    expect(show(3, false, 44).message).toBe(
      'You are in queue position 3 Your image will be ready in about 40 seconds.',
    );
    cleanup();
    expect(show(3, true, 44).message).toBe('Server is under heavy load, please wait...');
  });

  it('heavy load wins over the position', () => {
    expect(show(2, true).message).toBe('Server is under heavy load, please wait...');
  });
});
