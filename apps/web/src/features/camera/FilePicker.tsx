import { useId } from 'react';
import { buttonClass } from '../../lib/ui/Button';

interface FilePickerProps {
  label: string;
  onFile: (file: File) => void;
  primary?: boolean;
}

/** The gallery/camera picker for browsers without a usable live camera (in-app browsers). */
export function FilePicker({ label, onFile, primary = true }: FilePickerProps) {
  const id = useId();
  return (
    <>
      <input
        id={id}
        data-testid="file-picker"
        className="visually-hidden file-input"
        type="file"
        accept="image/*"
        capture="user"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) onFile(file);
        }}
      />
      <label htmlFor={id} className={buttonClass(primary ? 'primary' : 'ghost')}>
        {label}
      </label>
    </>
  );
}
