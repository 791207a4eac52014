import { statementReference } from './index';

describe('statement line reference (issue 12 receipts)', () => {
  test('is the movement id: a deposit without its source prefix, anything else as recorded', () => {
    expect(statementReference('deposit', 'slip:014123456789ABC')).toBe('014123456789ABC');
    expect(statementReference('deposit', 'qr:qr_9f2c')).toBe('qr_9f2c');
    expect(statementReference('deposit', 'gift:v-77')).toBe('v-77');
    expect(statementReference('transfer', '5d1f0c1e-aaaa-4bbb-8ccc-123456789abc')).toBe('5d1f0c1e-aaaa-4bbb-8ccc-123456789abc');
    expect(statementReference('withdrawal', 'wd_12')).toBe('wd_12');
    expect(statementReference('luckydraw', '42')).toBe('42');
  });
});
