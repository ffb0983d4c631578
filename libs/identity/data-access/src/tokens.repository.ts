import { Db } from 'mongodb';
import { isDuplicateKey } from '@bindery/platform/mongo';
import { TokenRecord } from '@bindery/identity/domain';
import { COLLECTIONS } from './indexes';

export class TokensRepository {
  constructor(private readonly db: Db) {}

  private get col() {
    return this.db.collection<TokenRecord>(COLLECTIONS.tokens);
  }

  async insert(token: TokenRecord): Promise<void> {
    await this.col.insertOne(token);
  }

  /** Deletes a user's token (tokens carry no events, so a hard delete is safe); false if absent. */
  async remove(userId: string, tokenId: string): Promise<boolean> {
    const r = await this.col.deleteOne({ _id: tokenId, userId });
    return r.deletedCount === 1;
  }

  findByHash(hash: string) {
    return this.col.findOne({ hash });
  }

  /** Records a token given from outside (the bootstrap admin token) unless its hash is known. */
  async ensure(token: TokenRecord): Promise<void> {
    try {
      await this.col.insertOne(token);
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }
}
