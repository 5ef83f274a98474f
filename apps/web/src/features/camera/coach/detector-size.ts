/** The long side of the frame the detector reads (BlazeFace looks at 256 px anyway), grabbed at that size. */
export const FRAME_SIDE = 256;
