import { handoffUrl } from '@selfie-mosaic/contract';
import { Fragment, type ReactNode } from 'react';
import { useLocale } from '../locale-context';
import { messageText } from '../messages';
import { Button } from '../ui/Button';
import { QrCode } from './QrCode';
import type { HandoffView } from './use-handoff';

type HandoffCodeProps = { pending: true } | { pending?: false; token: string; validity: string };

/**
 * The code and the same link to type, in this market and language. The link is an address, so it reads
 * left to right on a right-to-left page too, and it is selected whole with one click for copying.
 */
export function HandoffCode(props: HandoffCodeProps) {
  const { t, country, locale } = useLocale();
  if (props.pending) {
    return (
      <div className="handoff__code">
        <div className="handoff__qr handoff__qr--pending">
          <span className="spinner spinner--dark" aria-hidden="true" />
        </div>
      </div>
    );
  }
  const url = handoffUrl(window.location.origin, country, locale.code, props.token);
  return (
    <div className="handoff__code">
      <div className="handoff__qr">
        <QrCode text={url} label={t('handoff.qrAlt')} testId="handoff-qr" />
      </div>
      <div className="handoff__typed">
        <p className="handoff__link-label">{t('handoff.linkLabel')}</p>
        <p className="handoff__link" dir="ltr" data-testid="handoff-link">
          {breakable(url.replace(/^https?:\/\//, ''))}
        </p>
        <p className="handoff__validity">{props.validity}</p>
      </div>
    </div>
  );
}

/** The address with line-break chances after its slashes and the fragment mark, where a reader expects them. */
function breakable(address: string): ReactNode[] {
  let start = 0;
  return address.split(/(?<=[/#])/).map((part) => {
    const at = start;
    start += part.length;
    return (
      <Fragment key={at}>
        {at > 0 && <wbr />}
        {part}
      </Fragment>
    );
  });
}

/** Why there is no code (a failure in the catalogue's words, or none when it ran out) and the way to a new one. */
export function HandoffProblem(props: { code: string | null; action: string; testId: string; onAction(): void }) {
  const { t } = useLocale();
  return (
    <div className="handoff__problem">
      {props.code && (
        <p className="form-error" role="alert">
          {messageText(t, props.code)}
        </p>
      )}
      <Button variant="ghost" onClick={props.onAction} testId={props.testId}>
        {props.action}
      </Button>
    </div>
  );
}

/**
 * What a hand-off panel shows under its words: the code being made, the code, or why there is none with
 * the way to a new one. `onRenew` asks for that new code.
 */
export function OfferedCode({ view, onRenew }: { view: HandoffView; onRenew(): void }) {
  const { t } = useLocale();
  const state = view.phase === 'offered' ? view.offer.state : null;
  return (
    <>
      {view.phase === 'creating' && <HandoffCode pending />}
      {view.phase === 'offered' && state === 'waiting' && view.offer.token && (
        <HandoffCode token={view.offer.token} validity={t('handoff.validity', { count: view.offer.minutes })} />
      )}
      {(view.phase === 'failed' || state === 'expired') && (
        <HandoffProblem
          code={view.phase === 'failed' ? view.code : null}
          action={t(view.phase === 'failed' ? 'photo.tryAgain' : 'handoff.newCode')}
          testId={view.phase === 'failed' ? 'handoff-retry' : 'handoff-new-code'}
          onAction={onRenew}
        />
      )}
    </>
  );
}
