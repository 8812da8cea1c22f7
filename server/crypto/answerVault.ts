/**
 * Sensitive answers at rest (D150): each value of a key the definition marks `sensitive` is stored
 * as `{ sealed, digest }`: AES-256-GCM under the tenant's data key, bound to the tenant, the
 * applicant and the answer key, and beside it a keyed digest of the plaintext, so the save's one
 * statement (D130) still tells an unchanged value from a changed one. Each names the version of the
 * data key it is under (D167); one naming none is under the first. Values are opened only where
 * a person is entitled to read them (the applicant, the staff view, the PDF, the CSV).
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { ServerConfig } from '../config';
import type { Database } from '../db/client';
import { sensitiveKeys, type Definition } from '../../runtime';
import { hmac } from '../secrets';
import { keyObjectOf, openBytes, sealBytes } from './aead';
import { FIRST_KEY_VERSION, TenantKeys, type DataKey } from './dataKeys';
import { masterKeys } from './masterKey';

/** A sealed answer as stored in `applications.answers`. */
export interface SealedAnswer {
  readonly sealed: string;
  readonly digest: string;
  /** The data key's version (D167); absent in values sealed before versions, which are the first. */
  readonly keyVersion?: number;
  /** The plaintext was deflated before sealing (D186); absent when it was sealed as it is. */
  readonly deflated?: true;
}

/** The version of the data key a sealed answer is under. */
export const keyVersionOf = (value: SealedAnswer): number => value.keyVersion ?? FIRST_KEY_VERSION;

/** The version the values sealed by one `AnswerVault.seal` are under; null when it sealed none. */
export function sealedVersionOf(answers: Readonly<Record<string, unknown>>): number | null {
  const sealed = Object.values(answers).find(isSealed);
  return sealed ? keyVersionOf(sealed) : null;
}

/** Whose answers: the ciphertext is bound to both ids. */
export interface AnswerOwner {
  readonly tenantId: string;
  readonly userId: string;
}

/** Answers are JSON scalars or flat lists (answerProblems refuses objects): an object is sealed. */
export function isSealed(value: unknown): value is SealedAnswer {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as { sealed?: unknown }).sealed === 'string'
  );
}

/** The ciphertext is bound to its owner, its key and whether it holds deflated bytes. */
const context = (owner: AnswerOwner, key: string, deflated: boolean) =>
  `answer:${owner.tenantId}:${owner.userId}:${key}${deflated ? ':deflated' : ''}`;

/**
 * Below this many bytes a value is sealed as it is: deflating a name or a number saves nothing. A
 * longer one (an explanation typed as prose) is deflated first, as the database would have
 * compressed it in the clear; ciphertext does not compress (D186).
 */
const DEFLATE_FROM_BYTES = 256;

export function sealOne(
  dataKey: DataKey,
  owner: AnswerOwner,
  key: string,
  value: unknown,
): SealedAnswer {
  const plaintext = JSON.stringify(value ?? null);
  const bytes = Buffer.from(plaintext, 'utf8');
  const packed = bytes.length >= DEFLATE_FROM_BYTES ? deflateRawSync(bytes) : undefined;
  const deflated = packed !== undefined && packed.length < bytes.length;
  return {
    sealed: sealBytes(
      dataKey.encryption,
      deflated ? packed : bytes,
      context(owner, key, deflated),
    ).toString('base64'),
    digest: hmac(keyObjectOf(dataKey.digest), `${key}\u0000${plaintext}`),
    keyVersion: dataKey.version,
    ...(deflated ? { deflated: true as const } : {}),
  };
}

export function openOne(
  dataKey: DataKey,
  owner: AnswerOwner,
  key: string,
  value: SealedAnswer,
): unknown {
  const deflated = value.deflated === true;
  const opened = openBytes(
    dataKey.encryption,
    Buffer.from(value.sealed, 'base64'),
    context(owner, key, deflated),
  );
  const plaintext = deflated ? inflateRawSync(opened) : opened;
  return JSON.parse(plaintext.toString('utf8')) as unknown;
}

export class AnswerVault {
  constructor(readonly keys: TenantKeys) {}

  /** The answers with every sensitive value sealed (a new map; the same one when none is). */
  async seal(
    owner: AnswerOwner,
    sensitive: ReadonlySet<string>,
    answers: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const toSeal = Object.keys(answers).filter(
      (key) => sensitive.has(key) && !isSealed(answers[key]),
    );
    if (toSeal.length === 0) return answers;
    const dataKey = await this.keys.keyOf(owner.tenantId);
    const sealed = { ...answers };
    for (const key of toSeal) sealed[key] = sealOne(dataKey, owner, key, answers[key]);
    return sealed;
  }

  /** `seal` with the definition's sensitive keys. */
  sealFor(owner: AnswerOwner, definition: Definition, answers: Record<string, unknown>) {
    return this.seal(owner, sensitiveKeys(definition), answers);
  }

  /** The answers with every sealed value opened (a new map; the same one when none is sealed). */
  async open(
    owner: AnswerOwner,
    answers: Readonly<Record<string, unknown>>,
  ): Promise<Record<string, unknown>> {
    const sealedKeys = Object.keys(answers).filter((key) => isSealed(answers[key]));
    if (sealedKeys.length === 0) return answers as Record<string, unknown>;
    const opened = { ...answers };
    for (const key of sealedKeys) {
      const value = answers[key] as SealedAnswer;
      const dataKey = await this.keys.keyAt(owner.tenantId, keyVersionOf(value));
      opened[key] = openOne(dataKey, owner, key, value);
    }
    return opened;
  }
}

const vaults = new WeakMap<Database, AnswerVault>();

/** The vault of a database, under the configured master key (one per database and process). */
export function vaultOf(ctx: {
  readonly db: Database;
  readonly config: Pick<ServerConfig, 'masterKey' | 'masterKeyPrevious' | 'dataDir' | 'now'>;
}): AnswerVault {
  let vault = vaults.get(ctx.db);
  if (!vault) {
    const { config } = ctx;
    const now = () => config.now().getTime();
    vault = new AnswerVault(new TenantKeys(ctx.db, masterKeys(config), undefined, now));
    vaults.set(ctx.db, vault);
  }
  return vault;
}
