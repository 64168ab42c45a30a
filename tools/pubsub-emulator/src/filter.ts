import { FilterSyntaxError, type Token, type TokenKind, tokenize } from './filter-lexer.js';

export { FilterSyntaxError } from './filter-lexer.js';

/**
 * A parsed subscription filter. `attributes.K != "v"` is stored as
 * not(equals), which matches messages that lack K, as on Google's service.
 */
export type FilterNode =
  | { kind: 'has'; key: string }
  | { kind: 'equals'; key: string; value: string }
  | { kind: 'prefix'; key: string; prefix: string }
  | { kind: 'not'; operand: FilterNode }
  | { kind: 'and' | 'or'; operands: FilterNode[] };

export type Attributes = Readonly<Record<string, string>>;

/** Google rejects longer filters, so a test that passes here would fail there. */
const MAX_FILTER_BYTES = 256;

/**
 * Parses the Pub/Sub filter grammar over message attributes. Returns null for
 * an empty filter (deliver everything). Throws FilterSyntaxError otherwise.
 */
export function parseFilter(filter: string): FilterNode | null {
  if (Buffer.byteLength(filter, 'utf8') > MAX_FILTER_BYTES) {
    throw new FilterSyntaxError(`longer than ${MAX_FILTER_BYTES} bytes`, MAX_FILTER_BYTES);
  }
  const tokens = tokenize(filter);
  if (tokens[0]?.kind === 'end') return null;
  const parser = new Parser(tokens);
  const node = parser.expression();
  parser.expect('end');
  return node;
}

export function matchesFilter(node: FilterNode | null, attributes: Attributes): boolean {
  if (node === null) return true;
  switch (node.kind) {
    case 'has':
      return Object.hasOwn(attributes, node.key);
    case 'equals':
      return attributes[node.key] === node.value;
    case 'prefix':
      return attributes[node.key]?.startsWith(node.prefix) ?? false;
    case 'not':
      return !matchesFilter(node.operand, attributes);
    case 'and':
      return node.operands.every((operand) => matchesFilter(operand, attributes));
    case 'or':
      return node.operands.some((operand) => matchesFilter(operand, attributes));
  }
}

/** Recursive descent over the token list; one method per grammar rule. */
class Parser {
  private index = 0;

  constructor(private readonly tokens: Token[]) {}

  /**
   * term (AND term)* | term (OR term)*. Google requires parentheses to mix
   * AND and OR, so a mixed chain is an error rather than a precedence guess.
   */
  expression(): FilterNode {
    const first = this.term();
    const operator = this.peekKeyword('AND') ? 'and' : this.peekKeyword('OR') ? 'or' : null;
    if (operator === null) return first;
    const operands = [first];
    while (this.acceptKeyword(operator.toUpperCase())) operands.push(this.term());
    const other = operator === 'and' ? 'OR' : 'AND';
    if (this.peekKeyword(other)) {
      throw new FilterSyntaxError('use parentheses to combine AND and OR', this.peek().at);
    }
    return { kind: operator, operands };
  }

  private term(): FilterNode {
    if (this.acceptKeyword('NOT') || this.accept('-')) return { kind: 'not', operand: this.term() };
    if (this.accept('(')) {
      const inner = this.expression();
      this.expect(')');
      return inner;
    }
    if (this.acceptKeyword('hasPrefix')) return this.hasPrefix();
    if (this.acceptKeyword('attributes')) return this.attributeTest();
    throw this.unexpected();
  }

  /** After `attributes`: `:KEY`, `.KEY = "v"` or `.KEY != "v"`. */
  private attributeTest(): FilterNode {
    if (this.accept(':')) return { kind: 'has', key: this.key() };
    this.expect('.');
    const key = this.key();
    if (this.accept('=')) return { kind: 'equals', key, value: this.expect('string').text };
    this.expect('!=');
    const value = this.expect('string').text;
    return { kind: 'not', operand: { kind: 'equals', key, value } };
  }

  /** After `hasPrefix`: `(attributes.KEY, "prefix")`. */
  private hasPrefix(): FilterNode {
    this.expect('(');
    if (!this.acceptKeyword('attributes')) throw this.unexpected();
    this.expect('.');
    const key = this.key();
    this.expect(',');
    const prefix = this.expect('string').text;
    this.expect(')');
    return { kind: 'prefix', key, prefix };
  }

  /** Bare keys are identifiers; other characters need a string literal. */
  private key(): string {
    const token = this.peek();
    if (token.kind !== 'ident' && token.kind !== 'string') throw this.unexpected();
    this.index += 1;
    return token.text;
  }

  expect(kind: TokenKind): Token {
    const token = this.peek();
    if (token.kind !== kind) throw this.unexpected(kind);
    this.index += 1;
    return token;
  }

  private accept(kind: TokenKind): boolean {
    if (this.peek().kind !== kind) return false;
    this.index += 1;
    return true;
  }

  private peekKeyword(word: string): boolean {
    const token = this.peek();
    return token.kind === 'ident' && token.text === word;
  }

  private acceptKeyword(word: string): boolean {
    if (!this.peekKeyword(word)) return false;
    this.index += 1;
    return true;
  }

  private peek(): Token {
    // tokenize() always ends the list with an 'end' token, so this never runs off.
    return this.tokens[Math.min(this.index, this.tokens.length - 1)]!;
  }

  private unexpected(wanted?: TokenKind): FilterSyntaxError {
    const token = this.peek();
    const found = token.kind === 'end' ? 'end of filter' : `'${token.text}'`;
    const hint = wanted ? ` (expected ${wanted})` : '';
    return new FilterSyntaxError(`unexpected ${found}${hint}`, token.at);
  }
}
