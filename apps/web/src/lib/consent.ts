import type { ConsentRequest, ConsentResponse } from '@selfie-mosaic/contract';
import { errorCodeOf } from './api-error';
import { apiRequest } from './http';
import type { ProblemCode } from './messages';

/** Thrown when the consent could not be recorded; `code` says why, for the screen to translate. */
export class ConsentError extends Error {
  readonly code: ProblemCode;

  constructor(cause: unknown) {
    const code = errorCodeOf(cause) ?? 'consentFailed';
    super(`consent not recorded: ${code}`, { cause });
    this.name = 'ConsentError';
    this.code = code;
  }
}

/** Records the visitor's answer and consent (docs/product.md#consent); a failure is rethrown for the screen to show. */
export async function submitConsent(request: ConsentRequest): Promise<ConsentResponse> {
  try {
    return await apiRequest<ConsentResponse>('/api/consent', { method: 'POST', body: request });
  } catch (error) {
    console.error('consent not recorded', error);
    throw new ConsentError(error);
  }
}
