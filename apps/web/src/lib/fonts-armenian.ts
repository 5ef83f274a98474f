import '@fontsource/noto-sans-armenian/armenian-400.css';
import '@fontsource/noto-sans-armenian/armenian-700.css';
import armenian400 from '@fontsource/noto-sans-armenian/files/noto-sans-armenian-armenian-400-normal.woff2?url';
import armenian700 from '@fontsource/noto-sans-armenian/files/noto-sans-armenian-armenian-700-normal.woff2?url';

/**
 * Loaded only for Armenian (`hy`). Only the Armenian subset: Latin letters and digits come from
 * Noto Sans, which the page has already loaded.
 */
export const fontFiles = [armenian400, armenian700];
