import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { drawQr, QrCode, QUIET_ZONE } from './QrCode';

const LINK = 'https://mosaic.example.com/ae/ae-ar/continue#K7M2-9XD4-K7M2-9XD4-K7M2-9XD4-K7M2';

/** The dark modules of a drawing, read back from its path. */
function darkModules(path: string): Set<string> {
  const dark = new Set<string>();
  for (const [, x, y, run] of path.matchAll(/M(\d+) (\d+)h(\d+)/g)) {
    for (let dx = 0; dx < Number(run); dx++) dark.add(`${Number(x) + dx},${y}`);
  }
  return dark;
}

describe('QR code', () => {
  it('is drawn with a quiet zone of four light modules all round', () => {
    const { size, path } = drawQr(LINK);
    const dark = darkModules(path);
    expect(dark.size).toBeGreaterThan(0);
    for (const module of dark) {
      const [x = 0, y = 0] = module.split(',').map(Number);
      expect(x >= QUIET_ZONE && y >= QUIET_ZONE && x < size - QUIET_ZONE && y < size - QUIET_ZONE).toBe(true);
    }
  });

  it('has its three finder patterns, so a camera can find it', () => {
    const { size, path } = drawQr(LINK);
    const dark = darkModules(path);
    const symbol = size - 2 * QUIET_ZONE;
    for (const [left, top] of [
      [0, 0],
      [symbol - 7, 0],
      [0, symbol - 7],
    ] as const) {
      const at = (x: number, y: number) => dark.has(`${QUIET_ZONE + left + x},${QUIET_ZONE + top + y}`);
      // A finder pattern: a dark ring, a light ring inside it, and a dark square at its centre.
      for (let i = 0; i < 7; i++) expect([at(i, 0), at(0, i), at(i, 6), at(6, i)]).toEqual([true, true, true, true]);
      for (let i = 1; i < 6; i++)
        expect([at(i, 1), at(1, i), at(i, 5), at(5, i)]).toEqual([false, false, false, false]);
      for (let i = 2; i < 5; i++) expect([at(i, 2), at(i, 3), at(i, 4)]).toEqual([true, true, true]);
    }
  });

  it('is an image named for what it does', () => {
    render(<QrCode text={LINK} label="Code that opens this visit on your phone" testId="qr" />);
    const image = screen.getByRole('img', { name: 'Code that opens this visit on your phone' });
    expect(image.getAttribute('viewBox')).toBe(`0 0 ${drawQr(LINK).size} ${drawQr(LINK).size}`);
  });
});
