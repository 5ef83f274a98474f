import { MosaicMark } from '../lib/ui/MosaicMark';

/** Shown while the first route's copy and chunk arrive; no text, so no language is assumed. */
export function Splash() {
  return (
    <div className="splash" role="presentation">
      <MosaicMark columns={6} rows={6} animated />
    </div>
  );
}
