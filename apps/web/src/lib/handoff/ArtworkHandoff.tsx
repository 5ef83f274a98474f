import { useId, useRef } from 'react';
import { useLocale } from '../locale-context';
import { useSession } from '../session';
import { OfferedCode } from './HandoffCode';
import { useHandoff } from './use-handoff';
import './handoff.css';

/** Once the phone has opened the artwork there is nothing more to follow. */
const STOP_AT = ['connected'] as const;

/**
 * "Get it on your phone", under an artwork made on this computer: a code that opens the same artwork on
 * the phone, ready to save and share there, and word once the phone has it.
 */
export default function ArtworkHandoff({ jobId }: { jobId: string }) {
  const { t } = useLocale();
  const { userSessionId } = useSession();
  const headingId = useId();
  // The button pressed goes away with the old code: the keyboard stays in the panel, on its heading.
  const heading = useRef<HTMLHeadingElement>(null);
  const { view, renew } = useHandoff({ userSessionId, jobId, stopAt: STOP_AT });
  const state = view.phase === 'offered' ? view.offer.state : null;
  const opened = state === 'connected' || state === 'uploading' || state === 'submitted';

  return (
    <section className="handoff card" aria-labelledby={headingId} data-testid="artwork-handoff">
      <div className="handoff__status" aria-live="polite" aria-atomic="true">
        <h2 id={headingId} ref={heading} tabIndex={-1} className="handoff__title">
          {t('handoff.artworkHeading')}
        </h2>
        <p className="handoff__body">
          {t(opened ? 'handoff.artworkOpened' : state === 'expired' ? 'handoff.expired' : 'handoff.artworkBody')}
        </p>
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
