/**
 * JSON bodies read under limits checked while the bytes arrive (D72): size, nesting depth and
 * member count, duplicate keys (SECURITY.md 7.19: `{"ssn":"1","ssn":"2"}` could be validated as one
 * value and read as another), prototype keys, and strings PostgreSQL or UTF-8 cannot hold (NUL,
 * lone surrogates). A hostile body is refused at the first token over a limit, so a megabyte of
 * nesting costs a few bytes of work, not a full parse. The tokenizer and value builder are
 * @streamparser/json; this module only watches the tokens go by.
 */
import Tokenizer from '@streamparser/json/tokenizer.js';
import TokenParser from '@streamparser/json/tokenparser.js';
import TokenType from '@streamparser/json/utils/types/tokenType.js';

export interface JsonLimits {
  /** Bytes of the body. */
  readonly bytes: number;
  /** Open containers at once: `{}` is 1, `{"a":[]}` is 2. */
  readonly depth: number;
  /** Object keys plus array elements, over the whole body. */
  readonly members: number;
}

/** Why a body was refused: too large (413) or not acceptable JSON (400). */
export class JsonRefused extends Error {
  constructor(readonly reason: 'tooLarge' | 'malformed') {
    super(reason === 'tooLarge' ? 'JSON body over its limit' : 'JSON body refused');
  }
}

/** Keys that would reach an object's prototype in code that copies or merges bodies. */
const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** NUL (PostgreSQL text and jsonb cannot hold it) or a lone surrogate (not encodable as UTF-8). */
// eslint-disable-next-line no-control-regex -- NUL is exactly what is looked for
const UNSTORABLE = /\u0000|\p{Cs}/u;

/** False for text no column can hold: a NUL or a lone surrogate (bodies, paths and queries alike). */
export const isStorableText = (text: string): boolean => !UNSTORABLE.test(text);

interface Open {
  /** Keys seen so far in an object; null for an array. */
  readonly keys: Set<string> | null;
  /** Objects: the next string is a key. */
  expectKey: boolean;
}

/** Reads one JSON document chunk by chunk; `write` and `end` throw JsonRefused. */
export class BoundedJsonReader {
  private readonly tokenizer = new Tokenizer();
  private readonly parser = new TokenParser();
  private readonly open: Open[] = [];
  private bytes = 0;
  private members = 0;
  private sawToken = false;
  private value: unknown = undefined;
  private failure: JsonRefused | null = null;

  constructor(private readonly limits: JsonLimits) {
    this.tokenizer.onToken = (token) => {
      this.check(token.token, token.value);
      this.parser.write(token);
    };
    this.tokenizer.onError = () => this.refuse('malformed');
    this.parser.onValue = ({ value, stack }) => {
      if (stack.length === 0) this.value = value;
    };
    this.parser.onError = () => this.refuse('malformed');
    // The defaults throw on end, which would escape the tokenizer's callback.
    this.tokenizer.onEnd = () => undefined;
    this.parser.onEnd = () => undefined;
  }

  write(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limits.bytes) this.refuse('tooLarge');
    this.run(() => this.tokenizer.write(chunk));
  }

  /** The value; an empty body reads as {}. */
  end(): unknown {
    if (!this.sawToken && this.failure === null) return {};
    this.run(() => {
      if (!this.tokenizer.isEnded) this.tokenizer.end();
    });
    if (!this.parser.isEnded || this.value === undefined) this.refuse('malformed');
    return this.value;
  }

  private run(step: () => void): void {
    if (this.failure) throw this.failure;
    try {
      step();
    } catch (error) {
      throw this.failure ?? (error instanceof JsonRefused ? error : new JsonRefused('malformed'));
    }
    if (this.failure) throw this.failure;
  }

  private refuse(reason: JsonRefused['reason']): never {
    this.failure ??= new JsonRefused(reason);
    throw this.failure;
  }

  private check(token: TokenType, value: unknown): void {
    this.sawToken = true;
    const top = this.open[this.open.length - 1];
    const startsValue = token !== TokenType.COLON && token !== TokenType.COMMA;
    if (top && !top.keys && startsValue && token !== TokenType.RIGHT_BRACKET) this.count();
    switch (token) {
      case TokenType.LEFT_BRACE:
      case TokenType.LEFT_BRACKET:
        if (this.open.length >= this.limits.depth) this.refuse('malformed');
        this.open.push({
          keys: token === TokenType.LEFT_BRACE ? new Set() : null,
          expectKey: true,
        });
        return;
      case TokenType.RIGHT_BRACE:
      case TokenType.RIGHT_BRACKET:
        this.open.pop();
        return;
      case TokenType.COMMA:
        if (top?.keys) top.expectKey = true;
        return;
      case TokenType.STRING: {
        const text = value as string;
        if (!isStorableText(text)) this.refuse('malformed');
        if (top?.keys && top.expectKey) {
          top.expectKey = false;
          this.count();
          if (PROTOTYPE_KEYS.has(text) || top.keys.has(text)) this.refuse('malformed');
          top.keys.add(text);
        }
        return;
      }
      default:
        return;
    }
  }

  private count(): void {
    if (++this.members > this.limits.members) this.refuse('malformed');
  }
}

/** Parses a whole text under limits (tests, and callers that already hold the text). */
export function parseBoundedJson(text: string, limits: JsonLimits): unknown {
  const reader = new BoundedJsonReader(limits);
  reader.write(Buffer.from(text, 'utf8'));
  return reader.end();
}
