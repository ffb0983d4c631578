'use strict';
// The data the Bindery targets of `npm run bench` read, made through the HTTP API as a user would:
// a space with pages (one change request, merged) and an organization with members (joined with an
// invite link).

/** Retries `probe` until it resolves (services learn of new organizations and members by events). */
async function until(what, probe, timeoutMs = 60000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await probe();
    } catch (err) {
      if (Date.now() > end) throw new Error(`${what}: ${err.message}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

const markdown = (i) => `## Section ${i}\n\nThis page explains topic ${i}. See [the overview](https://example.com).\n\n- one\n- two\n\n\`\`\`js\nconsole.log(${i});\n\`\`\`\n`;

/** A space of the bench user's organization with `pages` root pages; resolves with { spaceId, pageId } (a page in the middle). */
async function spaceWithPages(b, pages) {
  const { json: space } = await until('creating a space', () => b.call('POST', `/v1/orgs/${b.organizationId}/spaces`, { title: `Bench space of ${pages} pages` }));
  const { json: cr } = await b.call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Pages' });
  const changes = Array.from({ length: pages }, (_, i) => ({ operation: 'insert_page', title: `Page ${i}`, document: { markdown: markdown(i) } }));
  const { json: edited } = await b.call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, { changes });
  await b.call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`);
  const pageId = edited.changes[Math.floor(pages / 2)].page.id;
  await until('the merged page', () => b.call('GET', `/v1/spaces/${space.id}/content/page/${pageId}`));
  return { spaceId: space.id, pageId };
}

/** A new organization of the bench user with `members` members (the user among them); resolves with its id. */
async function organizationWithMembers(b, members) {
  const { json: org } = await b.call('POST', '/v1/orgs', { title: `Bench org of ${members} members` });
  const { json: invite } = await b.call('POST', `/v1/orgs/${org.id}/link-invites`, { role: 'read' });
  for (let i = 1; i < members; i++) {
    const { json: user } = await b.admin('POST', '/admin/users', { email: `member${i}.${org.id.toLowerCase()}@example.com`, displayName: `Member ${i}` });
    const {
      json: { token },
    } = await b.admin('POST', `/admin/users/${user.id}/tokens`, {});
    await b.as(token)('POST', `/v1/orgs/${org.id}/invites/${invite.id}`);
  }
  return org.id;
}

module.exports = { spaceWithPages, organizationWithMembers };
