import { lazy, Suspense, useCallback, useEffect, useReducer, useRef } from 'react';
import { Redirect, useLocation } from 'wouter';
import { errorCodeOf } from '../../lib/api-error';
import { useOfferPhone } from '../../lib/handoff/offer-phone';
import { isInAppBrowser } from '../../lib/in-app-browser';
import { jobSession } from '../../lib/job';
import { useLocale } from '../../lib/locale-context';
import { messageKeyOf } from '../../lib/messages';
import { usePageMeta } from '../../lib/page-meta';
import { isRetake } from '../../lib/retake';
import { sessionStore, useSession } from '../../lib/session';
import { Button } from '../../lib/ui/Button';
import { Countdown } from './Countdown';
import { cameraErrorKey, canUseLiveCamera } from './camera-errors';
import { isCameraTimeout, withCameraTimeout } from './camera-timeout';
import { fileToUpload, toJpeg } from './capture';
import { CoachMessage } from './coach/CoachMessage';
import { useFaceCoach } from './coach/useFaceCoach';
import { FaceGuide } from './FaceGuide';
import { FilePicker } from './FilePicker';
import { OpenInBrowser } from './OpenInBrowser';
import { initialPhotoState, photoReducer, photoView } from './photo-steps';
import { uploadPhoto } from './upload';
import { useCamera } from './useCamera';

const COUNTDOWN_SECONDS = 3;

/** The phone's offer loads with its QR library only on the screens that show it. */
const PhoneHandoff = lazy(() => import('../../lib/handoff/PhoneHandoff'));

/**
 * Screen 5: camera permission, positioning, get-ready countdown, review, upload; on a desktop, the phone
 * beside them. The camera only turns on when the visitor taps for it, even where the browser already
 * allows it: no camera light comes on by surprise, and every visitor sees the same first step. The steps
 * live in `photo-steps.ts`; this component runs the camera and the upload and shows the state.
 */
export default function PhotoScreen() {
  const { t, path, market } = useLocale();
  const [, navigate] = useLocation();
  const session = useSession();
  const camera = useCamera();
  const offerPhone = useOfferPhone();
  // Sent here by "Take a new photo": the visitor asked for the camera, so it opens without the permission step.
  const [state, dispatch] = useReducer(photoReducer, undefined, () => {
    const liveCamera = canUseLiveCamera();
    return initialPhotoState(liveCamera, liveCamera && isRetake(window.history.state));
  });
  const { stage, photo, message, liveCamera } = state;
  const view = photoView(state);
  usePageMeta(t('photo.title'));
  const coach = useFaceCoach(camera.videoRef, stage === 'live' && camera.live);
  // A face that has been good for about a second starts the countdown by itself (the button still works).
  useEffect(() => {
    if (coach.ready) dispatch({ type: 'takePhoto' });
  }, [coach.ready]);

  const openCamera = useCallback(
    async (mode = camera.facing) => {
      dispatch({ type: 'openCamera' });
      try {
        await withCameraTimeout(camera.start(mode), camera.stop);
        dispatch({ type: 'cameraOpened' });
      } catch (error) {
        const timedOut = isCameraTimeout(error);
        const failure = timedOut ? 'photo.inApp.timeout' : `messages.${cameraErrorKey(error)}`;
        dispatch({ type: 'cameraFailed', message: failure, timedOut });
      }
    },
    [camera.start, camera.stop, camera.facing],
  );

  // Once only (React may run an effect twice): the entry's state is cleared too, so a reload or a
  // return to this page starts at the permission step again, with no camera light by surprise.
  const retakeOpened = useRef(false);
  useEffect(() => {
    if (stage !== 'starting' || retakeOpened.current || !isRetake(window.history.state)) return;
    retakeOpened.current = true;
    window.history.replaceState(null, '');
    void openCamera('user');
  }, [stage, openCamera]);

  useEffect(() => () => (photo ? URL.revokeObjectURL(photo.url) : undefined), [photo]);

  const keepPhoto = useCallback((blob: Blob) => {
    dispatch({ type: 'photoTaken', photo: { blob, url: URL.createObjectURL(blob) } });
  }, []);
  /** A photo from the gallery or the system camera goes through the same downscale as a capture. */
  const keepPickedFile = (file: File) => void fileToUpload(file).then(keepPhoto);

  const capture = useCallback(async () => {
    const video = camera.videoRef.current;
    // No frame yet (a camera still warming up): back to the preview rather than a stuck countdown.
    if (!video?.videoWidth) {
      dispatch({ type: 'noFrame' });
      return;
    }
    keepPhoto(await toJpeg(video, video.videoWidth, video.videoHeight, camera.facing === 'user'));
  }, [camera.videoRef, camera.facing, keepPhoto]);

  const switchCamera = async () => {
    const previous = camera.facing;
    try {
      await camera.start(previous === 'user' ? 'environment' : 'user');
      dispatch({ type: 'switched' });
    } catch {
      dispatch({ type: 'switchFailed' });
      await camera.start(previous).catch(() => dispatch({ type: 'cameraLost' }));
    }
  };

  const upload = async () => {
    if (!photo) return;
    dispatch({ type: 'upload' });
    sessionStore.update({ isUploading: true, error: null });
    try {
      // A black-label market's artworks use the dark variant of the campaign's art.
      const response = await uploadPhoto(photo.blob, session.userSessionId, market.blackLabel);
      camera.stop();
      jobSession.startJob(response.job_id, {
        status: response.status,
        queue_position: response.queue_position,
        error_message: null,
      });
      navigate(path('result'));
    } catch (error) {
      const code = errorCodeOf(error) ?? 'uploadFailed';
      sessionStore.update({ isUploading: false, error: code });
      // The server has no consent for this session (it expired, or storage was reset): sending the photo
      // again cannot help; the visitor starts over and accepts the terms again.
      if (code === 'noConsent') camera.stop();
      dispatch({ type: 'uploadFailed', code, message: messageKeyOf(code) });
    }
  };

  const redo = () => {
    dispatch({ type: 'redo', cameraLive: camera.live });
    if (liveCamera && !camera.live) void openCamera();
  };

  /** The phone took over: the camera here goes off, and its light with it. */
  const phoneConnected = useCallback(() => {
    camera.stop();
    dispatch({ type: 'phoneConnected' });
  }, [camera.stop]);

  const phoneSubmitted = useCallback(
    (jobId: string) => {
      jobSession.startJob(jobId, null);
      navigate(path('result'));
    },
    [navigate, path],
  );

  if (!session.consentGiven) return <Redirect to={path('curious')} replace />;
  if (session.currentJobId && stage !== 'uploading') return <Redirect to={path('result')} replace />;

  const offerBrowser = (view.pickerOnly && isInAppBrowser()) || (stage === 'cameraError' && state.cameraStuck);
  // The offer stays mounted while this computer's camera is in use: a phone that opens the code then still
  // takes over, instead of a code nobody follows.
  const phoneFollowed = offerPhone && stage !== 'consentLost';
  const phonePanel = phoneFollowed && view.phoneOffered;

  const panel = phoneFollowed && (
    <div className="photo__phone" hidden={!phonePanel}>
      <Suspense fallback={null}>
        <PhoneHandoff onConnected={phoneConnected} onSubmitted={phoneSubmitted} />
      </Suspense>
    </div>
  );

  return (
    <section
      className={`screen photo${phonePanel ? (stage === 'phone' ? ' photo--phone' : ' photo--with-phone') : ''}`}
      aria-labelledby="photo-heading"
    >
      <h1 id="photo-heading" className="heading heading--screen">
        {t(view.heading)}
      </h1>
      <div className="photo__own">
        {stage !== 'phone' && (
          <div className={`viewfinder${stage === 'countdown' ? ' viewfinder--ready' : ''}`}>
            {!view.showVideo && !view.showPhoto && <div className="viewfinder__backdrop" aria-hidden="true" />}
            <video
              ref={camera.videoRef}
              className={`viewfinder__video${camera.facing === 'user' ? ' viewfinder__video--mirrored' : ''}`}
              hidden={!view.showVideo}
              playsInline
              muted
              autoPlay
              aria-label={t('photo.previewLabel')}
            />
            {!view.showPhoto && <FaceGuide advice={stage === 'live' ? coach.advice : null} />}
            {stage === 'live' && coach.available && (
              <CoachMessage advice={coach.advice} text={(advice) => t(`photo.coach.${advice}`)} />
            )}
            {view.showPhoto && photo && (
              <img className="viewfinder__photo" src={photo.url} alt={t('photo.reviewLabel')} />
            )}
            {stage === 'countdown' && (
              <Countdown
                from={COUNTDOWN_SECONDS}
                label={(count) => t('photo.countdownLabel', { count })}
                onDone={() => void capture()}
              />
            )}
            {stage === 'uploading' && (
              <div className="viewfinder__busy" role="status">
                <span className="spinner" aria-hidden="true" />
                <span>{t('photo.uploading')}</span>
              </div>
            )}
          </div>
        )}

        <div className="photo__copy">
          {stage === 'permission' && <p className="lead">{t('photo.permissionBody')}</p>}
          {stage === 'live' && <p className="lead">{t('photo.positionHint')}</p>}
          {stage === 'countdown' && <p className="lead">{t('photo.getReadyBody')}</p>}
          {view.pickerOnly && <p className="lead">{t('photo.noCameraInApp')}</p>}
          <p className="form-error" role="alert">
            {message && t(message)}
          </p>
        </div>

        <div className="actions">
          {stage === 'permission' && (
            <Button onClick={() => void openCamera('user')} testId="camera-allow">
              {t('photo.allowCamera')}
            </Button>
          )}
          {stage === 'live' && (
            <>
              <Button onClick={() => dispatch({ type: 'takePhoto' })} disabled={!camera.live} testId="photo-take">
                {t('photo.takePhoto')}
              </Button>
              <Button variant="ghost" onClick={() => void switchCamera()} testId="camera-switch">
                {t('photo.switchCamera')}
              </Button>
            </>
          )}
          {(stage === 'review' || stage === 'uploadFailed') && photo && (
            <>
              <Button onClick={() => void upload()} testId="photo-continue">
                {stage === 'uploadFailed' ? t('photo.tryAgain') : t('photo.continue')}
              </Button>
              {liveCamera ? (
                <Button variant="ghost" onClick={redo} testId="photo-redo">
                  {t('photo.redo')}
                </Button>
              ) : (
                <FilePicker label={t('photo.redo')} onFile={keepPickedFile} primary={false} />
              )}
            </>
          )}
          {stage === 'consentLost' && (
            <Button
              onClick={() => {
                sessionStore.reset();
                navigate(path('start'));
              }}
              testId="photo-start-over"
            >
              {t('exit.back')}
            </Button>
          )}
          {stage === 'cameraError' && (
            <>
              <Button onClick={() => void openCamera()} testId="camera-retry">
                {t('photo.tryAgain')}
              </Button>
              <FilePicker label={t('photo.chooseFile')} onFile={keepPickedFile} primary={false} />
            </>
          )}
          {view.pickerOnly && <FilePicker label={t('photo.chooseFile')} onFile={keepPickedFile} />}
          {stage === 'phone' && (
            <Button variant="ghost" onClick={() => dispatch({ type: 'useComputer' })} testId="photo-use-computer">
              {t('handoff.useComputer')}
            </Button>
          )}
        </div>
        {offerBrowser && <OpenInBrowser />}
      </div>
      {panel}
    </section>
  );
}
