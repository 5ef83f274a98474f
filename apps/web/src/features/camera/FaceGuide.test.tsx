import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CoachMessage } from './coach/CoachMessage';
import { FaceGuide } from './FaceGuide';

afterEach(cleanup);

describe('the face circle', () => {
  it('is the plain ring without a guide, with no badge', () => {
    const { container } = render(<FaceGuide />);
    expect(container.querySelector('svg')?.getAttribute('class')).toBe('face-guide');
    expect(container.querySelector('.face-guide__badge')).toBeNull();
  });

  it('tells a good face from one to adjust by shape, not colour alone: a tick or an exclamation mark', () => {
    const good = render(<FaceGuide advice="good" />).container;
    expect(good.querySelector('svg')?.getAttribute('class')).toContain('face-guide--good');
    expect(good.querySelectorAll('.face-guide__badge path')).toHaveLength(1);
    expect(good.querySelector('.face-guide__dot')).toBeNull();
    cleanup();
    const adjust = render(<FaceGuide advice="closer" />).container;
    expect(adjust.querySelector('svg')?.getAttribute('class')).toContain('face-guide--adjust');
    expect(adjust.querySelector('.face-guide__dot')).not.toBeNull();
  });
});

describe('the coaching words', () => {
  it('are a polite live region that is there before the first advice, so the first one is announced', () => {
    const { rerender } = render(<CoachMessage advice={null} text={(advice) => `say ${advice}`} />);
    const region = screen.getByRole('status');
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(region.textContent).toBe('');
    rerender(<CoachMessage advice="closer" text={(advice) => `say ${advice}`} />);
    expect(screen.getByRole('status')).toBe(region);
    expect(region.textContent).toBe('say closer');
  });
});
