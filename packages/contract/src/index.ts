export {
  ADMIN_LIVE_WINDOW_MS,
  ADMIN_RANGE_MAX_DAYS,
  type AdminFunnel,
  type AdminLive,
  type AdminRange,
  ANALYTICS_EVENTS,
  type AnalyticsEvent,
  adminFunnelSchema,
  adminLiveSchema,
  adminRangeSchema,
  adminSignInSchema,
  CONSENT_EXPORT_CSV_COLUMNS,
  type ConsentExportRecord,
  consentExportQuerySchema,
  consentExportRecordSchema,
  FUNNEL_STEPS,
  type FunnelRow,
  type FunnelStep,
  funnelRowSchema,
} from './admin.js';
export { ADMIN_COOKIE, ADMIN_PATHS } from './admin-paths.js';
export { ARTWORK_FORMATS, type ArtworkFormat, artworkFileName, STORY_ARTWORK } from './artwork-formats.js';
export {
  ARTWORK,
  CHUNK_RELOAD_GUARD_MS,
  CREATION_NOTICE_SECONDS,
  HTTP_RETRY,
  IDLE_PRELOAD_DELAY_MS,
  LOCALE_COOKIE,
  POLL,
  RESULT_TTL_MS,
  SESSION_STORAGE_KEY,
  SESSION_TTL_MS,
  STREAM_CONNECT_TIMEOUT_MS,
  STREAM_HEARTBEAT_MS,
  UPLOAD_LIMITS,
  XSRF,
} from './constants.js';
export {
  API_ERROR_CODES,
  API_ERRORS,
  ApiError,
  type ApiErrorCode,
  CLIENT_ERRORS,
  type ClientErrorCode,
  clientErrorCode,
  ERROR_MESSAGES,
  type ErrorCode,
  isApiErrorCode,
  isErrorCode,
  isRefusalCode,
  REFUSALS,
  type RefusalCode,
  refusalMessage,
} from './errors.js';
export {
  dominantFace,
  FACE_LIMITS,
  type FaceBox,
  faceCentre,
  faceLuma,
  isFaceTooSmall,
  isTooDark,
  meanLuma,
  type Pixels,
} from './face-rules.js';
export {
  createJobId,
  createResultToken,
  isJobId,
  isResultToken,
  jobIdSchema,
  RESULT_TOKEN_PATTERN,
} from './job-ids.js';
export {
  MESSAGES,
  type MessageKey,
  QUEUE_MESSAGES,
  type QueueMessageKey,
  queueMessage,
  queueMessageKey,
} from './messages.js';
export {
  FIRST_SCREEN,
  isScreenName,
  marketPath,
  pagePathParts,
  SCREEN_NAMES,
  type ScreenName,
  screenPath,
} from './page-paths.js';
export { nextPollDelay, type PollOutcome, progressForPosition } from './progress.js';
export * from './schemas.js';
export { createSessionId, SESSION_ID_PATTERN } from './session-id.js';
export {
  ACTIVE_STATUSES,
  FINAL_STATUSES,
  isActiveStatus,
  isFinalStatus,
  JOB_STATUSES,
  type JobStatus,
  QUEUE_STATUSES,
  type QueueStatusValue,
} from './statuses.js';
