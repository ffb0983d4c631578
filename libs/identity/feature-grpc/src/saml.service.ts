import { invalid, notFound } from '@bindery/platform/errors';
import { Caller } from '@bindery/platform/grpc';
import {
  assertCanListSsoLogins,
  assertCanManageSaml,
  RoleOrGuest,
  samlProviderStatus,
  SamlProviderRecord,
  validCertificate,
  validEntityID,
  validSamlLabel,
  validSsoURL,
} from '@bindery/identity/domain';
import type { SamlTeamSummary } from '@bindery/identity/data-access';
import { newId, nowIso } from '@bindery/shared/ids';
import { decodeCursor, Page, PageRequest, resolveLimit, toPage } from '@bindery/shared/pagination';
import { IdentityDeps } from './identity-deps';
import { loadVisible } from './organizations.service';
import { samlProviderEvent } from './saml-events';

export interface SamlProviderView {
  provider: SamlProviderRecord;
  /** absent when no default team is set, or it is gone */
  team?: SamlTeamSummary & { members: number };
}

/** The settings of a create or a patch; absent fields are left alone (or defaulted on create). */
export interface SamlSettings {
  label?: string;
  entityID?: string;
  certificate?: string;
  ssoURL?: string;
  defaultTeam?: string;
  defaultRole?: { value: RoleOrGuest };
}

type Settable = Pick<SamlProviderRecord, 'label' | 'entityID' | 'certificate' | 'ssoURL' | 'defaultTeam' | 'defaultRole'>;

/** Every field checked before anything is written, so a refused request changes nothing. */
async function checkedSettings(deps: IdentityDeps, organizationId: string, input: SamlSettings): Promise<Partial<Settable>> {
  const out: Partial<Settable> = {};
  if (input.label !== undefined) out.label = validSamlLabel(input.label);
  if (input.entityID !== undefined) out.entityID = validEntityID(input.entityID);
  if (input.certificate !== undefined) out.certificate = validCertificate(input.certificate);
  if (input.ssoURL !== undefined) out.ssoURL = validSsoURL(input.ssoURL);
  if (input.defaultRole !== undefined) out.defaultRole = input.defaultRole.value;
  if (input.defaultTeam !== undefined) {
    // Another organization's team and a missing one are the same answer.
    const teams = await deps.samlProviders.teams(organizationId, [input.defaultTeam]);
    if (!teams.has(input.defaultTeam)) throw invalid('defaultTeam must be a team of this organization.');
    out.defaultTeam = input.defaultTeam;
  }
  return out;
}

async function withTeams(deps: IdentityDeps, organizationId: string, providers: SamlProviderRecord[]): Promise<SamlProviderView[]> {
  const ids = providers.map((p) => p.defaultTeam).filter((t): t is string => t !== undefined);
  const teams = await deps.samlProviders.teams(organizationId, ids);
  const counts = await deps.teams.memberCounts(organizationId, [...teams.keys()]);
  return providers.map((provider) => {
    const team = provider.defaultTeam ? teams.get(provider.defaultTeam) : undefined;
    return { provider, team: team && { ...team, members: counts.get(team._id) ?? 0 } };
  });
}

async function loadProvider(deps: IdentityDeps, organizationId: string, providerId: string): Promise<SamlProviderRecord> {
  const provider = await deps.samlProviders.find(organizationId, providerId);
  if (!provider) throw notFound('SAML provider');
  return provider;
}

async function asAdmin(deps: IdentityDeps, caller: Caller, organizationId: string) {
  const view = await loadVisible(deps, caller, organizationId);
  assertCanManageSaml(view.standing);
  return view;
}

/** The organization's providers in creation order, keyset-paginated (admins). */
export async function listSamlProviders(deps: IdentityDeps, caller: Caller, organizationId: string, page: PageRequest): Promise<Page<SamlProviderView>> {
  await asAdmin(deps, caller, organizationId);
  const limit = resolveLimit(page.limit);
  const cursor = decodeCursor(page.page);
  const [rows, count] = await Promise.all([deps.samlProviders.list(organizationId, cursor, limit), deps.samlProviders.count(organizationId)]);
  const result = toPage(
    rows,
    limit,
    count,
    (p) => ({ k: p.createdAt, id: p._id }),
    (p) => p,
  );
  return { ...result, items: await withTeams(deps, organizationId, result.items) };
}

/**
 * Creates a provider (admins). Without a defaultRole it takes the organization's default role for
 * new members. Event: saml_provider.created.
 */
export async function createSamlProvider(deps: IdentityDeps, caller: Caller, organizationId: string, input: SamlSettings & { label: string }): Promise<SamlProviderView> {
  const { org } = await asAdmin(deps, caller, organizationId);
  const settings = await checkedSettings(deps, organizationId, input);
  const now = nowIso();
  const id = newId();
  const provider = await deps.samlProviders.insert(
    {
      _id: id,
      organizationId,
      label: settings.label!,
      ...(settings.entityID !== undefined ? { entityID: settings.entityID } : {}),
      ...(settings.certificate !== undefined ? { certificate: settings.certificate } : {}),
      ...(settings.ssoURL !== undefined ? { ssoURL: settings.ssoURL } : {}),
      ...(settings.defaultTeam !== undefined ? { defaultTeam: settings.defaultTeam } : {}),
      defaultRole: settings.defaultRole !== undefined ? settings.defaultRole : org.defaultRole,
      createdAt: now,
      createdBy: caller.userId,
      updatedAt: now,
    },
    [samlProviderEvent('created', organizationId, id)],
  );
  deps.eventsRecorded();
  return (await withTeams(deps, organizationId, [provider]))[0];
}

export async function getSamlProvider(deps: IdentityDeps, caller: Caller, organizationId: string, providerId: string): Promise<SamlProviderView> {
  await asAdmin(deps, caller, organizationId);
  return (await withTeams(deps, organizationId, [await loadProvider(deps, organizationId, providerId)]))[0];
}

/** Changes the given settings (admins); an unchanged provider records no event. Event: saml_provider.updated. */
export async function updateSamlProvider(deps: IdentityDeps, caller: Caller, organizationId: string, providerId: string, input: SamlSettings): Promise<SamlProviderView> {
  await asAdmin(deps, caller, organizationId);
  const current = await loadProvider(deps, organizationId, providerId);
  const settings = await checkedSettings(deps, organizationId, input);
  const changed = Object.fromEntries(Object.entries(settings).filter(([k, v]) => current[k as keyof Settable] !== v)) as Partial<Settable>;
  if (!Object.keys(changed).length) return (await withTeams(deps, organizationId, [current]))[0];
  const updated = await deps.samlProviders.update(organizationId, providerId, { ...changed, updatedAt: nowIso() }, [samlProviderEvent('updated', organizationId, providerId)]);
  if (!updated) throw notFound('SAML provider');
  deps.eventsRecorded();
  return (await withTeams(deps, organizationId, [updated]))[0];
}

/** Deletes a provider (admins); false when there was none (HTTP 204). Event: saml_provider.deleted. */
export async function deleteSamlProvider(deps: IdentityDeps, caller: Caller, organizationId: string, providerId: string): Promise<boolean> {
  await asAdmin(deps, caller, organizationId);
  const deleted = await deps.samlProviders.softDelete(organizationId, providerId, nowIso(), [samlProviderEvent('deleted', organizationId, providerId)]);
  return deleted;
}

/** The sign-in choices of an organization, for any member: its active providers only. */
export async function listSsoProviderLogins(deps: IdentityDeps, caller: Caller, organizationId: string): Promise<SamlProviderRecord[]> {
  const { standing } = await loadVisible(deps, caller, organizationId);
  assertCanListSsoLogins(standing);
  return (await deps.samlProviders.all(organizationId)).filter((p) => samlProviderStatus(p) === 'active');
}
