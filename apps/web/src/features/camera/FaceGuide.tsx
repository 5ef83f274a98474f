/** The face circle over the preview: the scene dims outside it, a ring marks where the face goes. */
export function FaceGuide() {
  return (
    <svg className="face-guide" viewBox="0 0 100 125" preserveAspectRatio="xMidYMid slice" aria-hidden="true">
      <defs>
        <mask id="face-guide-mask">
          <rect width="100" height="125" fill="white" />
          <ellipse cx="50" cy="56" rx="31" ry="39" fill="black" />
        </mask>
      </defs>
      <rect width="100" height="125" fill="rgba(11, 28, 33, 0.55)" mask="url(#face-guide-mask)" />
      <ellipse className="face-guide__ring" cx="50" cy="56" rx="31" ry="39" />
    </svg>
  );
}
