/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Mixpanel project token; without it analytics is a no-op and Mixpanel is never loaded. */
  readonly VITE_MIXPANEL_TOKEN?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
