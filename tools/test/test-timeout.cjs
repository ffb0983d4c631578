// Sets each project's default test and hook timeout from its `globals.TEST_TIMEOUT_MS`. Jest reads
// `testTimeout` only from the root config when projects run together (npm test), so a tier's
// timeout is set here, per project, instead.
jest.setTimeout(globalThis.TEST_TIMEOUT_MS);
