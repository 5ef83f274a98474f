import type { FunnelStep, RefusalCode } from '@selfie-mosaic/contract';

/**
 * The operators' words for the contract's codes. The dashboard is in English (operators are the
 * agency's staff, not visitors); typed by the contract's lists, so a new step or refusal fails the
 * build until it has a label here.
 */

export const STEP_LABELS: Record<FunnelStep, string> = {
  start_views: 'Start-screen views',
  answered_yes: 'Answered yes',
  answered_no: 'Answered no',
  consented: 'Consented',
  photo_views: 'Photo-screen views',
  uploads: 'Uploads',
  artworks: 'Artworks',
  downloads: 'Downloads',
  shares: 'Shares',
};

/**
 * Each step's rate is taken of the step a visitor comes from: yes and no of the start-screen views,
 * consent of the yes answers, and so on; downloads and shares both follow the artwork.
 */
export const CONVERSION_BASE: Record<FunnelStep, FunnelStep | null> = {
  start_views: null,
  answered_yes: 'start_views',
  answered_no: 'start_views',
  consented: 'answered_yes',
  photo_views: 'consented',
  uploads: 'photo_views',
  artworks: 'uploads',
  downloads: 'artworks',
  shares: 'artworks',
};

export const REFUSAL_LABELS: Record<RefusalCode, string> = {
  no_face: 'No face found',
  face_too_small: 'Face too small',
  multiple_faces: 'More than one face',
  too_dark: 'Too dark',
  unreadable_image: 'Unreadable image',
  render_failed: 'Render failed',
};

/** The steps the per-day chart draws: the path to an artwork and what visitors do with it. */
export const DAY_CHART_STEPS = ['start_views', 'consented', 'uploads', 'artworks', 'downloads'] as const;
