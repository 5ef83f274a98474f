import { useCallback, useEffect, useRef, useState } from 'react';

export type Facing = 'user' | 'environment';

/**
 * The live camera: one stream at a time, its tracks stopped before another is opened (iOS Safari
 * refuses a second stream otherwise) and when the screen goes away. Plain `facingMode` values, not
 * `exact`, so a device with one camera still opens it instead of failing with OverconstrainedError.
 */
export function useCamera() {
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const [facing, setFacing] = useState<Facing>('user');
  const [live, setLive] = useState(false);

  const stop = useCallback(() => {
    for (const track of streamRef.current?.getTracks() ?? []) track.stop();
    streamRef.current = null;
    if (videoRef.current) videoRef.current.srcObject = null;
    setLive(false);
  }, []);

  const start = useCallback(
    async (mode: Facing) => {
      stop();
      const stream = await navigator.mediaDevices.getUserMedia({
        audio: false,
        video: { facingMode: mode, width: { ideal: 1280 }, height: { ideal: 1280 } },
      });
      streamRef.current = stream;
      setFacing(mode);
      const video = videoRef.current;
      if (video) {
        video.srcObject = stream;
        await video.play().catch(() => undefined);
      }
      setLive(true);
    },
    [stop],
  );

  useEffect(() => stop, [stop]);

  return { videoRef, facing, live, start, stop };
}
