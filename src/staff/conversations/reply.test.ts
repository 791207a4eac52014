import { addChip, buildReply, MESSAGE_MAX, QUICK_REPLY_TITLE_MAX } from './reply';

describe('quick reply chips', () => {
  it('adds trimmed chips, up to four, each once', () => {
    let chips: string[] = [];
    for (const title of [' Deposit ', 'Withdraw', 'Bonus', 'Staff']) {
      const r = addChip(chips, title);
      if (!('chips' in r)) throw new Error(`refused ${title}`);
      chips = r.chips;
    }
    expect(chips).toEqual(['Deposit', 'Withdraw', 'Bonus', 'Staff']);
    expect(addChip(chips, 'Fifth')).toEqual({ refused: 'full' });
    expect(addChip(['Deposit'], 'deposit')).toEqual({ refused: 'duplicate' });
    expect(addChip([], '   ')).toEqual({ refused: 'empty' });
  });

  it('cuts a long title to the chip limit', () => {
    const r = addChip([], 'x'.repeat(QUICK_REPLY_TITLE_MAX + 10));
    expect('chips' in r && r.chips[0].length).toBe(QUICK_REPLY_TITLE_MAX);
  });
});

describe('the reply body', () => {
  it('text without chips', () => {
    expect(buildReply('  hello  ', [])).toEqual({ body: { message: 'hello', message_type: 'text' } });
  });

  it("with chips: message_type 'quick_replies' and postback buttons with a code the server accepts", () => {
    expect(buildReply('Which one?', ['Deposit', 'ถอนเงิน'])).toEqual({
      body: {
        message: 'Which one?',
        message_type: 'quick_replies',
        payload: {
          quick_replies: [
            { title: 'Deposit', type: 'postback', payload: 'STAFF_REPLY_1' },
            { title: 'ถอนเงิน', type: 'postback', payload: 'STAFF_REPLY_2' },
          ],
        },
      },
    });
  });

  it('refuses blank and over-long text', () => {
    expect(buildReply(' \n ', ['Deposit'])).toEqual({ refused: 'empty' });
    expect(buildReply('x'.repeat(MESSAGE_MAX), [])).toHaveProperty('body');
    expect(buildReply('x'.repeat(MESSAGE_MAX + 1), [])).toEqual({ refused: 'tooLong' });
  });
});
