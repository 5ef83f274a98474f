import { ARTWORK_FORMATS, type ArtworkFormat } from '@selfie-mosaic/contract';
import type { TFunction } from 'i18next';

interface FormatSwitchProps {
  t: TFunction;
  value: ArtworkFormat;
  onChange: (format: ArtworkFormat) => void;
}

const LABEL_KEYS: Record<ArtworkFormat, string> = {
  post: 'result.storyFormatPost',
  story: 'result.storyFormatStory',
};

/**
 * The artwork's two pictures, a feed post (4:5) and a story (9:16), as one choice of two radio
 * buttons drawn as a segmented control: arrow keys move between them and screen readers name the
 * group. Each option shows its own shape, so the ratio reads at a glance in any language.
 */
export function FormatSwitch({ t, value, onChange }: FormatSwitchProps) {
  return (
    <fieldset className="format-switch" data-testid="format-switch">
      <legend className="visually-hidden">{t('result.storyFormatLegend')}</legend>
      {ARTWORK_FORMATS.map((format) => (
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
          <span>{t(LABEL_KEYS[format])}</span>
        </label>
      ))}
    </fieldset>
  );
}
