import { type Detect, loadDetector } from './detector';
import type { GuideReply, GuideRequest } from './face-detector';

/** The worker's side of `face-detector.ts`: loads the detector once and reads the frames it is sent. */
interface WorkerScope {
  onmessage: ((event: MessageEvent<GuideRequest>) => void) | null;
  postMessage(message: GuideReply): void;
}
const scope = self as unknown as WorkerScope;

let detect: Promise<Detect> | undefined;

scope.onmessage = ({ data }) => {
  if (data.type === 'load') {
    detect ??= loadDetector();
    detect.then(
      () => scope.postMessage({ type: 'ready' }),
      (error: unknown) => scope.postMessage({ type: 'failed', message: String(error) }),
    );
    return;
  }
  const { id, frame } = data;
  (detect ?? Promise.reject(new Error('The detector is not loaded')))
    .then((read) => read(frame))
    .then(
      (observation) => scope.postMessage({ type: 'observation', id, observation }),
      (error: unknown) => scope.postMessage({ type: 'failed', id, message: String(error) }),
    );
};
