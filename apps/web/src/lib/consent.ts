import type { ConsentRequest, ConsentResponse } from '@selfie-mosaic/contract';
import { MESSAGES } from '@selfie-mosaic/contract';
import { apiRequest } from './http';

/** Thrown when the consent could not be recorded; `message` is the MESSAGES key to show. */
export class ConsentError extends Error {
  constructor(cause: unknown) {
    super(MESSAGES.consentFailed, { cause });
    this.name = 'ConsentError';
  }
}

/** Records the visitor's answer and consent (SPEC §7); a failure is rethrown for the screen to show. */
export async function submitConsent(request: ConsentRequest): Promise<ConsentResponse> {
  try {
    return await apiRequest<ConsentResponse>('/api/consent', { method: 'POST', body: request });
  } catch (error) {
    console.error('consent not recorded', error);
    throw new ConsentError(error);
  }
}
