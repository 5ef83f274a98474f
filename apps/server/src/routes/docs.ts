import { uploadFieldsSchema } from '@selfie-mosaic/contract';
import { z } from 'zod';
import type { App } from './context.js';

/** The multipart upload has no zod body (the parts are streamed), so its request body is added here. */
function uploadRequestBody() {
  const fields = z.toJSONSchema(uploadFieldsSchema, { io: 'input' }) as {
    properties: Record<string, unknown>;
    required?: string[];
  };
  return {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: ['photo', ...(fields.required ?? [])],
          properties: {
            photo: { type: 'string', format: 'binary', description: 'JPEG, PNG, WebP or HEIC; ≤ 10 MB, ≤ 40 MP' },
            ...fields.properties,
          },
        },
      },
    },
  };
}

export function docsRoutes(app: App): void {
  app.get('/api/docs/json', { schema: { hide: true } }, async () => {
    const document = app.swagger() as { paths?: Record<string, Record<string, Record<string, unknown>>> };
    const upload = document.paths?.['/api/upload']?.post;
    if (upload) upload.requestBody = uploadRequestBody();
    return document;
  });
}
