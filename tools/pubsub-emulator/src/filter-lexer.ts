/** Splits a Pub/Sub subscription filter into tokens. */

export type TokenKind = 'ident' | 'string' | '(' | ')' | ',' | '.' | ':' | '=' | '!=' | '-' | 'end';

export interface Token {
  kind: TokenKind;
  /** Identifier name or decoded string literal; the symbol itself otherwise. */
  text: string;
  /** Offset in the filter, for error messages. */
  at: number;
}

export class FilterSyntaxError extends Error {
  constructor(message: string, at: number) {
    super(`Invalid filter at offset ${at}: ${message}`);
    this.name = 'FilterSyntaxError';
  }
}

const SYMBOLS = new Set(['(', ')', ',', '.', ':', '=', '-']);

/** Per the Pub/Sub docs, bare attribute keys may use letters, digits, `_` and `-`. */
const isIdentStart = (c: string): boolean => /[A-Za-z0-9_]/.test(c);
const isIdentPart = (c: string): boolean => /[A-Za-z0-9_-]/.test(c);

export function tokenize(filter: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < filter.length) {
    const c = filter.charAt(at);
    if (/\s/.test(c)) {
      at += 1;
      continue;
    }
    const token = readToken(filter, at);
    tokens.push(token.token);
    at = token.next;
  }
  tokens.push({ kind: 'end', text: '', at });
  return tokens;
}

function readToken(filter: string, at: number): { token: Token; next: number } {
  const c = filter.charAt(at);
  if (filter.startsWith('!=', at)) return { token: { kind: '!=', text: '!=', at }, next: at + 2 };
  if (SYMBOLS.has(c)) return { token: { kind: c as TokenKind, text: c, at }, next: at + 1 };
  if (c === '"' || c === "'") return readString(filter, at);
  if (isIdentStart(c)) return readIdent(filter, at);
  throw new FilterSyntaxError(`unexpected character '${c}'`, at);
}

function readIdent(filter: string, start: number): { token: Token; next: number } {
  let end = start;
  while (end < filter.length && isIdentPart(filter.charAt(end))) end += 1;
  return { token: { kind: 'ident', text: filter.slice(start, end), at: start }, next: end };
}

function readString(filter: string, start: number): { token: Token; next: number } {
  const quote = filter.charAt(start);
  let text = '';
  let at = start + 1;
  while (at < filter.length) {
    const c = filter.charAt(at);
    if (c === quote) return { token: { kind: 'string', text, at: start }, next: at + 1 };
    if (c === '\\') {
      const decoded = readEscape(filter, at);
      text += decoded.char;
      at = decoded.next;
    } else {
      text += c;
      at += 1;
    }
  }
  throw new FilterSyntaxError('unterminated string literal', start);
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '\\': '\\',
  '"': '"',
  "'": "'",
  n: '\n',
  r: '\r',
  t: '\t',
};

/** Decodes `\x` escapes, including `\xHH` and `\uHHHH`, starting at the backslash. */
function readEscape(filter: string, at: number): { char: string; next: number } {
  const kind = filter.charAt(at + 1);
  const simple = SIMPLE_ESCAPES[kind];
  if (simple !== undefined) return { char: simple, next: at + 2 };
  const hexLength = kind === 'x' ? 2 : kind === 'u' ? 4 : 0;
  const hex = filter.slice(at + 2, at + 2 + hexLength);
  if (hexLength === 0 || !/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== hexLength) {
    throw new FilterSyntaxError('invalid escape sequence', at);
  }
  return { char: String.fromCharCode(Number.parseInt(hex, 16)), next: at + 2 + hexLength };
}
