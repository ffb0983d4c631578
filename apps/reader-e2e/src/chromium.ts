// The browser of the reader's tests is the shared one (libs/shared/testing), which the gateway's sign-in test also drives.
export { CHROMIUM, launchChromium } from '@bindery/shared/testing';
export type { Browser, Device } from '@bindery/shared/testing';
