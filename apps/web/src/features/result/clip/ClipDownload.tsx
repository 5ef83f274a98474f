import { Button } from '../../../lib/ui/Button';
import type { ClipState } from './use-story-clip';

interface ClipDownloadProps {
  state: ClipState;
  label: string;
  onDownload: () => void;
}

/**
 * The clip's download: a link to the made file under its name (it has no address on the server), and
 * until it is made the same button, disabled.
 */
export function ClipDownload({ state, label, onDownload }: ClipDownloadProps) {
  if (state.status !== 'ready') {
    return (
      <Button onClick={() => undefined} disabled busy={state.status === 'making'} testId="result-download">
        {label}
      </Button>
    );
  }
  return (
    <a
      className="button"
      href={state.url}
      download={state.file.name}
      onClick={onDownload}
      data-testid="result-download"
    >
      {label}
    </a>
  );
}

/** Saves the made clip as a download would: where a share sheet cannot take it. */
export function saveClip(state: ClipState): void {
  if (state.status !== 'ready') return;
  const link = Object.assign(document.createElement('a'), { href: state.url, download: state.file.name });
  link.click();
}
