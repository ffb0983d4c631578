// The loopback git server lives in @bindery/shared/testing (the git bench serves its repository with it too).
export { startTestGitServer } from '@bindery/shared/testing';
export type { GitRequest, TestGitServer } from '@bindery/shared/testing';
