import { type RefusalCode, refusalMessage } from '@selfie-mosaic/contract';

/**
 * The engine declines a photo for a reason the visitor can fix (no face, too dark, ...).
 * `code` is the contract's refusal key, so the server and web app can translate the message.
 */
export class MosaicRefusal extends Error {
  readonly code: RefusalCode;

  constructor(code: RefusalCode, detail?: string) {
    super(detail ? `${refusalMessage(code)} (${detail})` : refusalMessage(code));
    this.name = 'MosaicRefusal';
    this.code = code;
  }
}
