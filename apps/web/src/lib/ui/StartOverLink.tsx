import { Link } from 'wouter';
import { useLocale } from '../locale-context';
import { type ButtonVariant, buttonClass } from './Button';

/** The way back to the age gate, drawn as a button, for screens where the visitor's walk ends. */
export function StartOverLink({ label, variant }: { label: string; variant?: ButtonVariant }) {
  const { path } = useLocale();
  return (
    <div className="actions">
      <Link className={buttonClass(variant)} to={path('start')}>
        {label}
      </Link>
    </div>
  );
}
