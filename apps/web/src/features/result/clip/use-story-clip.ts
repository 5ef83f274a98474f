import { clipFileName, decodeLayingPlan, type LayingPlan } from '@selfie-mosaic/contract';
import { useEffect, useRef, useState } from 'react';
import { campaign } from '../../../lib/campaign';
import { type ClipCodec, canEncodeClip } from './clip-codecs';

export type ClipState =
  | { status: 'idle' }
  | { status: 'making'; done: number }
  | { status: 'ready'; file: File; url: string }
  | { status: 'failed' };

interface ClipOfferOptions {
  planUrl: string | null;
  storyUrl: string | null;
  /** In-app browsers cannot save a file made on the page: there the clip goes out through the share sheet only. */
  inAppBrowser: boolean;
  shareable: boolean;
}

/**
 * The codec the story clip would be made with, or null while the browser is asked and when the clip is
 * not offered: no encoder, no laying plan (a job from before plans), or no way to save it.
 */
export function useClipOffer({ planUrl, storyUrl, inAppBrowser, shareable }: ClipOfferOptions): ClipCodec | null {
  const [codec, setCodec] = useState<ClipCodec | null>(null);
  const possible = Boolean(planUrl && storyUrl) && (!inAppBrowser || shareable);
  useEffect(() => {
    if (!possible) return;
    let current = true;
    void canEncodeClip().then((found) => current && setCodec(found));
    return () => {
      current = false;
    };
  }, [possible]);
  return possible ? codec : null;
}

interface StoryClipOptions {
  /** The visitor chose the clip: it is made then, once, and kept while the screen is shown. */
  chosen: boolean;
  codec: ClipCodec | null;
  planUrl: string | null;
  storyUrl: string | null;
}

/** The story clip, made in the browser when first chosen; `retry` after a failure makes it again. */
export function useStoryClip({ chosen, codec, planUrl, storyUrl }: StoryClipOptions): {
  state: ClipState;
  retry: () => void;
} {
  const [state, setState] = useState<ClipState>({ status: 'idle' });
  const making = useRef<AbortController | null>(null);

  useEffect(() => {
    if (!chosen || state.status !== 'idle' || !codec || !planUrl || !storyUrl || making.current) return;
    const controller = new AbortController();
    making.current = controller;
    setState({ status: 'making', done: 0 });
    const { signal } = controller;
    // Rounded to whole per cent: a render per step, not per frame.
    let shown = 0;
    const onProgress = (done: number) => {
      const percent = Math.floor(done * 100);
      if (percent === shown || signal.aborted) return;
      shown = percent;
      setState({ status: 'making', done: percent / 100 });
    };
    void makeStoryClip(planUrl, storyUrl, codec, onProgress, signal).then(
      (file) => {
        if (signal.aborted) return;
        making.current = null;
        setState({ status: 'ready', file, url: URL.createObjectURL(file) });
      },
      (error: unknown) => {
        if (signal.aborted) return;
        making.current = null;
        console.warn('the story clip could not be made', error);
        setState({ status: 'failed' });
      },
    );
  }, [chosen, state.status, codec, planUrl, storyUrl]);

  // Leaving the screen stops a clip being made and frees a made one.
  const url = state.status === 'ready' ? state.url : null;
  useEffect(() => (url ? () => URL.revokeObjectURL(url) : undefined), [url]);
  useEffect(
    () => () => {
      making.current?.abort();
      making.current = null;
    },
    [],
  );

  return { state, retry: () => setState({ status: 'idle' }) };
}

/** Fetches the plan and the story picture, then loads the encoder (a lazy chunk) and makes the clip as a named File. */
async function makeStoryClip(
  planUrl: string,
  storyUrl: string,
  codec: ClipCodec,
  onProgress: (done: number) => void,
  signal: AbortSignal,
): Promise<File> {
  const [{ makeClip }, plan, story] = await Promise.all([
    import('./make-clip'),
    fetchPlan(planUrl, signal),
    fetchBlob(storyUrl, signal),
  ]);
  const clip = await makeClip(plan, story, { codec, onProgress, signal });
  return new File([clip], clipFileName(campaign.brand.downloadFileName, codec.container), { type: codec.mimeType });
}

async function fetchPlan(url: string, signal: AbortSignal): Promise<LayingPlan> {
  return decodeLayingPlan(new Uint8Array(await (await fetchBlob(url, signal)).arrayBuffer()));
}

async function fetchBlob(url: string, signal: AbortSignal): Promise<Blob> {
  const response = await fetch(url, { signal });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.blob();
}
