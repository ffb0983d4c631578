/**
 * How long a caller waits for a website import run to finish (importContent and
 * importContentInChangeRequest answer the completed import): the one budget of a website import.
 * The run itself goes on if the caller stops waiting; it can be read through the imports endpoints.
 */
export const IMPORT_BUDGET_MS = 10 * 60_000;
