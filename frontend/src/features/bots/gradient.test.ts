import { describe, expect, it } from 'vitest';
import { formatGradient, GRADIENT_DIRECTIONS, gradientOrSolid, parseGradient, toSixDigits } from './gradient';

describe('gradient strings', () => {
  it('reads every direction with 3- and 6-digit colours and writes the stored spelling back', () => {
    for (const direction of GRADIENT_DIRECTIONS) {
      const parsed = parseGradient(`linear-gradient( ${direction} ,#ABC,  #00ff00)`);
      expect(parsed).toEqual({ direction, from: '#abc', to: '#00ff00' });
      expect(formatGradient(parsed!)).toBe(`linear-gradient(${direction}, #abc, #00ff00)`);
    }
  });

  it.each(['#fff', 'red', 'linear-gradient(45deg, #fff, #000)', 'linear-gradient(to right, #ffff, #000)', '', null])(
    'refuses %j',
    (value) => {
      expect(parseGradient(value)).toBeNull();
    },
  );

  it('falls back to a solid colour for values it cannot read', () => {
    expect(gradientOrSolid('nonsense', '#2ecc71')).toEqual({ direction: 'to right', from: '#2ecc71', to: '#2ecc71' });
  });

  it('widens 3-digit colours for the colour picker', () => {
    expect(toSixDigits('#AbC')).toBe('#aabbcc');
    expect(toSixDigits('#2ECC71')).toBe('#2ecc71');
  });
});
