import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';

import { BankMark } from './BankMark';
import { SelectField } from './FormField';

function BankSelect() {
  const [code, setCode] = useState('');
  return (
    <SelectField label="Bank" value={code} onChange={(event) => setCode(event.target.value)} adornment={code ? <BankMark code={code} /> : undefined}>
      <option value="">Choose</option>
      <option value="SCB">Siam Commercial Bank</option>
      <option value="KBANK">Kasikornbank</option>
    </SelectField>
  );
}

describe('SelectField adornment', () => {
  it("shows the chosen bank's mark before the select, and the select keeps focus when it appears", async () => {
    const user = userEvent.setup();
    const { container } = render(<BankSelect />);
    const select = screen.getByRole('combobox', { name: 'Bank' });
    expect(container.querySelector('.bank-mark')).toBeNull();
    select.focus();
    await user.selectOptions(select, 'KBANK');
    expect(container.querySelector('.bank-mark')).toHaveTextContent('K');
    // The same element, still focused: an adornment that comes and goes does not remount the control.
    expect(screen.getByRole('combobox', { name: 'Bank' })).toBe(select);
    expect(select).toHaveFocus();
    expect(select).toHaveAccessibleName('Bank');
  });
});
