import { connectContent } from '@bindery/content/client';
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
export async function seedReusableContents(sut: SystemUnderTest, userId: string, spaceId: string, includes: unknown[] = INCLUDES): Promise<SeededReusableContents> {
  process.env.BINDERY_INTERNAL_SECRET = sut.env.BINDERY_INTERNAL_SECRET;
  const clients = connectContent(`127.0.0.1:${sut.ports.content}`, 120000);
  try {
    const r = await clients.revisions.importTree(
      {
        spaceId,
        treeJson: JSON.stringify(TREE),
        files: [],
        updateCurrent: true,
        revisionKey: '',
        gitJson: JSON.stringify({ oid: 'b'.repeat(40), message: 'Docs' }),
        reusableContentsJson: JSON.stringify(includes),
      },
      { caller: { userId, isInstanceAdmin: false } },
    );
    const ids = JSON.parse(r.reusableContentsJson) as Record<string, string>;
    const pages = JSON.parse(r.pagesJson) as Record<string, string>;
    return { revisionId: r.revisionId, pageId: pages['README.md'], beta: ids['.gitbook/includes/beta.md'], support: ids['.gitbook/includes/support.md'] };
  } finally {
    clients.close();
  }
}
