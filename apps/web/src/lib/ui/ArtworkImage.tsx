import { ARTWORK, type ArtworkFormat, STORY_ARTWORK } from '@selfie-mosaic/contract';
import type { ReactNode, Ref } from 'react';

export interface ArtworkImageProps {
  src: string;
  alt: string;
  format?: ArtworkFormat;
  onError?: () => void;
  /** Extra classes on the figure (the result screen's reveal). */
  className?: string;
  imageRef?: Ref<HTMLImageElement>;
  /** Shown over the picture, inside its figure (the result screen's reveal). */
  children?: ReactNode;
}

const SIZES = { post: ARTWORK, story: STORY_ARTWORK } as const;

/** The finished artwork at its real size, so the page keeps its place before the image arrives. */
export function ArtworkImage({ src, alt, format = 'post', onError, className, imageRef, children }: ArtworkImageProps) {
  const { width, height } = SIZES[format];
  return (
    <figure className={`artwork artwork--${format}${className ? ` ${className}` : ''}`}>
      <img ref={imageRef} src={src} alt={alt} width={width} height={height} onError={onError} data-testid="artwork" />
      {children}
    </figure>
  );
}
