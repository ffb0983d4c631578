import { imageDimensionsOf, looksLikeSvg, mediaTypeOf, sniffContentType } from './content-type-sniffing';
import { gif, jpeg, pdf, png, svg, webp } from './image-samples';

describe('content type from the bytes', () => {
  test.each([
    ['PNG', png(3, 2), 'image/png', { width: 3, height: 2 }],
    ['JPEG', jpeg(640, 480), 'image/jpeg', { width: 640, height: 480 }],
    ['GIF', gif(7, 5), 'image/gif', { width: 7, height: 5 }],
    ['WebP', webp(300, 200), 'image/webp', { width: 300, height: 200 }],
  ])('%s is recognised whatever was claimed, with its dimensions', async (_label, bytes, type, dimensions) => {
    expect(await sniffContentType(bytes, { given: 'text/html', source: 'application/json' })).toBe(type);
    expect(imageDimensionsOf(bytes, type)).toEqual(dimensions);
  });

  test('PDF is recognised and has no dimensions', async () => {
    expect(await sniffContentType(pdf(), { given: 'image/png' })).toBe('application/pdf');
    expect(imageDimensionsOf(pdf(), 'application/pdf')).toBeUndefined();
  });

  test('SVG takes its claimed type only when the bytes look like SVG', async () => {
    expect(await sniffContentType(svg(40, 30), { given: 'image/svg+xml' })).toBe('image/svg+xml');
    expect(imageDimensionsOf(svg(40, 30), 'image/svg+xml')).toEqual({ width: 40, height: 30 });
    expect(await sniffContentType(svg(40, 30), { source: 'image/svg+xml; charset=utf-8' })).toBe('image/svg+xml');
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    expect(await sniffContentType(html, { given: 'image/svg+xml' })).toBe('application/octet-stream');
    expect(looksLikeSvg(Buffer.from('\uFEFF<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN">\n<svg viewBox="0 0 1 1"/>'))).toBe(true);
  });

  test('text takes the given type, else the source type, when it is text-like', async () => {
    const csv = Buffer.from('a,b\n1,2\n');
    expect(await sniffContentType(csv, { given: 'Text/CSV; charset=utf-8', source: 'text/plain' })).toBe('text/csv');
    expect(await sniffContentType(csv, { given: 'image/png', source: 'text/plain; charset=utf-8' })).toBe('text/plain');
    expect(await sniffContentType(Buffer.from('{"a":1}'), { given: 'application/json' })).toBe('application/json');
    expect(await sniffContentType(Buffer.from('<feed/>'), { given: 'application/atom+xml' })).toBe('application/atom+xml');
  });

  test('anything else is application/octet-stream', async () => {
    expect(await sniffContentType(Buffer.from('plain words'), {})).toBe('application/octet-stream');
    expect(await sniffContentType(Buffer.from('plain words'), { given: 'application/x-msdownload' })).toBe('application/octet-stream');
    expect(await sniffContentType(Buffer.from([1, 0, 2, 0, 3]), { given: 'text/plain' })).toBe('application/octet-stream');
    expect(await sniffContentType(Buffer.alloc(0), { given: 'nonsense' })).toBe('application/octet-stream');
  });

  test('an image whose head does not tell its size has no dimensions (no throw)', () => {
    expect(imageDimensionsOf(jpeg(10, 10, 200_000).subarray(0, 64 * 1024), 'image/jpeg')).toBeUndefined();
    expect(imageDimensionsOf(Buffer.from('garbage'), 'image/png')).toBeUndefined();
  });

  test('media types are normalised', () => {
    expect(mediaTypeOf(' TEXT/Plain ; charset=x')).toBe('text/plain');
    expect(mediaTypeOf('not a type')).toBeUndefined();
    expect(mediaTypeOf(undefined)).toBeUndefined();
  });
});
