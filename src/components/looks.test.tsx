import { render, screen } from '@testing-library/react';

import { EmptyState } from './EmptyState';
import { Skeleton } from './Skeleton';

describe('EmptyState', () => {
  it('shows a decorative picture, the text and what to do', () => {
    const { container } = render(
      <EmptyState text="No slips uploaded yet." testId="empty">
        <button type="button">Upload</button>
      </EmptyState>,
    );
    expect(screen.getByTestId('empty')).toHaveTextContent('No slips uploaded yet.');
    expect(container.querySelector('svg')).toHaveAttribute('aria-hidden', 'true');
    expect(screen.getByRole('button', { name: 'Upload' })).toBeInTheDocument();
  });
});

describe('Skeleton', () => {
  it('is a busy status that says Loading to assistive technology, with hidden placeholder blocks', () => {
    render(<Skeleton rows={4} variant="card" />);
    const status = screen.getByRole('status');
    expect(status).toHaveAttribute('aria-busy', 'true');
    expect(status).toHaveAccessibleName('');
    expect(status).toHaveTextContent('Loading…');
    expect(status).toHaveClass('skeleton--card');
    const blocks = status.querySelectorAll('.skeleton__block');
    expect(blocks).toHaveLength(4);
    blocks.forEach((block) => expect(block).toHaveAttribute('aria-hidden', 'true'));
  });
});
