import type { CoachAdvice } from './coach';

interface CoachMessageProps {
  advice: CoachAdvice | null;
  text: (advice: CoachAdvice) => string;
}

/**
 * The guide's words over the preview. A polite live region that is always in the page while the
 * guide runs, so screen readers hear each new advice once, after what they are reading; the advice
 * itself only changes once it has settled (coach.ts), so there is no chatter.
 */
export function CoachMessage({ advice, text }: CoachMessageProps) {
  return (
    <p
      className={`coach-message${advice ? ` coach-message--${advice === 'good' ? 'good' : 'adjust'}` : ''}`}
      role="status"
      aria-live="polite"
      data-testid="coach-message"
    >
      {advice ? text(advice) : ''}
    </p>
  );
}
