import { campaign } from '../campaign';
import { MosaicMark } from './MosaicMark';

/** The campaign's brand × design partner, as every page header shows it; never translated. */
export function Wordmark() {
  return (
    <span className="wordmark">
      <MosaicMark columns={3} rows={3} seed={11} className="wordmark__tiles" />
      <span className="wordmark__text" translate="no">
        <span className="wordmark__name">{campaign.brand.brand}</span>
        <span className="wordmark__cross"> × </span>
        <span className="wordmark__name">{campaign.brand.partner}</span>
      </span>
    </span>
  );
}
