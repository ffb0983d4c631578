import { Db } from 'mongodb';
import { isDuplicateKey, Repository } from '@bindery/platform/mongo';
import { TokenRecord } from '@bindery/identity/domain';
import { COLLECTIONS } from './indexes';

export class TokensRepository extends Repository<TokenRecord> {
  constructor(db: Db) {
    super(db, COLLECTIONS.tokens);
  }

  async insert(token: TokenRecord): Promise<void> {
    await this.insertRecord(token);
  }

  /** Deletes a user's token (tokens carry no events); false if absent. */
  async remove(userId: string, tokenId: string): Promise<boolean> {
    return (await this.hardDelete({ _id: tokenId, userId })) === 1;
  }

  findByHash(hash: string) {
    return this.findOne({ hash });
  }

  /** Records a token given from outside (the bootstrap admin token) unless its hash is known. */
  async ensure(token: TokenRecord): Promise<void> {
    try {
      await this.insertRecord(token);
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }
}
