// The identity-provider port: a credential goes in, a proven (non-secret) identity comes out.
// What the identity may *do* is decided afterwards by its actor mapping.

export type CredentialKind = 'api_key' | 'bearer';

export interface ProvenIdentity {
  kind: CredentialKind;
  /** api_key: the key id; bearer: the token subject. */
  subject: string;
  /** bearer: the token issuer; api_key: '' (key ids are global to the provider). */
  issuer: string;
  /** Non-secret metadata the provider reports (organization owner, key permissions). */
  organizationId?: string | undefined;
  providerPermissions?: string[] | undefined;
}

export class InvalidCredentialError extends Error {
  constructor(readonly reason: string) {
    super(`invalid credential: ${reason}`);
    this.name = 'InvalidCredentialError';
  }
}

export class ProviderUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderUnavailableError';
  }
}

export interface IdentityProvider {
  readonly driver: 'local' | 'external';
  verifyBearer(token: string): Promise<ProvenIdentity>;
  verifyApiKey(key: string): Promise<ProvenIdentity>;
}
