/** A point in some image's pixel coordinates. */
export interface Point {
  x: number;
  y: number;
}

/** A rectangle by its edges, right and bottom exclusive, in some image's pixel coordinates. */
export interface Window {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The whole of a width × height image as a window. */
export function wholeImage(width: number, height: number): Window {
  return { left: 0, top: 0, right: width, bottom: height };
}

/** An axis-aligned rectangle in some image's pixel coordinates. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
