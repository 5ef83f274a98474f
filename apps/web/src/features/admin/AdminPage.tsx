import { type ReactNode, use, useCallback, useEffect, useState } from 'react';
import { campaign } from '../../lib/campaign';
import { loadLocale } from '../../lib/i18n';
import { messageText } from '../../lib/messages';
import { setDocumentLocale, setPageMeta } from '../../lib/page-meta';
import { AdminShell } from './AdminShell';
import { readSession, type SessionState, signOut } from './admin-api';
import { Dashboard } from './Dashboard';
import { errorText } from './error-text';
import { SignIn } from './SignIn';
import './admin.css';

/** The operators' UI is in English; the catalogue's English copy gives the error messages. */
const english = loadLocale('en');

interface AdminPageProps {
  /** What `/admin` shows when the server has no admin secret: the app's own 404 page. */
  notFound: ReactNode;
}

/**
 * `/admin` (README.md#the-dashboard): asks the server whether this browser is signed in, then shows
 * the sign-in form or the dashboard. Off, the server answers 404 and so does the page.
 */
export default function AdminPage({ notFound }: AdminPageProps) {
  const { t, locale } = use(english);
  const [session, setSession] = useState<SessionState | 'checking'>('checking');
  const [notice, setNotice] = useState('');

  useEffect(() => {
    setDocumentLocale(locale.tag, locale.dir);
    // An operator's page has no business in a search index.
    const robots = document.createElement('meta');
    robots.name = 'robots';
    robots.content = 'noindex, nofollow';
    document.head.append(robots);
    return () => robots.remove();
  }, [locale]);

  useEffect(() => {
    readSession().then(setSession, (error: unknown) => {
      setNotice(errorText(t, error));
      setSession('signedOut');
    });
  }, [t]);

  useEffect(() => {
    if (session === 'off' || session === 'checking') return;
    const screen = session === 'signedIn' ? 'Dashboard' : 'Sign in';
    setPageMeta(`${screen} | Operators | ${campaign.brand.experienceName}`, campaign.brand.description);
  }, [session]);

  /** A call answered 401: the cookie expired (8 h) or was cleared; the form says why. */
  const expired = useCallback(() => {
    setNotice(messageText(t, 'unauthorized'));
    setSession('signedOut');
  }, [t]);

  const leave = useCallback(async () => {
    try {
      await signOut();
      setNotice('');
      setSession('signedOut');
    } catch (error) {
      setNotice(errorText(t, error));
    }
  }, [t]);

  if (session === 'off') return notFound;
  return (
    <AdminShell onSignOut={session === 'signedIn' ? leave : undefined}>
      {session === 'checking' && <p className="loading">Loading…</p>}
      {session === 'signedOut' && (
        <SignIn
          t={t}
          notice={notice}
          onSignedIn={() => {
            setNotice('');
            setSession('signedIn');
          }}
        />
      )}
      {session === 'signedIn' && <Dashboard t={t} onExpired={expired} notice={notice} />}
    </AdminShell>
  );
}
