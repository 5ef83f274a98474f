import { ARTWORK_FORMATS, type ShareFormat } from '@selfie-mosaic/contract';
import type { TFunction } from 'i18next';

interface FormatSwitchProps<F extends ShareFormat> {
  t: TFunction;
  value: F;
  onChange: (format: F) => void;
  /** The options offered, in order: the two pictures unless told (the clip only where the browser can make it). */
  formats?: readonly F[];
}

/**
 * Each option: its label, the ratio screen readers hear after it (the shape shows it to the eye) and
 * the shape's look.
 */
const OPTIONS: Record<ShareFormat, { label: string; ratio: string }> = {
  post: { label: 'result.storyFormatPost', ratio: '4:5' },
  story: { label: 'result.storyFormatStory', ratio: '9:16' },
  clip: { label: 'result.storyFormatClip', ratio: '9:16' },
};

/**
 * The artwork's formats, a feed post (4:5), a story (9:16) and, where the browser can make it, the story
 * clip, as one choice of radio buttons drawn as a segmented control: arrow keys move between them and
 * screen readers name the group. Each option shows its own shape and one short word, so three fit side
 * by side on the narrowest phone in every language and the ratio reads at a glance.
 */
export function FormatSwitch<F extends ShareFormat>({
  t,
  value,
  onChange,
  formats = ARTWORK_FORMATS as readonly ShareFormat[] as readonly F[],
}: FormatSwitchProps<F>) {
  return (
    <fieldset className="format-switch" data-testid="format-switch">
      <legend className="visually-hidden">{t('result.storyFormatLegend')}</legend>
      {formats.map((format) => (
        <label key={format} className="format-switch__option">
          <input
            type="radio"
            name="artwork-format"
            value={format}
            checked={value === format}
            onChange={() => onChange(format)}
            data-testid={`format-${format}`}
          />
          <span className={`format-switch__shape format-switch__shape--${format}`} aria-hidden="true" />
          <span className="format-switch__label">
            {t(OPTIONS[format].label)}
            <span className="visually-hidden"> {OPTIONS[format].ratio}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
