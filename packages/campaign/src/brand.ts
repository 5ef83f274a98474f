/** Brand strings shared by the web app (titles, share sheet) and the art engine (wordmark). */
export const BRAND = {
  brand: 'IQOS',
  partner: 'Tessera Studio',
  /** The page title suffix (docs/product.md#page-titles-and-page-views). */
  experienceName: 'IQOS Mosaic',
  description: 'Create your personalised selfie mosaic: a portrait artwork made of thousands of tesserae.',
  share: {
    title: 'IQOS Mosaic Image',
    text: 'Check out my personalized IQOS mosaic!',
  },
  /** The wordmark on the artwork frame: brand × design partner. */
  wordmark: 'IQOS × TESSERA STUDIO',
  downloadFileName: 'iqos-mosaic.jpg',
} as const;
