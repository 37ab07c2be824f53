/** Injected by esbuild (build.mjs `inject`): every free `Buffer` in the bundle is this one. */
export { BrowserBuffer as Buffer } from './buffer.js';
