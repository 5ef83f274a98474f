import { ARTWORK, type ArtworkFormat, STORY_ARTWORK } from '@selfie-mosaic/contract';

interface ArtworkImageProps {
  src: string;
  alt: string;
  format?: ArtworkFormat;
  onError?: () => void;
}

const SIZES = { post: ARTWORK, story: STORY_ARTWORK } as const;

/** The finished artwork at its real size, so the page keeps its place before the image arrives. */
export function ArtworkImage({ src, alt, format = 'post', onError }: ArtworkImageProps) {
  const { width, height } = SIZES[format];
  return (
    <figure className={`artwork artwork--${format}`}>
      <img src={src} alt={alt} width={width} height={height} onError={onError} data-testid="artwork" />
    </figure>
  );
}
