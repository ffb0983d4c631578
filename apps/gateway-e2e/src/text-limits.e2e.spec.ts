import { assertErrorBody, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createCollection, createSpace } from './content-fixtures';
import { CR, editChangeRequest, openChangeRequest } from './change-request-fixtures';
import { createOrganization, createUser } from './fixtures';
import { Client, http } from './http-client';

/** An emoji outside the Basic Multilingual Plane: one character, two UTF-16 units. */
const EMOJI = '😀';
const emojis = (n: number) => EMOJI.repeat(n);

/**
 * Text limits are counted in characters (code points) by the gateway's schema and by every
 * service behind it alike: a title the gateway lets through is never refused behind it.
 */
describe('text limits through HTTP (titles of emoji)', () => {
  let sut: SystemUnderTest;
  let orgId: string;
  let admin: Client;

  beforeAll(async () => {
    sut = await sharedSystem();
    const owner = await createUser(sut, 'text-limits');
    orgId = await createOrganization(sut, owner, `${emojis(10)} organization`);
    admin = http(sut.baseUrl, owner.token);
  }, 120_000);

  it('takes a space title of 50 emoji (100 UTF-16 units) on create and update, refuses 51', async () => {
    const space = await createSpace(admin, orgId, { title: emojis(50) });
    expect(space.title).toBe(emojis(50));
    const renamed = await admin.patch(`/v1/spaces/${space.id}`, { title: emojis(49) + 'x' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.title).toBe(emojis(49) + 'x');
    const tooLong = await admin.post(`/v1/orgs/${orgId}/spaces`, { title: emojis(51) });
    expect(tooLong.status).toBe(400);
    assertErrorBody(400, tooLong.body);
  });

  it('takes a collection title of 50 emoji on create and update, refuses 51', async () => {
    const collection = await createCollection(admin, orgId, { title: emojis(50) });
    expect(collection.title).toBe(emojis(50));
    const renamed = await admin.patch(`/v1/collections/${collection.id}`, { title: emojis(50), description: emojis(100) });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ title: emojis(50), description: emojis(100) });
    expect((await admin.patch(`/v1/collections/${collection.id}`, { title: emojis(51) })).status).toBe(400);
  });

  it('takes a change request subject of 100 emoji on create and update, refuses 101', async () => {
    const space = await createSpace(admin, orgId, { title: 'Subjects' });
    const cr = await openChangeRequest(admin, space.id, emojis(100));
    expect(cr.subject).toBe(emojis(100));
    const updated = await admin.patch(CR(space.id, cr.id), { subject: emojis(99) + 'x' });
    expect(updated.status).toBe(200);
    expect(updated.body.subject).toBe(emojis(99) + 'x');
    expect((await admin.post(CR(space.id), { subject: emojis(101) })).status).toBe(400);
  });

  it('takes a page title of emoji in a change request', async () => {
    const space = await createSpace(admin, orgId, { title: 'Pages' });
    const cr = await openChangeRequest(admin, space.id);
    await editChangeRequest(admin, space.id, cr.id, [{ operation: 'insert_page', title: emojis(50), document: { markdown: 'text' } }]);
    const content = await admin.get(`/v1/spaces/${space.id}/change-requests/${cr.id}/content`);
    expect(content.status).toBe(200);
    expect(content.body.pages.map((p: { title: string }) => p.title)).toEqual([emojis(50)]);
  });
});
