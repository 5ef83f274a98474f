import { ARTWORK } from '@selfie-mosaic/contract';

interface ArtworkImageProps {
  src: string;
  alt: string;
  onError?: () => void;
}

/** The finished artwork at its real size, so the page keeps its place before the image arrives. */
export function ArtworkImage({ src, alt, onError }: ArtworkImageProps) {
  return (
    <figure className="artwork">
      <img src={src} alt={alt} width={ARTWORK.width} height={ARTWORK.height} onError={onError} data-testid="artwork" />
    </figure>
  );
}
