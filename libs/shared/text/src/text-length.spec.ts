import { characterCount, hasLengthWithin } from './text-length';

describe('characterCount', () => {
  it('counts code points, as JSON Schema maxLength does', () => {
    expect(characterCount('abc')).toBe(3);
    expect(characterCount('😀'.repeat(30))).toBe(30);
    expect('😀'.repeat(30).length).toBe(60);
    expect(characterCount('é')).toBe(1);
    expect(characterCount('')).toBe(0);
  });

  it('bounds both ends', () => {
    expect(hasLengthWithin('😀'.repeat(50), 0, 50)).toBe(true);
    expect(hasLengthWithin('😀'.repeat(51), 0, 50)).toBe(false);
    expect(hasLengthWithin('a', 2, 255)).toBe(false);
  });
});
