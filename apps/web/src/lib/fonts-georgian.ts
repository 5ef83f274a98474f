import '@fontsource/noto-sans-georgian/georgian-400.css';
import '@fontsource/noto-sans-georgian/georgian-700.css';
import georgian400 from '@fontsource/noto-sans-georgian/files/noto-sans-georgian-georgian-400-normal.woff2?url';
import georgian700 from '@fontsource/noto-sans-georgian/files/noto-sans-georgian-georgian-700-normal.woff2?url';

/**
 * Loaded only for Georgian (`ka`). Only the Georgian subset: Latin letters and digits come from
 * Noto Sans, which the page has already loaded.
 */
export const fontFiles = [georgian400, georgian700];
