import { inviteLink } from './inviteLink';

describe('invite link (spec §2: {origin}/register?code=PR{profileId})', () => {
  it('is the origin, /register and the PR code of the player', () => {
    expect(inviteLink('https://wallet.example.com', '42')).toBe('https://wallet.example.com/register?code=PR42');
    expect(inviteLink('http://localhost:3000', '1')).toBe('http://localhost:3000/register?code=PR1');
  });

  it('keeps one slash after the origin and makes the id safe in a URL', () => {
    expect(inviteLink('https://wallet.example.com/', '42')).toBe('https://wallet.example.com/register?code=PR42');
    expect(inviteLink('https://wallet.example.com', ' a&b ')).toBe('https://wallet.example.com/register?code=PRa%26b');
  });

  it('reads back as the code the register page keeps', () => {
    const url = new URL(inviteLink('https://wallet.example.com', '7'));
    expect(url.pathname).toBe('/register');
    expect(url.searchParams.get('code')).toBe('PR7');
  });
});
