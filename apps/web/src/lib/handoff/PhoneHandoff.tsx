import { useEffect, useId, useRef, useState } from 'react';
import { useLocale } from '../locale-context';
import { sessionStore, useSession } from '../session';
import { OfferedCode } from './HandoffCode';
import type { HandoffOffer } from './use-handoff';
import { useHandoff } from './use-handoff';
import './handoff.css';

interface PhoneHandoffProps {
  /** A phone opened the code: this computer's camera can go off. */
  onConnected(): void;
  /** The phone's photo was accepted as this job: the screen follows it as after its own upload. */
  onSubmitted(jobId: string): void;
}

/** What the panel says in each state of the hand-off: heading and body copy keys. */
const WORDS: Record<'offer' | 'expired' | 'connected' | 'uploading', { heading: string; body: string }> = {
  offer: { heading: 'handoff.offerHeading', body: 'handoff.offerBody' },
  expired: { heading: 'handoff.offerHeading', body: 'handoff.expired' },
  connected: { heading: 'handoff.connectedHeading', body: 'handoff.connectedBody' },
  uploading: { heading: 'handoff.uploadingHeading', body: 'handoff.uploadingBody' },
};

/**
 * "Use your phone", beside the photo step on a computer (docs/product.md#desktop-to-phone): a code that
 * opens this visit on the phone, the same link to type, then what the phone is doing. The session remembers
 * the hand-off while it is offered and, once the phone's photo arrived, for good: the result screen then
 * knows the artwork is on the phone already.
 */
export default function PhoneHandoff({ onConnected, onSubmitted }: PhoneHandoffProps) {
  const { t } = useLocale();
  const session = useSession();
  const headingId = useId();
  // The button pressed goes away with the old code: the keyboard stays in the panel, on its heading.
  const heading = useRef<HTMLHeadingElement>(null);
  // A reload while the phone is at work follows the same hand-off again instead of offering a new code.
  const [resumeId] = useState(() => (session.handoffRole === 'desktop' ? session.handoffId : null));
  const ownId = useRef<string | null>(null);
  const phoneArrived = useRef(false);
  const submitted = useRef(false);

  const onStatus = (offer: HandoffOffer) => {
    ownId.current = offer.handoffId;
    if ((offer.state === 'connected' || offer.state === 'uploading') && !phoneArrived.current) {
      phoneArrived.current = true;
      onConnected();
    }
    if (offer.state === 'submitted' && offer.jobId && !submitted.current) {
      submitted.current = true;
      onSubmitted(offer.jobId);
    }
  };
  const { view, renew } = useHandoff({
    userSessionId: session.userSessionId,
    resumeId,
    onCreated: (offer) => {
      ownId.current = offer.handoffId;
      phoneArrived.current = false;
      sessionStore.update({ handoffId: offer.handoffId, handoffRole: 'desktop' });
    },
    onStatus,
  });

  // Leaving without the phone's photo (the visitor used this computer after all): the next job is not the phone's.
  useEffect(
    () => () => {
      const { handoffId } = sessionStore.getState();
      if (!submitted.current && handoffId !== null && handoffId === ownId.current) {
        sessionStore.update({ handoffId: null, handoffRole: null });
      }
    },
    [],
  );

  const state = view.phase === 'offered' ? view.offer.state : null;
  const words =
    state === 'connected' || state === 'uploading' ? WORDS[state] : state === 'expired' ? WORDS.expired : WORDS.offer;

  return (
    <section className="handoff card" aria-labelledby={headingId} data-testid="phone-handoff">
      <div className="handoff__status" aria-live="polite" aria-atomic="true">
        <h2 id={headingId} ref={heading} tabIndex={-1} className="handoff__title">
          {t(words.heading)}
        </h2>
        <p className="handoff__body">{t(words.body)}</p>
      </div>
      <OfferedCode
        view={view}
        onRenew={() => {
          renew();
          heading.current?.focus();
        }}
      />
    </section>
  );
}
