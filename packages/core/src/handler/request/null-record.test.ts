import { describe, expect, it } from 'vitest';
import { isNullRecordPrototype, nullRecord } from './null-record.js';

describe('nullRecord', () => {
  it('inherits nothing, and what records share cannot be changed', () => {
    const record = nullRecord<string>();
    const proto = Object.getPrototypeOf(record) as object;
    expect(isNullRecordPrototype(proto)).toBe(true);
    expect(Object.getPrototypeOf(proto)).toBeNull();
    expect(Reflect.ownKeys(proto)).toEqual([]);
    expect(Object.isFrozen(proto)).toBe(true);
    expect(() => {
      (proto as Record<string, string>).polluted = 'yes';
    }).toThrow(TypeError);
    for (const name of ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf'])
      expect(record[name]).toBeUndefined();
  });

  it('keeps polluting keys as its own plain properties', () => {
    const record = nullRecord<string>();
    record.__proto__ = 'a';
    record['constructor' as string] = 'b';
    expect(Object.getPrototypeOf(record)).not.toBe('a');
    expect(isNullRecordPrototype(Object.getPrototypeOf(record))).toBe(true);
    expect(Object.keys(record)).toEqual(['__proto__', 'constructor']);
    expect(JSON.stringify(record)).toBe('{"__proto__":"a","constructor":"b"}');
    expect(nullRecord<string>()['constructor' as string]).toBeUndefined();
  });
});
