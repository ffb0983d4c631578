export { IMPORT_SETTINGS, limitsOf, type ImportConfig } from './import-settings';
export { runWebsiteImport, WEBSITE_IMPORT_RUN, type ImportInput, type WebsiteImports } from './import-website.service';
export { cancelImport, getImport, importWebsiteAndWait, listImports, startImport } from './import-runs';
