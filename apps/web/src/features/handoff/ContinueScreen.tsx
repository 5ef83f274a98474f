import { HANDOFF, type HandoffClaimResponse, normalizeHandoffToken, screenPath } from '@selfie-mosaic/contract';
import { useCallback, useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { ApiRequestError } from '../../lib/api-error';
import { claimHandoff } from '../../lib/handoff-api';
import { jobSession } from '../../lib/job';
import { useLocale } from '../../lib/locale-context';
import { messageText } from '../../lib/messages';
import { usePageMeta } from '../../lib/page-meta';
import { sessionStore } from '../../lib/session';
import { Button } from '../../lib/ui/Button';
import { MosaicMark } from '../../lib/ui/MosaicMark';
import '../../lib/handoff/handoff.css';

type Claim =
  | { status: 'confirming' }
  | { status: 'claiming' }
  | { status: 'refused' }
  | { status: 'failed'; code: string };

/**
 * A code works once: each token is claimed once per page, however often React runs the effect that
 * asks. Only a claim that got no answer is forgotten, so "Try again" can send it again.
 */
const claims = new Map<string, Promise<HandoffClaimResponse>>();

function claimOnce(token: string): Promise<HandoffClaimResponse> {
  let claim = claims.get(token);
  if (!claim) {
    claim = claimHandoff(token);
    claims.set(token, claim);
    claim.catch(() => claims.delete(token));
  }
  return claim;
}

/** The server's answer means the code cannot work (used, run out, forged): no retry will change that. */
function isRefusal(error: unknown): boolean {
  if (!(error instanceof ApiRequestError)) return false;
  return error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429;
}

/**
 * The token the code carried. The address loses it as soon as the screen is shown, so it is kept here for
 * the page's life: a screen drawn again (a change of language) still has it.
 */
let carried: string | null = null;

function tokenFromAddress(): string | null {
  const fragment = window.location.hash.slice(1);
  if (!fragment) return carried;
  try {
    carried = normalizeHandoffToken(decodeURIComponent(fragment));
  } catch {
    carried = null;
  }
  return carried;
}

/**
 * The phone's side of a hand-off (docs/product.md#desktop-to-phone): it claims the code's token and goes on
 * with the computer's visit, on its photo step (or its artwork), without the age gate and terms again, in
 * the same market and language. A code that no longer works is said so plainly, with the way to the start;
 * the camera is never asked for here.
 */
export default function ContinueScreen() {
  const { t, path } = useLocale();
  const [, navigate] = useLocation();
  const [token] = useState(tokenFromAddress);
  // Nothing is claimed until the visitor says so: a link someone else sent never takes this phone over
  // by being opened. A new request object sends a claim that got no answer once more.
  const [request, setRequest] = useState<{ token: string | null }>({ token: null });
  const [claim, setClaim] = useState<Claim>(token ? { status: 'confirming' } : { status: 'refused' });
  usePageMeta(
    t(
      claim.status === 'refused'
        ? 'handoff.invalidHeading'
        : claim.status === 'confirming'
          ? 'handoff.confirmHeading'
          : 'handoff.claimingHeading',
    ),
  );

  // Off the address at once: a reload, the history or a screenshot shared later never carries the code.
  useEffect(() => {
    if (window.location.hash) {
      window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
    }
  }, []);

  useEffect(() => {
    const { token } = request;
    if (!token) return;
    let current = true;
    setClaim({ status: 'claiming' });
    claimOnce(token).then(
      (claimed) => {
        if (!current) return;
        const country = claimed.country_iso.toLowerCase();
        const language = claimed.language.toLowerCase();
        // The computer's session goes on here, under the consent it recorded; anything of an earlier visit on this phone goes.
        jobSession.reset();
        sessionStore.update({
          userSessionId: claimed.user_session_id,
          consentGiven: true,
          questionAnswer: 'yes',
          currentCountry: country,
          currentLanguage: language,
          handoffId: claimed.handoff_id,
          handoffRole: 'phone',
          currentJobId: claimed.job_id,
        });
        carried = null;
        // An artwork's code opens its result, which checks the job and shows it; any other the photo step.
        navigate(screenPath(country, language, claimed.job_id ? 'result' : 'photo'), { replace: true });
      },
      (error: unknown) => {
        if (!current) return;
        if (isRefusal(error)) setClaim({ status: 'refused' });
        else setClaim({ status: 'failed', code: error instanceof ApiRequestError ? error.code : 'internal' });
      },
    );
    return () => {
      current = false;
    };
  }, [request, navigate]);

  const startHere = useCallback(() => {
    carried = null;
    jobSession.reset();
    navigate(path('start'), { replace: true });
  }, [navigate, path]);

  if (claim.status === 'confirming') {
    return (
      <section className="screen screen--centered continue" aria-labelledby="continue-heading">
        <MosaicMark columns={6} rows={6} seed={7} className="screen__emblem" />
        <h1 id="continue-heading" className="display">
          {t('handoff.confirmHeading')}
        </h1>
        <p className="lead">{t('handoff.confirmBody')}</p>
        <div className="actions">
          <Button onClick={() => setRequest({ token })} testId="continue-confirm">
            {t('handoff.confirmButton')}
          </Button>
          <Button variant="ghost" onClick={startHere} testId="continue-start">
            {t('handoff.startHere')}
          </Button>
        </div>
      </section>
    );
  }

  if (claim.status === 'refused') {
    return (
      <section className="screen screen--centered continue" aria-labelledby="continue-heading">
        <MosaicMark columns={6} rows={6} seed={11} palette="stone" className="screen__emblem" />
        <h1 id="continue-heading" className="display">
          {t('handoff.invalidHeading')}
        </h1>
        <p className="lead" role="alert">
          {t('handoff.invalidBody', { count: HANDOFF.claimMs / 60_000 })}
        </p>
        <div className="actions">
          <Button onClick={startHere} testId="continue-start">
            {t('handoff.startHere')}
          </Button>
        </div>
      </section>
    );
  }

  return (
    <section className="screen screen--centered continue" aria-labelledby="continue-heading">
      <h1 id="continue-heading" className="display">
        {t('handoff.claimingHeading')}
      </h1>
      {claim.status === 'claiming' ? (
        <span className="spinner spinner--dark continue__spinner" aria-hidden="true" />
      ) : (
        <>
          <p className="form-error" role="alert">
            {messageText(t, claim.code)}
          </p>
          <div className="actions">
            <Button onClick={() => setRequest(({ token }) => ({ token }))} testId="continue-retry">
              {t('photo.tryAgain')}
            </Button>
          </div>
        </>
      )}
    </section>
  );
}
