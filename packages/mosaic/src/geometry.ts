/** A point in some image's pixel coordinates. */
export interface Point {
  x: number;
  y: number;
}

/** An axis-aligned rectangle in some image's pixel coordinates. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
