import { connectContent } from '@bindery/content/client';
import { contentRevisionsV1 } from '@bindery/shared/contracts';
import type { SystemUnderTest } from '@bindery/shared/testing';

/** A tree with two reusable contents, both included by the one page. */
const TREE = [{ source: 'README.md', markdown: '# Welcome\n\n{% include ".gitbook/includes/beta.md" %}\n\n{% include ".gitbook/includes/support.md" %}\n' }];
const INCLUDES = [
  { source: '.gitbook/includes/beta.md', title: 'Beta warning', markdown: '---\ntitle: Beta warning\n---\n\nThis is in **beta**.\n', oid: 'a'.repeat(40) },
  { source: '.gitbook/includes/support.md', markdown: '# Support\n\nWrite to support.\n' },
];

export interface SeededReusableContents {
  revisionId: string;
  pageId: string;
  beta: string;
  support: string;
}

/**
 * Gives a space reusable contents the way Git sync does: content's ImportTree over gRPC, as a signed
 * caller (no HTTP route writes reusable contents). The test process signs with the system's internal secret.
 */
export async function seedReusableContents(
  sut: SystemUnderTest,
  userId: string,
  spaceId: string,
  includes: contentRevisionsV1.ImportedReusableContent[] = INCLUDES,
): Promise<SeededReusableContents> {
  process.env.BINDERY_INTERNAL_SECRET = sut.env.BINDERY_INTERNAL_SECRET;
  const clients = connectContent(`127.0.0.1:${sut.ports.content}`, 120000);
  try {
    const r = await clients.revisions.importTree(
      {
        spaceId,
        tree: TREE.map((e) => contentRevisionsV1.ImportTreeEntry.fromPartial(e)),
        files: [],
        updateCurrent: true,
        revisionKey: '',
        git: { oid: 'b'.repeat(40), message: 'Docs' },
        reusableContents: { items: includes },
      },
      { caller: { userId, isInstanceAdmin: false } },
    );
    const ids = r.reusableContents;
    const pages = r.pages;
    return { revisionId: r.revisionId, pageId: pages['README.md'], beta: ids['.gitbook/includes/beta.md'], support: ids['.gitbook/includes/support.md'] };
  } finally {
    clients.close();
  }
}
