import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { GitBookAPI } from '@gitbook/api';
import { assertErrorBody, readEvents, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createOrganization, createUser, TestUser } from './fixtures';
import { Client, http, walk } from './http-client';

type Json = Record<string, unknown>;

/**
 * The reference's translation settings. No official release has their shape (the official
 * `Translation` is another resource), so answers are validated against the schemas the served
 * /openapi.json declares for these operations; the official client is used where its call takes no
 * body of the official shape (list, get, delete).
 */
describe('translation settings through the gateway', () => {
  let sut: SystemUnderTest;
  let ada: TestUser;
  let api: Client;
  let official: GitBookAPI;
  let served: (method: string, path: string, status: number) => ValidateFunction;

  const expectServed = (method: string, path: string, status: number, res: { status: number; body: unknown }) => {
    expect({ status: res.status, body: res.status === status ? undefined : res.body }).toEqual({ status, body: undefined });
    const validate = served(method, path, status);
    if (!validate(res.body)) throw new Error(`${method} ${path}: ${JSON.stringify(validate.errors)}`);
    return res.body as Json;
  };

  beforeAll(async () => {
    sut = await sharedSystem();
    ada = await createUser(sut, 'translator');
    api = http(sut.baseUrl, ada.token);
    official = new GitBookAPI({ endpoint: sut.baseUrl, authToken: ada.token });
    const doc = (await http(sut.baseUrl).get('/openapi.json')).body as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: Json }> }> }>>;
    };
    const ajv = addFormats(new Ajv2020({ strict: true, allErrors: true }));
    served = (method, path, status) => ajv.compile(doc.paths[path][method].responses[String(status)].content!['application/json'].schema);
  });

  it('creates, reads, lists, renames and deletes settings; languages are BCP 47 tags in canonical form', async () => {
    const orgId = await createOrganization(sut, ada, 'Translated');
    const LIST = '/v1/orgs/{organizationId}/translations';
    const ONE = '/v1/orgs/{organizationId}/translations/{translationSettingsId}';
    const created = expectServed('post', LIST, 201, await api.post(`/v1/orgs/${orgId}/translations`, { title: '  French and Brazilian  ', languages: ['fr', 'pt-br', 'FR'] }));
    expect(created).toEqual({
      object: 'translation-settings',
      id: expect.any(String),
      title: 'French and Brazilian',
      languages: ['fr', 'pt-BR'],
      createdAt: expect.any(String),
      updatedAt: created.createdAt,
      permissions: { view: true, edit: true },
      urls: { location: `${sut.baseUrl}/v1/orgs/${orgId}/translations/${created.id}` },
    });
    const id = created.id as string;
    const second = expectServed('post', LIST, 201, await api.post(`/v1/orgs/${orgId}/translations`, { title: 'Japanese' }));
    expect(second.languages).toEqual([]);

    const got = await official.orgs.getTranslation(orgId, id);
    expectServed('get', ONE, 200, { status: got.status, body: got.data });
    expect(got.data).toEqual(created);
    const list = await official.orgs.listTranslations(orgId);
    expectServed('get', LIST, 200, { status: list.status, body: list.data });
    expect(list.data).toEqual({ items: [created, second], count: 2 });
    expect((await walk(api, `/v1/orgs/${orgId}/translations`, 1)).map((t) => t.id)).toEqual([id, second.id]);

    const renamed = expectServed('put', ONE, 200, await api.put(`/v1/orgs/${orgId}/translations/${id}`, { title: 'French' }));
    expect(renamed).toMatchObject({ id, title: 'French', languages: ['fr', 'pt-BR'] });
    const relanguaged = expectServed('put', ONE, 200, await api.put(`/v1/orgs/${orgId}/translations/${id}`, { title: 'French', languages: ['zh-hant-tw', 'sr-latn'] }));
    expect(relanguaged.languages).toEqual(['zh-Hant-TW', 'sr-Latn']);

    const deleted = await official.orgs.deleteTranslation(orgId, id);
    expect(deleted.status).toBe(205);
    expect((await api.delete(`/v1/orgs/${orgId}/translations/${id}`)).status).toBe(204);
    expect((await api.get(`/v1/orgs/${orgId}/translations/${id}`)).status).toBe(404);

    const events = await readEvents(sut.env.KAFKA_BROKERS.split(','), `${sut.env.KAFKA_NAMESPACE}bindery.specs.v1`, (evs) =>
      evs.some((e) => e.subject === id && e.type === 'specs.translation_settings.deleted'),
    );
    expect(events.filter((e) => e.subject === id).map((e) => e.type)).toEqual([
      'specs.translation_settings.created',
      'specs.translation_settings.updated',
      'specs.translation_settings.updated',
      'specs.translation_settings.deleted',
    ]);
  });

  it('refuses what is not a title or a BCP 47 tag with a 400 naming it, and changes nothing', async () => {
    const orgId = await createOrganization(sut, ada, 'Refused');
    const cases: Array<[unknown, string]> = [
      [{}, 'body.title is required'],
      [{ title: '' }, 'body.title'],
      [{ title: '   ' }, 'body.title must be text of 1 to 100 characters, not all white space'],
      [{ title: 'x'.repeat(101) }, 'body.title'],
      [{ title: 'ok', languages: 'fr' }, 'body.languages must be array'],
      [{ title: 'ok', languages: ['fr', 'en_US'] }, 'languages[1]: "en_US" is not a BCP 47 language tag'],
      [{ title: 'ok', languages: ['english please'] }, 'languages[0]: "english please" is not a BCP 47 language tag'],
      [{ title: 'ok', languages: ['x'] }, 'languages[0]: "x" is not a BCP 47 language tag'],
      [{ title: 'ok', languages: Array.from({ length: 101 }, () => 'fr') }, 'body.languages'],
      [{ title: 'ok', glossary: [] }, 'unknown field "glossary"'],
    ];
    for (const [body, message] of cases) {
      const res = await api.post(`/v1/orgs/${orgId}/translations`, body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      assertErrorBody(400, res.body);
      expect(res.body.error.message).toContain(message);
    }
    expect((await api.get(`/v1/orgs/${orgId}/translations`)).body).toEqual({ items: [], count: 0 });
    expect((await api.get(`/v1/orgs/${orgId}/translations/unknown`)).status).toBe(404);
    expect((await api.put(`/v1/orgs/${orgId}/translations/unknown`, { title: 'x' })).status).toBe(404);
  });
});
