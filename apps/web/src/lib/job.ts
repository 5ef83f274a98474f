import { artworkUrl, fetchQueueStatus, fetchResult, openQueueStream } from './job-api';
import { JobSession } from './job-session';
import { sessionStore } from './session';

/** The job of this tab's session; only the photo and result screens load it (and the HTTP client). */
export const jobSession = new JobSession(sessionStore, {
  openStream: openQueueStream,
  fetchStatus: fetchQueueStatus,
  fetchResult,
  artworkUrl,
});
