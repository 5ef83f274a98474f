/// <reference types="vite/client" />

/** The id of this build, compared against builds/latest.json to detect a newer deployment. */
declare const __BUILD_ID__: string;
