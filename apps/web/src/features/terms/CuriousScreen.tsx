import { legalLinks } from '@selfie-mosaic/campaign';
import { useId, useState } from 'react';
import { Trans } from 'react-i18next/TransWithoutContext';
import { Link, Redirect, useLocation } from 'wouter';
import { ConsentError, submitConsent } from '../../lib/consent';
import { useLocale } from '../../lib/locale-context';
import { messageText } from '../../lib/messages';
import { usePageMeta } from '../../lib/page-meta';
import { sessionStore, useSession } from '../../lib/session';
import { Button } from '../../lib/ui/Button';
import { MosaicMark } from '../../lib/ui/MosaicMark';

/**
 * A tick survives a visit to the terms page and back. It belongs to one session: after a restart
 * the box starts empty again, as consent must never be pre-ticked.
 */
let tickedInSession: string | null = null;

/** What the alert under the consent line says: a failure's catalogue title, then its reason. */
interface Problem {
  title?: string;
  text: string;
}

/** Screen 3: accept the terms, then continue to the camera. */
export default function CuriousScreen() {
  const { t, i18n, locale, country, market, path } = useLocale();
  const [, navigate] = useLocation();
  const session = useSession();
  const [agreed, setAgreedState] = useState(session.consentGiven || tickedInSession === session.userSessionId);
  const setAgreed = (value: boolean) => {
    tickedInSession = value ? session.userSessionId : null;
    setAgreedState(value);
  };
  const [problem, setProblem] = useState<Problem | null>(null);
  const [sending, setSending] = useState(false);
  const checkboxId = useId();
  const problemId = useId();
  usePageMeta(t('curious.title'));
  const termsUrl = legalLinks(market, locale.code).terms;

  if (session.questionAnswer !== 'yes') return <Redirect to={path('start')} replace />;

  const onContinue = async () => {
    if (!agreed) {
      setProblem({ text: t('curious.mustAgree') });
      return;
    }
    setSending(true);
    setProblem(null);
    try {
      await submitConsent({
        country_iso: country,
        language: locale.code,
        question_answer: 'yes',
        consent_given: true,
        ip_address: null,
        user_session_id: session.userSessionId,
      });
      sessionStore.update({ consentGiven: true });
      navigate(path('photo'));
    } catch (error) {
      // The catalogue's "Failed to submit consent", then why, when the answer says why (offline, too many tries…).
      const code = error instanceof ConsentError ? error.code : 'consentFailed';
      const failed = t('messages.consentFailed');
      setProblem(code === 'consentFailed' ? { text: failed } : { title: failed, text: messageText(t, code) });
    } finally {
      setSending(false);
    }
  };

  return (
    <section className="screen curious" aria-labelledby="curious-heading">
      <MosaicMark columns={10} rows={3} seed={23} className="screen__mosaic" />
      <h1 id="curious-heading" className="display">
        {t('curious.heading')}
      </h1>
      <p className="lead">{t('curious.body')}</p>
      <div className="consent">
        <input
          id={checkboxId}
          type="checkbox"
          className="consent__box"
          data-testid="consent-checkbox"
          checked={agreed}
          aria-describedby={problem ? problemId : undefined}
          aria-invalid={problem !== null && !agreed}
          onChange={(event) => {
            setAgreed(event.target.checked);
            if (event.target.checked) setProblem(null);
          }}
        />
        <label htmlFor={checkboxId} className="consent__label">
          {/* One sentence with the link inside, so each language puts the terms where its grammar wants them.
              The tag is <terms>, not <link>: Trans parses the copy as HTML, where <link> is a void element. */}
          {/* The operator's own terms where the campaign names them, else the experience's terms screen. */}
          <Trans
            i18n={i18n}
            t={t}
            i18nKey="curious.agree"
            components={{
              terms: termsUrl ? (
                // biome-ignore lint/a11y/useAnchorContent: Trans puts the copy's words for the terms inside the link.
                <a href={termsUrl} target="_blank" rel="noopener noreferrer" />
              ) : (
                <Link to={path('terms')} />
              ),
            }}
          />
        </label>
      </div>
      <p id={problemId} className="form-error" role="alert">
        {problem?.title && (
          <>
            <strong>{problem.title}</strong>
            <br />
          </>
        )}
        {problem?.text}
      </p>
      <div className="actions">
        <Button onClick={onContinue} disabled={sending} busy={sending} testId="consent-continue">
          {t('curious.continue')}
        </Button>
      </div>
    </section>
  );
}
