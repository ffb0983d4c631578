export { IMPORT_SETTINGS, limitsOf, type ImportConfig } from './import-settings';
export { runWebsiteImport, WEBSITE_IMPORT_RUN, type ImportInput } from './import-website.service';
export type { WebsiteImports } from './import-ports';
export { cancelImport, getImport, importWebsiteAndWait, listImports, startImport } from './import-runs';
