import { type RefObject, useEffect, useRef, useState } from 'react';
import { fitWithin } from '../capture';
import { type CoachAdvice, INITIAL_COACH, nextCoachState, readyToShoot } from './coach';
import { FRAME_SIDE } from './detector-size';
import type { FaceDetector } from './face-detector';

/** At most this many frames a second: enough to follow a face, little enough to keep the preview smooth. */
const MAX_FPS = 15;

export interface FaceCoach {
  /** False once the detector could not load or run: the screen keeps its plain circle. */
  available: boolean;
  advice: CoachAdvice | null;
  /** The face has been good for about a second. */
  ready: boolean;
}

/**
 * Watches the preview while `active` and coaches: frames (downscaled by the browser while they are
 * grabbed) go to the detector up to MAX_FPS times a second. The detector loads once, on the first
 * activation, and stops with the screen.
 */
export function useFaceCoach(videoRef: RefObject<HTMLVideoElement | null>, active: boolean): FaceCoach {
  const [coach, setCoach] = useState<FaceCoach>({ available: true, advice: null, ready: false });
  const detector = useRef<Promise<FaceDetector> | null>(null);

  useEffect(
    () => () =>
      void detector.current?.then(
        (open) => open.close(),
        () => undefined,
      ),
    [],
  );

  useEffect(() => {
    if (!active) return;
    let stopped = false;
    let state = INITIAL_COACH;
    let timer: ReturnType<typeof setTimeout> | undefined;
    detector.current ??= import('./face-detector').then(({ openFaceDetector }) => openFaceDetector());
    // Any failure, loading or reading a frame, ends the guide for this screen: back to the plain circle.
    const giveUp = () => {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      setCoach({ available: false, advice: null, ready: false });
    };

    // A frame is grabbed every 1/MAX_FPS s while at most two are with the detector: one being read and
    // one waiting, so the worker never idles between frames and a slow one does not pile up more.
    let inFlight = 0;
    const tick = async (open: FaceDetector) => {
      if (stopped) return;
      timer = setTimeout(() => void tick(open).catch(giveUp), 1000 / MAX_FPS);
      const video = videoRef.current;
      if (inFlight >= 2 || !video?.videoWidth) return;
      inFlight++;
      try {
        const started = performance.now();
        const scale = Math.min(1, FRAME_SIDE / Math.max(video.videoWidth, video.videoHeight));
        const bitmap = await createImageBitmap(video, {
          resizeWidth: Math.max(1, Math.round(video.videoWidth * scale)),
          resizeHeight: Math.max(1, Math.round(video.videoHeight * scale)),
        });
        const photo = fitWithin(video.videoWidth, video.videoHeight);
        const observation = await open.detect({ bitmap, photoLongSide: Math.max(photo.width, photo.height) });
        if (stopped) return;
        const now = performance.now();
        // Read by the benchmark: one entry per frame the guide has judged.
        performance.measure('face-guide', { start: started, end: now });
        state = nextCoachState(state, observation, now);
        const next = { available: true, advice: state.shown, ready: readyToShoot(state, now) };
        setCoach((current) =>
          current.advice === next.advice && current.ready === next.ready && current.available ? current : next,
        );
      } finally {
        inFlight--;
      }
    };

    detector.current.then((open) => tick(open)).catch(giveUp);
    return () => {
      stopped = true;
      clearTimeout(timer);
      setCoach((current) => ({ ...current, advice: null, ready: false }));
    };
  }, [active, videoRef]);

  return coach;
}
