import type { ReactNode } from 'react';
import { Wordmark } from '../../lib/ui/Wordmark';

interface AdminShellProps {
  /** Present while signed in. */
  onSignOut?: () => void;
  children: ReactNode;
}

/** The operators' frame: the brand, "Operators", sign-out; no visitor health warning or language switch. */
export function AdminShell({ onSignOut, children }: AdminShellProps) {
  return (
    <div className="page admin">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="admin-header">
        <Wordmark />
        <span className="eyebrow admin-header__role">Operators</span>
        {onSignOut && (
          <button type="button" className="button button--ghost button--small" onClick={onSignOut}>
            Sign out
          </button>
        )}
      </header>
      <main id="main" className="admin-main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
