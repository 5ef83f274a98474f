import type { ReactNode } from 'react';

export type ButtonVariant = 'primary' | 'ghost' | 'quiet';

const CLASS_NAMES: Record<ButtonVariant, string> = {
  primary: 'button',
  ghost: 'button button--ghost',
  quiet: 'button button--quiet',
};

/** The class of a link or label drawn as a button of this kind. */
export function buttonClass(variant: ButtonVariant = 'primary'): string {
  return CLASS_NAMES[variant];
}

interface ButtonProps {
  variant?: ButtonVariant;
  onClick: () => void;
  disabled?: boolean;
  /** While the action it started is under way. */
  busy?: boolean;
  testId?: string;
  children: ReactNode;
}

/** An action on a screen; never a form submit. */
export function Button({ variant = 'primary', onClick, disabled, busy, testId, children }: ButtonProps) {
  return (
    <button
      type="button"
      className={buttonClass(variant)}
      onClick={onClick}
      disabled={disabled}
      aria-busy={busy}
      data-testid={testId}
    >
      {children}
    </button>
  );
}
