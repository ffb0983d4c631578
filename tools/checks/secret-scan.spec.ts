import { newSecret, SECRET_PREFIXES } from '@bindery/shared/ids';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { findSecrets, scanLogs } = require('./secret-scan.js') as {
  findSecrets(text: string): string[];
  scanLogs(dir: string): { files: number; lines: number; found: string[] };
};
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('secret scan', () => {
  test('finds every kind of secret Bindery issues, and reports it without repeating it', () => {
    for (const prefix of Object.values(SECRET_PREFIXES)) {
      const secret = newSecret(prefix);
      const found = findSecrets(`{"msg":"oops","url":"https://docs.example.com/x?share=${secret}"}`);
      expect(found).toHaveLength(1);
      expect(found[0].startsWith(`${prefix}_`)).toBe(true);
      expect(found[0].length).toBeLessThan(20);
    }
  });

  test('finds private keys and SAML responses or assertions, as XML or base64 as posted', () => {
    const response = '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_1">';
    const assertion = '<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_2">';
    expect(findSecrets(`{"msg":"${response}"}`)).toEqual(['SAML XML…']);
    expect(findSecrets(`{"body":"SAMLResponse=${Buffer.from(response).toString('base64')}"}`)).toEqual(['SAML base64…']);
    expect(findSecrets(`{"x":"${Buffer.from(assertion).toString('base64')}"}`)).toEqual(['SAML base64…']);
    expect(findSecrets('{"key":"-----BEGIN PRIVATE KEY-----\\nMIIE"}')).toEqual(['private key…']);
    expect(findSecrets('{"key":"-----BEGIN RSA PRIVATE KEY-----"}')).toEqual(['private key…']);
    expect(findSecrets('{"msg":"SAML response refused: signature.","cert":"-----BEGIN CERTIFICATE-----"}')).toEqual([]);
  });

  test('leaves ids, short words and prefixes alone', () => {
    expect(findSecrets('{"msg":"bshare_ is the prefix of keys","id":"gb_api","siteId":"bsite_abc"}')).toEqual([]);
  });

  test('reads every log file line by line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'secret-scan-'));
    writeFileSync(join(dir, 'sites-1.log'), `{"msg":"ok"}\n{"msg":"leak ${newSecret('bsite')}"}\n`);
    writeFileSync(join(dir, 'gateway-2.log'), '{"msg":"ok"}\n');
    const r = scanLogs(dir);
    expect(r).toMatchObject({ files: 2, lines: 3 });
    expect(r.found).toEqual([expect.stringMatching(/^sites-1\.log: bsite_/)]);
  });
});
