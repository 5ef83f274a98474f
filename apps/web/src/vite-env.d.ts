/// <reference types="vite/client" />

/** The id of this build, compared against builds/latest.json to detect a newer deployment. */
declare const __BUILD_ID__: string;

/** Where the face guide's model and WASM are served from, on our own origin (build/face-guide-assets-plugin.ts). */
declare const __FACE_GUIDE_ASSETS__: string;
