import type { TFunction } from 'i18next';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { signIn } from './admin-api';
import { errorText } from './error-text';

interface SignInProps {
  t: TFunction;
  /** Why the operator is here again (a session that expired), shown until they try. */
  notice: string;
  onSignedIn: () => void;
}

/** The operator token, sent once; the server answers with an HttpOnly cookie the page never reads. */
export function SignIn({ t, notice, onSignedIn }: SignInProps) {
  const [token, setToken] = useState('');
  const [error, setError] = useState(notice);
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  const id = useId();

  useEffect(() => field.current?.focus(), []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!token) {
      setError('Enter the operator token.');
      field.current?.focus();
      return;
    }
    setBusy(true);
    setError('');
    try {
      await signIn(token);
      onSignedIn();
    } catch (failure) {
      setError(errorText(t, failure));
      setBusy(false);
      field.current?.select();
    }
  }

  return (
    <form className="card admin-signin" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`} className="heading">
        Sign in to the dashboard
      </h1>
      <p className="admin-muted">
        The operator token is the server's <code>ADMIN_TOKEN</code> (or the password behind{' '}
        <code>ADMIN_PASSWORD_HASH</code>). You stay signed in on this browser for 8 hours.
      </p>
      <div className="admin-field">
        <label htmlFor={`${id}-token`}>Operator token</label>
        <input
          ref={field}
          id={`${id}-token`}
          name="token"
          type="password"
          autoComplete="current-password"
          spellCheck={false}
          required
          value={token}
          onChange={(event) => setToken(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-error`}
          data-testid="admin-token"
        />
      </div>
      <p id={`${id}-error`} className="form-error" role="alert" data-testid="admin-signin-error">
        {error}
      </p>
      <button type="submit" className="button" disabled={busy} aria-busy={busy} data-testid="admin-signin">
        Sign in
      </button>
    </form>
  );
}
