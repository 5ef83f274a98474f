import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '../../lib/api-error';
import { sessionStore } from '../../lib/session';
import { uploadPhoto } from './upload';

const api = vi.hoisted(() => ({ apiRequest: vi.fn(), reportHandoffProgress: vi.fn(), order: [] as string[] }));

vi.mock('../../lib/http', () => ({
  apiRequest: (...args: unknown[]) => {
    api.order.push('upload');
    return api.apiRequest(...args);
  },
}));
vi.mock('../../lib/handoff-api', () => ({
  reportHandoffProgress: (...args: unknown[]) => {
    api.order.push(`state ${args[2]}`);
    api.reportHandoffProgress(...args);
  },
}));

const HANDOFF_ID = '44444444-4444-4444-8444-444444444444';
const JOB = '00000000-0000-4000-8000-000000000005';
const photo = new Blob(['jpeg'], { type: 'image/jpeg' });

/** The form the last upload sent. */
const sentForm = () => api.apiRequest.mock.calls.at(-1)?.[1]?.body as FormData;

afterEach(() => {
  api.apiRequest.mockReset();
  api.reportHandoffProgress.mockReset();
  api.order.length = 0;
  sessionStore.reset();
});

describe('photo upload', () => {
  it('from a phone that continues a computer’s visit: names the hand-off and tells the computer it is sending', async () => {
    sessionStore.update({ handoffId: HANDOFF_ID, handoffRole: 'phone' });
    api.apiRequest.mockResolvedValue({ job_id: JOB, status: 'queued', queue_position: 1 });
    await uploadPhoto(photo, 'session-1', false);
    expect(sentForm().get('handoff_id')).toBe(HANDOFF_ID);
    expect(sentForm().get('user_session_id')).toBe('session-1');
    expect(api.order).toEqual(['state uploading', 'upload']);
    expect(api.reportHandoffProgress).toHaveBeenCalledWith(HANDOFF_ID, 'session-1', 'uploading');
  });

  it('says the phone is back at its camera when the photo could not be sent', async () => {
    sessionStore.update({ handoffId: HANDOFF_ID, handoffRole: 'phone' });
    api.apiRequest.mockRejectedValue(new ApiRequestError('tooLarge', 413, 'too large'));
    await expect(uploadPhoto(photo, 'session-1')).rejects.toMatchObject({ code: 'tooLarge' });
    expect(api.order).toEqual(['state uploading', 'upload', 'state connected']);
  });

  it('from a computer, or a visit with no hand-off: the photo alone', async () => {
    sessionStore.update({ handoffId: HANDOFF_ID, handoffRole: 'desktop' });
    api.apiRequest.mockResolvedValue({ job_id: JOB, status: 'queued', queue_position: 1 });
    await uploadPhoto(photo, 'session-1', true);
    expect(sentForm().has('handoff_id')).toBe(false);
    expect(sentForm().get('blacklabel')).toBe('true');
    expect(api.reportHandoffProgress).not.toHaveBeenCalled();
  });
});
