import { useCallback, useEffect, useRef, useState } from 'react';
import { Redirect, useLocation } from 'wouter';
import { errorCodeOf } from '../../lib/api-error';
import { isInAppBrowser } from '../../lib/in-app-browser';
import { jobSession } from '../../lib/job';
import { useLocale } from '../../lib/locale-context';
import { messageText } from '../../lib/messages';
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
import { uploadPhoto } from './upload';
import { useCamera } from './useCamera';

type Stage =
  | 'permission'
  | 'starting'
  | 'live'
  | 'countdown'
  | 'review'
  | 'uploading'
  | 'uploadFailed'
  | 'consentLost'
  | 'cameraError';

const COUNTDOWN_SECONDS = 3;

/**
 * Screen 5: camera permission, positioning, get-ready countdown, review, upload. The camera only
 * turns on when the visitor taps for it, even where the browser already allows it: no camera light
 * comes on by surprise, and every visitor sees the same first step.
 */
export default function PhotoScreen() {
  const { t, path, market } = useLocale();
  const [, navigate] = useLocation();
  const session = useSession();
  const camera = useCamera();
  const liveCamera = useRef(canUseLiveCamera()).current;
  // Sent here by "Take a new photo": the visitor asked for the camera, so it opens without the permission step.
  const [retake] = useState(() => liveCamera && isRetake(window.history.state));
  const [stage, setStage] = useState<Stage>(liveCamera ? (retake ? 'starting' : 'permission') : 'review');
  const [photo, setPhoto] = useState<{ blob: Blob; url: string } | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  // A camera request that never answered: the visitor gets the in-app browser's way out.
  const [cameraStuck, setCameraStuck] = useState(false);
  usePageMeta(t('photo.title'));
  const coach = useFaceCoach(camera.videoRef, stage === 'live' && camera.live);
  // A face that has been good for about a second starts the countdown by itself (the button still works).
  useEffect(() => {
    if (coach.ready && stage === 'live') setStage('countdown');
  }, [coach.ready, stage]);

  const openCamera = useCallback(
    async (mode = camera.facing) => {
      setStage('starting');
      setMessage(null);
      try {
        await withCameraTimeout(camera.start(mode), camera.stop);
        setStage('live');
      } catch (error) {
        setCameraStuck(isCameraTimeout(error));
        setMessage(isCameraTimeout(error) ? t('photo.inApp.timeout') : t(`messages.${cameraErrorKey(error)}`));
        setStage('cameraError');
      }
    },
    [camera.start, camera.stop, camera.facing, t],
  );

  // Once only (React may run an effect twice): the entry's state is cleared too, so a reload or a
  // return to this page starts at the permission step again, with no camera light by surprise.
  const retakeOpened = useRef(false);
  useEffect(() => {
    if (!retake || retakeOpened.current) return;
    retakeOpened.current = true;
    window.history.replaceState(null, '');
    void openCamera('user');
  }, [retake, openCamera]);

  useEffect(() => () => (photo ? URL.revokeObjectURL(photo.url) : undefined), [photo]);

  const keepPhoto = useCallback((blob: Blob) => {
    setPhoto({ blob, url: URL.createObjectURL(blob) });
    setStage('review');
  }, []);
  /** A photo from the gallery or the system camera goes through the same downscale as a capture. */
  const keepPickedFile = (file: File) => void fileToUpload(file).then(keepPhoto);

  const capture = useCallback(async () => {
    const video = camera.videoRef.current;
    // No frame yet (a camera still warming up): back to the preview rather than a stuck countdown.
    if (!video?.videoWidth) {
      setStage('live');
      return;
    }
    keepPhoto(await toJpeg(video, video.videoWidth, video.videoHeight, camera.facing === 'user'));
  }, [camera.videoRef, camera.facing, keepPhoto]);

  const switchCamera = async () => {
    const previous = camera.facing;
    try {
      await camera.start(previous === 'user' ? 'environment' : 'user');
      setMessage(null);
    } catch {
      setMessage(t('messages.cameraSwitchFailed'));
      await camera.start(previous).catch(() => setStage('cameraError'));
    }
  };

  const upload = async () => {
    if (!photo) return;
    setStage('uploading');
    setMessage(null);
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
      setMessage(messageText(t, code));
      // The server has no consent for this session (it expired, or storage was reset): sending the photo
      // again cannot help; the visitor starts over and accepts the terms again.
      if (code === 'noConsent') {
        camera.stop();
        setStage('consentLost');
      } else setStage('uploadFailed');
    }
  };

  const redo = () => {
    setPhoto(null);
    if (!liveCamera) return;
    if (camera.live) setStage('live');
    else void openCamera();
  };

  if (!session.consentGiven) return <Redirect to={path('curious')} replace />;
  if (session.currentJobId && stage !== 'uploading') return <Redirect to={path('result')} replace />;

  const offerBrowser = (!liveCamera && !photo && isInAppBrowser()) || (stage === 'cameraError' && cameraStuck);
  const showVideo = stage === 'live' || stage === 'countdown' || stage === 'starting';
  const showPhoto = photo && (stage === 'review' || stage === 'uploading' || stage === 'uploadFailed');
  const heading = {
    permission: t('photo.permissionHeading'),
    starting: t('photo.permissionHeading'),
    live: t('photo.positionHeading'),
    countdown: t('photo.getReadyHeading'),
    review: photo ? t('photo.reviewHeading') : t('photo.title'),
    uploading: t('photo.reviewHeading'),
    uploadFailed: t('photo.reviewHeading'),
    consentLost: t('curious.title'),
    cameraError: t('photo.permissionHeading'),
  }[stage];

  return (
    <section className="screen photo" aria-labelledby="photo-heading">
      <h1 id="photo-heading" className="heading heading--screen">
        {heading}
      </h1>
      <div className={`viewfinder${stage === 'countdown' ? ' viewfinder--ready' : ''}`}>
        {!showVideo && !showPhoto && <div className="viewfinder__backdrop" aria-hidden="true" />}
        <video
          ref={camera.videoRef}
          className={`viewfinder__video${camera.facing === 'user' ? ' viewfinder__video--mirrored' : ''}`}
          hidden={!showVideo}
          playsInline
          muted
          autoPlay
          aria-label={t('photo.previewLabel')}
        />
        {!showPhoto && <FaceGuide advice={stage === 'live' ? coach.advice : null} />}
        {stage === 'live' && coach.available && (
          <CoachMessage advice={coach.advice} text={(advice) => t(`photo.coach.${advice}`)} />
        )}
        {showPhoto && <img className="viewfinder__photo" src={photo.url} alt={t('photo.reviewLabel')} />}
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

      <div className="photo__copy">
        {stage === 'permission' && <p className="lead">{t('photo.permissionBody')}</p>}
        {stage === 'live' && <p className="lead">{t('photo.positionHint')}</p>}
        {stage === 'countdown' && <p className="lead">{t('photo.getReadyBody')}</p>}
        {!liveCamera && !photo && <p className="lead">{t('photo.noCameraInApp')}</p>}
        <p className="form-error" role="alert">
          {message}
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
            <Button onClick={() => setStage('countdown')} disabled={!camera.live} testId="photo-take">
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
        {!liveCamera && !photo && <FilePicker label={t('photo.chooseFile')} onFile={keepPickedFile} />}
      </div>
      {offerBrowser && <OpenInBrowser />}
    </section>
  );
}
