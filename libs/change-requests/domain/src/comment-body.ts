import { Document, documentToMarkdown, markdownToDocument, MarkdownInputError } from '@bindery/shared/markdown';
import { invalid } from '@bindery/platform/errors';

const MAX_MARKDOWN = 65536;
const MAX_JSON = 262144;

const EMPTY: Document = { object: 'document', data: {}, nodes: [] } as unknown as Document;

/**
 * A comment body as the API takes it — `{markdown}`, `{document}` or `{}` — stored as a Document.
 * Markdown is parsed with the content format's own parser; a document must at least be one (the
 * gateway has checked it against the official schema).
 */
export function bodyFromInput(input: unknown): Document {
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw invalid('body must be an object.');
  if (JSON.stringify(input).length > MAX_JSON) throw invalid('body is too large.');
  const body = input as { markdown?: unknown; document?: unknown };
  if (typeof body.markdown === 'string') {
    if (body.markdown.length > MAX_MARKDOWN) throw invalid(`body.markdown must be at most ${MAX_MARKDOWN} characters.`);
    try {
      // a comment has no title or front matter: a leading `# heading` stays a heading
      const parsed = markdownToDocument(body.markdown);
      if (parsed.title === undefined) return parsed.document;
      const heading = { object: 'block', type: 'heading-1', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: parsed.title, marks: [] }] }] };
      return { ...parsed.document, nodes: [heading as Document['nodes'][number], ...parsed.document.nodes] };
    } catch (err) {
      if (err instanceof MarkdownInputError) throw invalid(`body.markdown: ${err.message}`);
      throw err;
    }
  }
  if (body.document !== undefined) {
    const doc = body.document as { object?: unknown; nodes?: unknown };
    if (!doc || typeof doc !== 'object' || doc.object !== 'document' || !Array.isArray(doc.nodes))
      throw invalid('body.document must be a document ({object: "document", data, nodes}).');
    return doc as unknown as Document;
  }
  if (Object.keys(body).length === 0) return EMPTY;
  throw invalid('body must be {markdown}, {document} or {}.');
}

/** The body in the format asked: `{document}` (default) or `{markdown}`. */
export function bodyInFormat(document: Document, format: string): Record<string, unknown> {
  if (format === 'markdown') return { markdown: documentToMarkdown(document) };
  return { document };
}
