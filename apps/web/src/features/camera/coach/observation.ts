import { type FaceBox, faceLuma, meanLuma, type Pixels } from '@selfie-mosaic/contract';

/** One face the browser's detector found in a preview frame, with the luma the darkness rule reads. */
export interface SeenFace extends FaceBox {
  score: number;
  luma: number;
}

/** What the face guide knows about one preview frame: the detector's faces and the frame's light. */
export interface Observation {
  /** The frame's size in pixels (a downscaled copy of the camera's picture). */
  width: number;
  height: number;
  /** The long side of the photo a capture would upload now (the camera's picture, downscaled like capture.ts). */
  photoLongSide: number;
  imageLuma: number;
  faces: SeenFace[];
}

/** The detector's boxes measured for light the engine's way, on the very pixels the detector saw. */
export function observe(pixels: Pixels, boxes: (FaceBox & { score: number })[], photoLongSide: number): Observation {
  return {
    photoLongSide,
    width: pixels.width,
    height: pixels.height,
    imageLuma: meanLuma(pixels),
    faces: boxes.map((box) => ({ ...box, luma: faceLuma(pixels, box) })),
  };
}
