/** GitBook documents and page trees → the reader's HTML, Markdown, llms.txt, sitemaps and robots.txt (pure). */
export * from './types';
export { renderDocument, hastToHtml } from './render';
export type { RenderedDocument } from './render';
export { emojiChar } from './inlines';
export { formatSize } from './blocks';
export * from './tree';
export * from './listings';
export { pageMarkdown, documentForReader } from './markdown';
export { escapeHtml } from './escape';
export { renderApiBlock, renderOperation, renderWebhook, renderSchemas } from './openapi-operation';
export { apiSpecNamesIn, apiSpecNameOf, apiSpecKey, API_BLOCK_TYPES, liftApiBlocks, type ApiSpecName } from './openapi-blocks';
export type { ApiSpecFile, PublishedApiSpec } from './openapi-spec';
