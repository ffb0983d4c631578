/**
 * A documentation corpus for relevance tests: the guides, API reference and release notes of a
 * documentation platform — 40 guides, 100 reference pages (20 resources × 5 operations) and 60
 * release notes that mention features in passing. Each page: a title and markdown.
 */
export interface CorpusPage {
  title: string;
  markdown: string;
}

export const GUIDES: CorpusPage[] = [
  {
    title: 'Quickstart',
    markdown: 'Create an organization, add a space and write your first page in five minutes.\n\n## Next steps\n\nInvite your team and connect a Git repository.',
  },
  {
    title: 'Authentication',
    markdown: 'Every request carries a bearer token in the Authorization header.\n\n## Tokens\n\nAuthenticate with a personal API token; tokens are shown once and stored hashed.',
  },
  {
    title: 'Rate limits',
    markdown:
      'Each token may send 600 requests per minute.\n\n## Rate limit headers\n\nX-RateLimit-Remaining tells how many requests are left; over the limit the API answers 429.',
  },
  {
    title: 'Pagination',
    markdown: 'Lists return a page of items and a cursor.\n\n## Cursors\n\nPass next.page as the page parameter to read the following page; the limit is 1 to 1000.',
  },
  {
    title: 'Errors',
    markdown: 'Every error has a code and a message.\n\n## Error codes\n\n400 bad input, 401 missing token, 403 not allowed, 404 not found, 409 conflict, 429 rate limited.',
  },
  {
    title: 'Webhook delivery and retries',
    markdown:
      'Webhooks send an HTTP POST for each event.\n\n## Retries\n\nA failed delivery is retried with exponential backoff for up to 24 hours.\n\n## Signatures\n\nVerify the signature header with your webhook secret.',
  },
  {
    title: 'SAML single sign-on',
    markdown: 'Let members sign in with your identity provider.\n\n## Configure the identity provider\n\nUpload the IdP metadata XML and map the email attribute.',
  },
  {
    title: 'Custom domains',
    markdown: 'Publish your site on your own custom domain.\n\n## DNS\n\nAdd a CNAME record pointing to the hosting address; certificates are issued automatically.',
  },
  {
    title: 'Merging change requests',
    markdown:
      'A change request proposes edits to a space.\n\n## Merge\n\nWhen reviewers approve, merge the change request into the main content; conflicts must be resolved first.',
  },
  {
    title: 'GitHub sync',
    markdown: 'Keep a space and a GitHub repository in sync.\n\n## Setup\n\nInstall the GitHub app, choose the repository and branch, then import or export.',
  },
  { title: 'GitLab sync', markdown: 'Synchronise a space with a GitLab project using a project access token.' },
  {
    title: 'Configuration file',
    markdown: 'The .bindery.yaml configuration file sets the root folder and the structure of a synced repository.\n\n## Options\n\nroot, structure.readme and structure.summary.',
  },
  {
    title: 'Translations',
    markdown: 'Translate a space into other languages.\n\n## Translating content\n\nEach language is a space of its own, linked as a translation of the original.',
  },
  { title: 'Inviting members', markdown: 'Invite users to your organization by email and choose their role.\n\n## Pending invites\n\nInvites wait until the person signs up.' },
  {
    title: 'Roles and permissions',
    markdown: 'Roles rank read, comment, edit, review, create and admin.\n\n## Space permissions\n\nGrant a role to a user or a team on a space or a collection.',
  },
  { title: 'Teams', markdown: 'Group members into teams and grant access to a whole team at once.' },
  {
    title: 'Search',
    markdown: 'Search finds pages across every space you can read.\n\n## Index\n\nThe search index follows every change; administrators can rebuild it from scratch.',
  },
  { title: 'Backups and restore', markdown: 'Back up the MongoDB databases with mongodump.\n\n## Restore\n\nRestore a backup with mongorestore while the services are stopped.' },
  {
    title: 'Deploying on Kubernetes',
    markdown: 'The deploy folder holds Kubernetes manifests for every service.\n\n## Deployment\n\nApply the kustomization; each deployment has probes and a disruption budget.',
  },
  {
    title: 'Environment variables',
    markdown: 'Every setting is an environment variable, validated at start.\n\n## Required variables\n\nMONGODB_URL and KAFKA_BROKERS point at the databases and the brokers.',
  },
  { title: 'Files and images', markdown: 'Upload images and attachments to a space.\n\n## Image formats\n\nPNG, JPEG, GIF and SVG files are shown inline.' },
  {
    title: 'OpenAPI specifications',
    markdown: 'Publish an OpenAPI spec and render its operations as reference pages.\n\n## Versions\n\nEach upload of the spec creates a version.',
  },
  { title: 'Page history', markdown: 'Every change creates a revision.\n\n## Revert a page\n\nOpen the history, pick a revision and revert the page to it.' },
  { title: 'Collections', markdown: 'Collections group spaces; nested collections form a tree.\n\n## Moving spaces\n\nDrag a space into a collection to move it.' },
  { title: 'Comments and reviews', markdown: 'Discuss a change request with comments.\n\n## Reviews\n\nReviewers approve or request changes.' },
  { title: 'Share links', markdown: 'Share a private site with people outside your organization through a share link that can be revoked.' },
  { title: 'Site customization', markdown: 'Change the theme, colors, logo and fonts of a published site.\n\n## Theme\n\nChoose light, dark or follow the reader.' },
  { title: 'Publishing a site', markdown: 'Publish spaces as a public documentation site.\n\n## Visibility\n\nPublic, unlisted, share link or authenticated access.' },
  { title: 'Importing content', markdown: 'Import Markdown, HTML or a whole website into a space.\n\n## Website import\n\nThe crawler follows links under the starting URL.' },
  {
    title: 'Markdown syntax',
    markdown: 'Write headings, lists, tables, code blocks and hints in Markdown.\n\n## Code blocks\n\nFence code with three backticks and name the language.',
  },
  { title: 'Integrations', markdown: 'Integrations extend spaces with embeds, analytics and chat.\n\n## Installing an integration\n\nOrganization admins install integrations.' },
  { title: 'Audit log', markdown: 'The audit log records who changed what and when, for compliance reviews.' },
  { title: 'Deleting and restoring spaces', markdown: 'A deleted space can be restored for seven days.\n\n## Purge\n\nAfter seven days the space is purged for good.' },
  { title: 'Transferring spaces', markdown: 'Transfer a space or a collection to another organization you belong to.' },
  { title: 'Observability', markdown: 'Traces and logs of every request.\n\n## OpenTelemetry\n\nSet OTEL_EXPORTER_OTLP_ENDPOINT to export traces over OTLP.' },
  {
    title: 'Scaling',
    markdown: 'Run several replicas of each service behind a load balancer.\n\n## Kafka partitions\n\nEvents are spread over partitions; consumers scale with them.',
  },
  { title: 'Email domains', markdown: 'Users with an email address on a verified email domain can join the organization automatically.' },
  { title: 'Adaptive content', markdown: 'Show different content to different readers with visitor claims and conditions.' },
  { title: 'Keyboard shortcuts', markdown: 'Press Cmd+K to open quick search; Cmd+Enter publishes a change request.' },
  {
    title: 'Troubleshooting',
    markdown: 'When a service does not start, check the logs and the readiness probe.\n\n## Connection refused\n\nMake sure MongoDB and Kafka are reachable.',
  },
];

const RESOURCES: Array<{ one: string; many: string; path: string; about: string }> = [
  { one: 'organization', many: 'organizations', path: '/v1/orgs', about: 'an organization groups members, spaces and sites' },
  { one: 'member', many: 'members', path: '/v1/orgs/{orgId}/members', about: 'a member is a user with a role in an organization' },
  { one: 'team', many: 'teams', path: '/v1/orgs/{orgId}/teams', about: 'a team is a named group of members' },
  { one: 'space', many: 'spaces', path: '/v1/orgs/{orgId}/spaces', about: 'a space holds pages and files' },
  { one: 'collection', many: 'collections', path: '/v1/orgs/{orgId}/collections', about: 'a collection groups spaces' },
  { one: 'page', many: 'pages', path: '/v1/spaces/{spaceId}/content/pages', about: 'a page is a document in a space' },
  { one: 'file', many: 'files', path: '/v1/spaces/{spaceId}/content/files', about: 'a file is an image or attachment of a space' },
  { one: 'revision', many: 'revisions', path: '/v1/spaces/{spaceId}/revisions', about: 'a revision is a version of the content of a space' },
  { one: 'change request', many: 'change requests', path: '/v1/spaces/{spaceId}/change-requests', about: 'a change request proposes edits' },
  { one: 'comment', many: 'comments', path: '/v1/spaces/{spaceId}/comments', about: 'a comment discusses content' },
  { one: 'review', many: 'reviews', path: '/v1/spaces/{spaceId}/change-requests/{id}/reviews', about: 'a review approves or rejects a change request' },
  { one: 'webhook', many: 'webhooks', path: '/v1/orgs/{orgId}/webhooks', about: 'a webhook sends events to a URL' },
  { one: 'API token', many: 'API tokens', path: '/v1/user/tokens', about: 'an API token authenticates requests' },
  { one: 'invite', many: 'invites', path: '/v1/orgs/{orgId}/invites', about: 'an invite asks someone to join' },
  { one: 'SAML provider', many: 'SAML providers', path: '/v1/orgs/{orgId}/saml', about: 'a SAML provider signs members in' },
  { one: 'custom hostname', many: 'custom hostnames', path: '/v1/custom-hostnames', about: 'a custom hostname serves a site' },
  { one: 'integration', many: 'integrations', path: '/v1/integrations', about: 'an integration extends spaces' },
  { one: 'site', many: 'sites', path: '/v1/orgs/{orgId}/sites', about: 'a site publishes spaces' },
  { one: 'share link', many: 'share links', path: '/v1/orgs/{orgId}/sites/{siteId}/share-links', about: 'a share link opens a private site' },
  { one: 'OpenAPI spec', many: 'OpenAPI specs', path: '/v1/orgs/{orgId}/openapi', about: 'an OpenAPI spec describes an API' },
];

const article = (word: string) => (/^[aeiou]/i.test(word) && !/^(user|uni)/i.test(word) ? 'an' : 'a');
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export const REFERENCE: CorpusPage[] = RESOURCES.flatMap((r) => [
  {
    title: `Create ${article(r.one)} ${r.one}`,
    markdown: `POST ${r.path}\n\n${cap(r.about)}. Creates one and returns it with status 201.\n\n## Errors\n\n400 when the body is invalid, 403 without the create role.`,
  },
  { title: `List ${r.many}`, markdown: `GET ${r.path}\n\nReturns a paginated list of ${r.many} the caller can see, with a cursor for the next page.` },
  { title: `Get ${article(r.one)} ${r.one}`, markdown: `GET ${r.path}/{id}\n\nReturns one ${r.one} by its id; 404 when it does not exist or is not visible.` },
  {
    title: `Update ${article(r.one)} ${r.one}`,
    markdown: `PATCH ${r.path}/{id}\n\nUpdates the fields of ${article(r.one)} ${r.one} given in the body. Unknown fields are rejected with 400.`,
  },
  { title: `Delete ${article(r.one)} ${r.one}`, markdown: `DELETE ${r.path}/{id}\n\nDeletes the ${r.one}. Deleting again answers 204.` },
]);

const NOTES = [
  'Webhook deliveries show their response time',
  'Faster search for large organizations',
  'Rate limit headers on every answer',
  'SAML metadata can be uploaded as a file',
  'Custom domain certificates renew earlier',
  'Change requests show who requested a review',
  'GitHub sync handles renamed files',
  'Translations keep their links when a page moves',
  'Kubernetes manifests set memory limits',
  'Environment variables are checked at start',
  'Images are resized for faster pages',
  'OpenAPI specs accept YAML',
  'Page history shows who restored a revision',
  'Tokens can carry a label',
  'Pagination cursors are shorter',
  'Error messages name the invalid field',
  'Invites expire after thirty days',
  'Teams can be renamed',
  'Audit log exports as CSV',
  'Backups include file storage',
];

export const RELEASE_NOTES: CorpusPage[] = Array.from({ length: 60 }, (_, i) => ({
  title: `Release 4.${i}`,
  markdown: `Released in week ${i + 1}.\n\n## Improvements\n\n- ${NOTES[i % NOTES.length]}.\n- ${NOTES[(i * 7 + 3) % NOTES.length]}.\n- Various fixes.`,
}));

/** The queries of the relevance test and the page that must come first for each, written out. */
export const QUERIES: Array<[string, string]> = [
  ['webhook retries', 'Webhook delivery and retries'],
  ['rate limits', 'Rate limits'],
  ['authenticate with a token', 'Authentication'],
  ['delete a webhook', 'Delete a webhook'],
  ['list members', 'List members'],
  ['SAML single sign-on', 'SAML single sign-on'],
  ['pagination cursor', 'Pagination'],
  ['"custom domain"', 'Custom domains'],
  ['merge change request', 'Merging change requests'],
  ['github sync', 'GitHub sync'],
  ['configuration fi', 'Configuration file'],
  ['translating content', 'Translations'],
  ['error codes', 'Errors'],
  ['create an API token', 'Create an API token'],
  ['invite users by email', 'Inviting members'],
  ['rebuild the search index', 'Search'],
  ['restore a backup', 'Backups and restore'],
  ['kubernetes deployment', 'Deploying on Kubernetes'],
  ['environment variables', 'Environment variables'],
  ['upload images', 'Files and images'],
  ['OpenAPI specification versions', 'OpenAPI specifications'],
  ['revert a page', 'Page history'],
  ['purge deleted space', 'Deleting and restoring spaces'],
  ['OPENTELEMETRY traces', 'Observability'],
  ['code blocks markdown', 'Markdown syntax'],
];
