import { correction, generate } from 'lean-qr';
import { useMemo } from 'react';

/** The light margin a reader needs to find the code: four modules, as the QR standard asks. */
export const QUIET_ZONE = 4;

export interface QrDrawing {
  /** Modules across, quiet zone included. */
  size: number;
  /** The dark modules as one SVG path, a row's neighbours joined into one rectangle. */
  path: string;
}

/**
 * Draws `text` as a QR code. Correction level M at least: the code still reads from a screen with glare
 * or a moiré pattern. The library encodes each stretch of the text in its most compact mode (the token
 * is capitals and digits), which can spare a size: fewer, larger modules read from further away.
 */
export function drawQr(text: string): QrDrawing {
  const code = generate(text, { minCorrectionLevel: correction.M });
  const rows: string[] = [];
  for (let y = 0; y < code.size; y++) {
    for (let x = 0; x < code.size; x++) {
      if (!code.get(x, y)) continue;
      let run = 1;
      while (x + run < code.size && code.get(x + run, y)) run++;
      rows.push(`M${x + QUIET_ZONE} ${y + QUIET_ZONE}h${run}v1h-${run}z`);
      x += run - 1;
    }
  }
  return { size: code.size + 2 * QUIET_ZONE, path: rows.join('') };
}

/**
 * A QR code as an SVG image: dark on white whatever the page's colours (readers expect it), with crisp
 * module edges at any size.
 */
export function QrCode({ text, label, testId }: { text: string; label: string; testId?: string }) {
  const { size, path } = useMemo(() => drawQr(text), [text]);
  return (
    <svg
      className="qr-code"
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label={label}
      shapeRendering="crispEdges"
      data-testid={testId}
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
