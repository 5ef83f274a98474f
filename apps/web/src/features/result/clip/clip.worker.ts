import type { ClipReply, ClipRequest } from './make-clip';

/** The worker's side of `make-clip.ts`: decodes the story picture, then draws and encodes the clip's frames. */
interface WorkerScope {
  onmessage: ((event: MessageEvent<ClipRequest>) => void) | null;
  postMessage(message: ClipReply): void;
}
const scope = self as unknown as WorkerScope;

scope.onmessage = ({ data }) => {
  void make(data).catch((error: unknown) => scope.postMessage({ type: 'failed', message: String(error) }));
};

async function make({ plan, story, codec }: ClipRequest): Promise<void> {
  if (typeof VideoEncoder === 'undefined' || typeof VideoFrame === 'undefined') {
    throw new Error('this worker has no WebCodecs');
  }
  const [{ encodeClip }, picture] = await Promise.all([import('./encode-clip'), createImageBitmap(story)]);
  try {
    const clip = await encodeClip(plan, picture, {
      codec,
      onProgress: (done) => scope.postMessage({ type: 'progress', done }),
    });
    scope.postMessage({ type: 'done', clip });
  } finally {
    picture.close();
  }
}
