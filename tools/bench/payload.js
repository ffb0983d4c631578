'use strict';
// The fixed response body of the express targets: shaped like Bindery's organization resource
// (GET /v1/orgs/{orgId}), padded to a given serialized size (~1.5 KB by default).
function organizationPayload(bytes = Number(process.env.BENCH_PAYLOAD_BYTES || 1500)) {
  const id = 'benchorg1a2b3c4d5e6f7g8h';
  const base = 'http://127.0.0.1:8080';
  const org = {
    object: 'organization',
    id,
    title: 'Bench org',
    createdAt: '2025-01-01T00:00:00.000Z',
    emailDomains: ['example.com', 'bench.example.com'],
    hostname: 'bench.docs.example.com',
    type: 'business',
    defaultRole: 'read',
    sso: false,
    ai: false,
    inviteLinks: true,
    plan: 'free',
    mergeRules: { type: 'none' },
    urls: { location: `${base}/v1/orgs/${id}`, app: `${base}/o/${id}`, logo: `${base}/assets/${id}/logo.png` },
    trial: { status: 'none' },
    permissions: {
      view: true,
      admin: true,
      ownTeam: true,
      createContent: true,
      createOpenAPISpec: true,
      ingestConversations: true,
      viewBilling: true,
      listMembers: true,
      listTeams: true,
      listIntegrations: true,
    },
    description: '',
  };
  const missing = bytes - Buffer.byteLength(JSON.stringify(org));
  org.description = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(40).slice(0, Math.max(0, missing));
  return org;
}

module.exports = { organizationPayload };
