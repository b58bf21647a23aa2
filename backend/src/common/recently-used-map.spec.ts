import { RecentlyUsedMap } from './recently-used-map.js';

describe('RecentlyUsedMap', () => {
  it('lets the least recently used entry go past its capacity; a read or a write makes an entry the most recent', () => {
    const map = new RecentlyUsedMap<string, number>(3);
    map.set('a', 1);
    map.set('b', 2);
    map.set('c', 3);
    expect(map.get('a')).toBe(1);
    map.set('d', 4);
    expect(map.get('b')).toBeUndefined();
    expect(map.size).toBe(3);
    map.set('c', 30);
    map.set('e', 5);
    expect([map.get('a'), map.get('c'), map.get('d'), map.get('e')]).toEqual([undefined, 30, 4, 5]);
  });

  it('forgets a deleted entry, and refuses a capacity below one', () => {
    const map = new RecentlyUsedMap<number, string>(2);
    map.set(1, 'one');
    map.delete(1);
    expect(map.get(1)).toBeUndefined();
    expect(map.size).toBe(0);
    expect(() => new RecentlyUsedMap(0)).toThrow(/at least one/);
  });
});
