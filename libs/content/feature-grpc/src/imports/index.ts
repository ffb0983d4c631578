export { ImportJobs, type ImportJob } from './import-jobs';
export { IMPORT_SETTINGS, limitsOf, type ImportConfig } from './import-settings';
export { importWebsite, type WebsiteImports } from './import-website.service';
