/**
 * The TypeScript blocks of a Markdown file. A block is a fence whose language is `ts` or
 * `typescript`; what follows the language on the fence line (invisible on GitHub and npm) holds
 * this tool's options:
 *
 * - `run`: the block is a complete program; it is run, and must exit 0.
 * - `file=<name>.ts`: the block is written under that name, so another block of the same file
 *   can import it (`import { profiles } from './profiles.js'`).
 *
 * A block that uses names it does not declare (the reader's `host`, a `client` made earlier)
 * is preceded by an HTML comment that declares them, type-checked with the block and invisible
 * on the page:
 *
 *     <!-- docs-check: declare const host: Host<HostPlayer>; -->
 */

export interface DocBlock {
  /** The Markdown file, as given (repository-relative in reports). */
  readonly file: string;
  /** The 1-based line of the block's first line of code. */
  readonly line: number;
  readonly code: string;
  /** The declarations from a `<!-- docs-check: ... -->` comment before the block, or ''. */
  readonly preamble: string;
  /** The 1-based line where that comment's text starts. */
  readonly preambleLine: number;
  readonly run: boolean;
  /** The `file=` name, if any. */
  readonly name?: string;
}

/** A mistake in how a file marks its blocks, reported like a type error. */
export interface MarkupProblem {
  readonly file: string;
  readonly line: number;
  readonly message: string;
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*(\S*)\s*(.*)$/;
const TS_LANGUAGES = new Set(['ts', 'typescript', 'mts']);
const COMMENT_START = '<!-- docs-check:';
const FILE_NAME = /^[\w-]+\.m?ts$/;

interface Fence {
  readonly indent: number;
  readonly marker: string;
  readonly language: string;
  readonly options: string;
  readonly line: number;
}

interface Preamble {
  readonly text: string;
  readonly line: number;
  /** The last line of the comment, which the block must follow (blank lines apart). */
  readonly endLine: number;
}

export function extractBlocks(
  markdown: string,
  file: string,
): { blocks: DocBlock[]; problems: MarkupProblem[] } {
  const lines = markdown.split('\n');
  const blocks: DocBlock[] = [];
  const problems: MarkupProblem[] = [];
  /** A docs-check comment not yet followed by its block (blank lines may come between). */
  let pending: Preamble | undefined;
  for (let index = 0; index < lines.length; index += 1) {
    const text = lines[index]!;
    const lineNo = index + 1;
    if (text.trim().startsWith(COMMENT_START)) {
      const comment = readComment(lines, index);
      if (!comment) {
        problems.push({
          file,
          line: lineNo,
          message: 'a docs-check comment is never closed (-->)',
        });
        break;
      }
      if (pending) problems.push(orphan(file, pending));
      pending = comment;
      index = comment.endLine - 1;
      continue;
    }
    const fence = openingFence(text, lineNo);
    if (!fence) {
      if (pending && text.trim() !== '') {
        problems.push(orphan(file, pending));
        pending = undefined;
      }
      continue;
    }
    const end = closingLine(lines, index, fence);
    const body = lines.slice(index + 1, end).map((code) => dedent(code, fence.indent));
    if (TS_LANGUAGES.has(fence.language)) {
      const options = parseOptions(fence, file, problems);
      blocks.push({
        file,
        line: lineNo + 1,
        code: body.join('\n'),
        preamble: pending?.text ?? '',
        preambleLine: pending?.line ?? lineNo,
        run: options.run,
        ...(options.name ? { name: options.name } : {}),
      });
    } else if (pending) {
      problems.push(orphan(file, pending));
    }
    pending = undefined;
    index = end;
  }
  if (pending) problems.push(orphan(file, pending));
  return { blocks, problems };
}

function orphan(file: string, preamble: Preamble): MarkupProblem {
  return {
    file,
    line: preamble.line,
    message: 'a docs-check comment must come right before the ts block it declares names for',
  };
}

/** `<!-- docs-check: ... -->` from line `index`, on one line or several. */
function readComment(lines: readonly string[], index: number): Preamble | undefined {
  const first = lines[index]!;
  const after = first.slice(first.indexOf(COMMENT_START) + COMMENT_START.length);
  const parts: string[] = [];
  for (let at = index; at < lines.length; at += 1) {
    const text = at === index ? after : lines[at]!;
    const close = text.indexOf('-->');
    if (close >= 0) {
      parts.push(text.slice(0, close));
      return { text: parts.join('\n'), line: index + 1, endLine: at + 1 };
    }
    parts.push(text);
  }
  return undefined;
}

function openingFence(text: string, line: number): Fence | undefined {
  const match = FENCE.exec(text);
  if (!match) return undefined;
  const [, indent = '', marker = '', language = '', options = ''] = match;
  return { indent: indent.length, marker, language: language.toLowerCase(), options, line };
}

/** The index of the line that closes `fence` (the file's end when none does). */
function closingLine(lines: readonly string[], open: number, fence: Fence): number {
  const char = fence.marker[0]!;
  for (let index = open + 1; index < lines.length; index += 1) {
    const trimmed = lines[index]!.trim();
    if (trimmed.length >= fence.marker.length && /^(`+|~+)$/.test(trimmed) && trimmed[0] === char) {
      return index;
    }
  }
  return lines.length;
}

function dedent(line: string, indent: number): string {
  let cut = 0;
  while (cut < indent && line[cut] === ' ') cut += 1;
  return line.slice(cut);
}

function parseOptions(fence: Fence, file: string, problems: MarkupProblem[]) {
  let run = false;
  let name: string | undefined;
  for (const option of fence.options.split(/\s+/).filter(Boolean)) {
    if (option === 'run') run = true;
    else if (option.startsWith('file=') && FILE_NAME.test(option.slice(5))) name = option.slice(5);
    else {
      problems.push({
        file,
        line: fence.line,
        message: `unknown docs-check option "${option}" on the fence (use "run" or "file=<name>.ts")`,
      });
    }
  }
  return { run, name };
}
