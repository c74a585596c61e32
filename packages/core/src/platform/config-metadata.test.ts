import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { field } from '../connector/field.js';
import { describeConfig } from './config-metadata.js';

describe('describeConfig', () => {
  it('makes the metadata fields from the configuration declaration: keys, required, types, values, defaults', () => {
    const config = {
      url: field.url(),
      user: field.email(),
      password: field.secret().min(8),
      token: field.secret().optional(),
      port: field.port().optional(),
      retries: field.integer({ min: 0 }).default(3),
      verbose: field.boolean().default(false),
      mode: field.enum(['cloud', 'server']),
      options: field.json(z.object({ depth: z.number() })).optional(),
      notes: field.string().optional(),
    };
    expect(
      describeConfig(config, {
        url: { displayName: 'URL', tooltip: 'Where the API is', fieldOrder: 1 },
        user: { displayName: 'User' },
        password: { displayName: 'Password' },
        token: { displayName: 'Token', screens: ['SYSTEM_CONFIG'] },
        port: { displayName: 'Port' },
        retries: { displayName: 'Retries' },
        verbose: { displayName: 'Verbose' },
        mode: { displayName: 'Mode', fieldType: 'RADIO_BUTTON' },
        options: { displayName: 'Options' },
        notes: { displayName: 'Notes', fieldType: 'TEXT_AREA' },
      }),
    ).toEqual([
      {
        internalName: 'url',
        displayName: 'URL',
        tooltip: 'Where the API is',
        fieldOrder: 1,
        required: true,
        fieldType: 'URL',
      },
      { internalName: 'user', displayName: 'User', required: true, fieldType: 'EMAIL' },
      { internalName: 'password', displayName: 'Password', required: true, fieldType: 'PASSWORD' },
      {
        internalName: 'token',
        displayName: 'Token',
        screens: ['SYSTEM_CONFIG'],
        required: false,
        fieldType: 'PASSWORD',
      },
      { internalName: 'port', displayName: 'Port', required: false, fieldType: 'NUMERIC' },
      {
        internalName: 'retries',
        displayName: 'Retries',
        required: false,
        fieldType: 'NUMERIC',
        defaultValue: '3',
      },
      {
        internalName: 'verbose',
        displayName: 'Verbose',
        required: false,
        fieldType: 'CHECKBOX',
        defaultValue: 'false',
      },
      {
        internalName: 'mode',
        displayName: 'Mode',
        required: true,
        fieldType: 'RADIO_BUTTON',
        lookup: {
          staticValues: [
            { internalName: 'cloud', displayName: 'cloud' },
            { internalName: 'server', displayName: 'server' },
          ],
        },
      },
      { internalName: 'options', displayName: 'Options', required: false, fieldType: 'JSON' },
      { internalName: 'notes', displayName: 'Notes', required: false, fieldType: 'TEXT_AREA' },
    ]);
  });

  it('masks a JSON field that holds a secret, and never shows a secret default', () => {
    const fields = describeConfig(
      {
        credentials: field.json(z.object({ token: field.secret() })),
        pin: field.secret().default('0000'),
      },
      { credentials: { displayName: 'Credentials' }, pin: { displayName: 'PIN' } },
    );
    expect(fields).toEqual([
      {
        internalName: 'credentials',
        displayName: 'Credentials',
        required: true,
        fieldType: 'PASSWORD',
      },
      { internalName: 'pin', displayName: 'PIN', required: false, fieldType: 'PASSWORD' },
    ]);
  });

  it('never shows a secret as anything but PASSWORD', () => {
    expect(() =>
      describeConfig(
        { key: field.secret() },
        { key: { displayName: 'Key', fieldType: 'TEXT_BOX' } },
      ),
    ).toThrow("describeConfig: 'key' is a secret field, so it is shown as PASSWORD, not TEXT_BOX");
  });
});
