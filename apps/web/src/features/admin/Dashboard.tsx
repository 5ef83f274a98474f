import type { TFunction } from 'i18next';
import { useEffect, useRef } from 'react';
import { FunnelPanel } from './FunnelPanel';
import { LivePanel } from './LivePanel';

interface DashboardProps {
  t: TFunction;
  notice: string;
  /** A call answered 401: back to the sign-in form. */
  onExpired: () => void;
}

export function Dashboard({ t, notice, onExpired }: DashboardProps) {
  const title = useRef<HTMLHeadingElement>(null);
  // The sign-in form is gone: a screen reader or keyboard starts again from the top of the dashboard.
  useEffect(() => title.current?.focus(), []);
  return (
    <div className="admin-dashboard">
      <h1 ref={title} className="heading" tabIndex={-1}>
        Campaign dashboard
      </h1>
      {notice && (
        <p className="form-error" role="alert">
          {notice}
        </p>
      )}
      <LivePanel t={t} onExpired={onExpired} />
      <FunnelPanel t={t} onExpired={onExpired} />
    </div>
  );
}
