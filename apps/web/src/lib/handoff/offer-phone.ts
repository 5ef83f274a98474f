import { useEffect, useState, useSyncExternalStore } from 'react';
import { isInAppBrowser } from '../in-app-browser';
import { useSession } from '../session';

/** A screen this wide is a computer's (or a tablet on a desk): a phone in the hand takes the better selfie. */
export const WIDE_VIEWPORT_QUERY = '(min-width: 1024px)';
const COARSE_POINTER_QUERY = '(pointer: coarse)';

function matches(query: string): boolean {
  return globalThis.matchMedia?.(query).matches ?? false;
}

function subscribeToWidth(onChange: () => void): () => void {
  const list = globalThis.matchMedia?.(WIDE_VIEWPORT_QUERY);
  list?.addEventListener('change', onChange);
  return () => list?.removeEventListener('change', onChange);
}

const isWide = () => matches(WIDE_VIEWPORT_QUERY);

/** No touch screen to hold up for a selfie: a mouse is the main pointer, or nothing can be touched at all. */
function hasNoTouch(nav: Navigator | undefined = globalThis.navigator): boolean {
  return !matches(COARSE_POINTER_QUERY) || (nav?.maxTouchPoints ?? 0) === 0;
}

/**
 * Whether this browser has a camera a page could open. Before any permission the list of devices
 * still says which kinds are there; a browser that cannot list them is given the benefit of the doubt.
 */
export async function hasCamera(nav: Navigator | undefined = globalThis.navigator): Promise<boolean> {
  const devices = nav?.mediaDevices;
  if (typeof devices?.getUserMedia !== 'function') return false;
  if (typeof devices.enumerateDevices !== 'function') return true;
  try {
    return (await devices.enumerateDevices()).some((device) => device.kind === 'videoinput');
  } catch {
    return true;
  }
}

/**
 * Whether to offer "Use your phone": on a computer (no touch, no camera, or a wide screen), never on a
 * phone that itself came from a computer's code, and never in an in-app browser (it has its own way out).
 */
export function useOfferPhone(): boolean {
  const { handoffRole } = useSession();
  const wide = useSyncExternalStore(subscribeToWidth, isWide, () => false);
  const [noTouch] = useState(() => hasNoTouch());
  const [noCamera, setNoCamera] = useState(false);
  useEffect(() => {
    let current = true;
    void hasCamera().then((found) => current && setNoCamera(!found));
    return () => {
      current = false;
    };
  }, []);
  if (handoffRole === 'phone' || isInAppBrowser()) return false;
  return noTouch || noCamera || wide;
}
