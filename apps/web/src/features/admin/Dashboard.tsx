import type { TFunction } from 'i18next';
import { FunnelPanel } from './FunnelPanel';
import { LivePanel } from './LivePanel';

interface DashboardProps {
  t: TFunction;
  notice: string;
  /** A call answered 401: back to the sign-in form. */
  onExpired: () => void;
}

export function Dashboard({ t, notice, onExpired }: DashboardProps) {
  return (
    <div className="admin-dashboard">
      <h1 className="heading">Campaign dashboard</h1>
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
